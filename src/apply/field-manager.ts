/**
 * The field manager of one kind at one served version: keeps `metadata.managedFields` current on
 * every write and performs server-side apply. It composes what Kubernetes layers around
 * structured-merge-diff: manager identifiers, the "current operation" bookkeeping of updates and
 * their timestamps, the cap on update entries, the metadata fields nobody owns, fields a
 * subresource does not own, the reset request, and kubectl's client-side apply annotation.
 * Pure: objects in are not mutated; time comes in with the request.
 */
import { errors } from '../machinery/errors.js';
import type { KubeObject, StructSchema } from '../schema/index.js';
import { decodeObject } from '../schema/decode.js';
import { applyConflictError } from './conflicts.js';
import { FieldSet } from './field-set.js';
import { fieldsFromLastApplied, KUBECTL_MANAGER, syncLastApplied } from './last-applied.js';
import {
  capUpdateManagers,
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  isResetRequest,
  managerIdentifier,
  type Managed,
  type ManagedFieldsEntry,
} from './managed-fields.js';
import { fieldPath } from './path.js';
import { ConflictError, Updater, type ManagedFields } from './updater.js';
import { validateTyped } from './validate.js';
import { isObject, type JsonObject } from './value.js';

/** Kubernetes keeps at most this many Update entries; older ones merge into `ancient-changes`. */
export const MAX_UPDATE_MANAGERS = 10;

/** The updater that owns what an untracked object held when it is first applied to. */
export const BEFORE_FIRST_APPLY = 'before-first-apply';

/** The bookkeeping name of the write in progress, merged into the real manager afterwards. */
const CURRENT_OPERATION = 'current-operation';

/** Fields of the object envelope no manager ever owns. */
const UNOWNED = FieldSet.of(
  fieldPath('apiVersion'),
  fieldPath('kind'),
  fieldPath('metadata'),
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((f) => fieldPath('metadata', f)),
);

export interface FieldManagerOptions {
  /** The kind's schema at the served version. */
  readonly schema: StructSchema;
  /** `group/version` of the served version (`v1` for the core group). */
  readonly apiVersion: string;
  readonly kind: string;
  /**
   * Fields a write to the main resource ('') or to a subresource does not own (the store resets
   * them). Asked once per subresource: the answer must not change.
   */
  readonly resetFields?: (subresource: string) => FieldSet | undefined;
  readonly maxUpdateManagers?: number;
  /** Key of kubectl's client-side apply annotation, when the API domain has one. */
  readonly lastAppliedAnnotation?: string;
}

export interface WriteRequest {
  /** The field manager; an empty name records as `unknown` on updates. */
  readonly manager: string;
  /** '' for the main resource. */
  readonly subresource: string;
  readonly now: Date;
}

export interface ApplyRequest extends WriteRequest {
  readonly force: boolean;
}

function formatTime(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

function withoutManagedFields(obj: unknown): JsonObject {
  const copy = isObject(obj) ? { ...obj } : {};
  if (isObject(copy.metadata)) {
    const { managedFields: _omit, ...meta } = copy.metadata;
    copy.metadata = meta;
  }
  return copy;
}

function managedFieldsOf(obj: unknown): unknown {
  return isObject(obj) && isObject(obj.metadata) ? obj.metadata.managedFields : undefined;
}

/** Freezes a JSON value and everything in it, so that a shared value cannot be changed by mistake. */
function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

export class FieldManager {
  /** One updater per subresource: they hold only the schema and the reset fields, both fixed. */
  private readonly updaters = new Map<string, Updater>();
  private frozenEmpty: JsonObject | undefined;

  constructor(private readonly opts: FieldManagerOptions) {}

  private updater(subresource: string): Updater {
    let u = this.updaters.get(subresource);
    if (!u) {
      const ignored = this.opts.resetFields?.(subresource);
      u = new Updater({ type: this.opts.schema, ...(ignored ? { ignored } : {}) });
      this.updaters.set(subresource, u);
    }
    return u;
  }

  /** The object a create starts from: every field Go would print for an empty object. */
  private emptyObject(): JsonObject {
    return decodeObject<JsonObject>(this.opts.schema, { apiVersion: this.opts.apiVersion, kind: this.opts.kind }).value;
  }

  /**
   * The empty object, built once and frozen, for readers that never hand it (or parts of it) on:
   * update only compares it. Apply merges into it and returns the result, so it takes a fresh one.
   */
  private sharedEmptyObject(): JsonObject {
    return (this.frozenEmpty ??= deepFreeze(this.emptyObject()));
  }

  private decodeOrEmpty(entries: unknown): Managed {
    try {
      return decodeManagedFields(Array.isArray(entries) ? (entries as ManagedFieldsEntry[]) : undefined);
    } catch {
      return emptyManaged();
    }
  }

  /**
   * The bookkeeping an update starts from: none after a reset request; the managedFields the
   * write carries when they are valid and not empty (updating them directly is allowed on the
   * main resource); else the live object's. `reset` tells a reset request from having none.
   */
  private startingPoint(live: unknown, next: unknown, subresource: string): Managed & { reset: boolean } {
    const liveManaged = (): Managed & { reset: boolean } => ({ ...this.decodeOrEmpty(managedFieldsOf(live)), reset: false });
    if (subresource) return liveManaged();
    const sent = managedFieldsOf(next);
    if (isResetRequest(sent)) return { ...emptyManaged(), reset: true };
    if (!Array.isArray(sent) || sent.length === 0) return liveManaged();
    try {
      const m = decodeManagedFields(sent as ManagedFieldsEntry[]);
      return m.fields.size ? { ...m, reset: false } : liveManaged();
    } catch {
      return liveManaged();
    }
  }

  private stripUnowned(fields: ManagedFields, id: string): void {
    const vs = fields.get(id);
    if (!vs) return;
    const set = vs.set.difference(UNOWNED);
    if (set.empty) fields.delete(id);
    else fields.set(id, { ...vs, set });
  }

  /**
   * The managedFields after a write (POST, PUT, non-apply PATCH) that turns `live` (undefined on
   * create) into `next`: the writer owns what it changed and nobody owns what it removed. An
   * existing object nobody tracks stays untracked (until an apply), as in Kubernetes, except right
   * after a reset request, whose writer owns what it changed. Never fails: when the bookkeeping
   * cannot be done the live managedFields are kept.
   */
  update(live: KubeObject | undefined, next: KubeObject, req: WriteRequest): ManagedFieldsEntry[] | undefined {
    const liveObj = live ?? this.sharedEmptyObject();
    const managed = this.startingPoint(liveObj, next, req.subresource);
    if (live && managed.fields.size === 0 && !managed.reset) return undefined;
    try {
      const id = managerIdentifier({ manager: req.manager || 'unknown', operation: 'Update', apiVersion: this.opts.apiVersion, subresource: req.subresource });
      const fields = this.updater(req.subresource).update(withoutManagedFields(liveObj), withoutManagedFields(next), this.opts.apiVersion, managed.fields, CURRENT_OPERATION);
      this.stripUnowned(fields, CURRENT_OPERATION);
      const took = fields.get(CURRENT_OPERATION);
      if (took) {
        fields.delete(CURRENT_OPERATION);
        const previous = fields.get(id);
        fields.set(id, { set: previous ? took.set.union(previous.set) : took.set, apiVersion: this.opts.apiVersion, applied: false });
        managed.times.set(id, formatTime(req.now));
      }
      const out: Managed = { fields, times: managed.times };
      capUpdateManagers(out, this.opts.maxUpdateManagers ?? MAX_UPDATE_MANAGERS);
      return encodeManagedFields(out);
    } catch {
      const kept = managedFieldsOf(live);
      return Array.isArray(kept) && kept.length ? (kept as ManagedFieldsEntry[]) : undefined;
    }
  }

  /** `group/version, Kind=kind` as Go prints a GroupVersionKind. */
  private gvkText(apiVersion: unknown, kind: unknown): string {
    const av = typeof apiVersion === 'string' ? apiVersion : '';
    const gv = av.includes('/') ? av : `/${av}`;
    return `${gv}, Kind=${typeof kind === 'string' ? kind : ''}`;
  }

  /** Refuses a configuration apply cannot take: wrong type, managedFields, values off the schema. */
  private checkConfig(config: JsonObject): void {
    if (config.apiVersion !== this.opts.apiVersion || config.kind !== this.opts.kind) {
      throw errors.badRequest(`invalid object type: ${this.gvkText(config.apiVersion, config.kind)}`);
    }
    const meta = config.metadata;
    if (isObject(meta) && meta.managedFields !== undefined && meta.managedFields !== null) {
      throw errors.badRequest('metadata.managedFields must be nil');
    }
    const errs = validateTyped(this.opts.schema, config);
    if (errs.length) {
      const name = isObject(meta) ? `${String(meta.namespace ?? '')}/${String(meta.name ?? '')}` : '/';
      const detail = errs.length === 1 ? errs[0] : `errors:\n${errs.map((e) => `  ${e}`).join('\n')}`;
      throw errors.badRequest(`failed to create typed patch object (${name}; ${this.gvkText(config.apiVersion, config.kind)}): ${detail}`);
    }
  }

  /**
   * Server-side apply of `config` by `req.manager` to `live` (undefined when the object does not
   * exist yet). Returns the object to store, with its managedFields. Throws a 400 StatusError for a
   * configuration it cannot take and a 409 listing the conflicts unless forced.
   */
  apply(live: KubeObject | undefined, config: JsonObject, req: ApplyRequest): JsonObject {
    this.checkConfig(config);
    const liveObj = live ?? this.emptyObject();
    let managed = this.decodeOrEmpty(managedFieldsOf(liveObj));
    if (live && managed.fields.size === 0) {
      // An object nobody tracked: what it holds now is recorded as an update before the first
      // apply, so the applier cannot silently take fields someone set before tracking began.
      managed = this.decodeOrEmpty(this.update(undefined, withoutManagedFields(liveObj) as KubeObject, { manager: BEFORE_FIRST_APPLY, subresource: req.subresource, now: req.now }));
    }
    const liveBare = withoutManagedFields(liveObj);
    const id = managerIdentifier({ manager: req.manager, operation: 'Apply', subresource: req.subresource });
    const updater = this.updater(req.subresource);
    let result;
    try {
      result = updater.apply(liveBare, config, this.opts.apiVersion, managed.fields, id, req.force);
    } catch (e) {
      if (!(e instanceof ConflictError)) throw e;
      const allowed = req.manager === KUBECTL_MANAGER && this.opts.lastAppliedAnnotation
        ? fieldsFromLastApplied(this.opts.schema, liveBare, this.opts.lastAppliedAnnotation, this.opts.apiVersion)
        : undefined;
      const remaining = allowed ? e.conflicts.filter((c) => !allowed.has(c.path)) : e.conflicts;
      if (remaining.length) throw applyConflictError(remaining);
      // Every conflict is a field kubectl applied client-side before: take them over.
      result = updater.apply(liveBare, config, this.opts.apiVersion, managed.fields, id, true);
    }
    const fields = result.managers;
    this.stripUnowned(fields, id);
    let out: JsonObject;
    if (result.object !== undefined && isObject(result.object)) {
      out = result.object;
      managed.times.set(id, formatTime(req.now));
    } else {
      out = structuredClone(liveBare);
    }
    if (req.manager === KUBECTL_MANAGER && this.opts.lastAppliedAnnotation) syncLastApplied(out, liveBare, config, this.opts.lastAppliedAnnotation);
    const entries = encodeManagedFields({ fields, times: managed.times });
    const meta = isObject(out.metadata) ? out.metadata : (out.metadata = {});
    if (entries) meta.managedFields = entries as unknown as JsonObject[];
    else delete meta.managedFields;
    return out;
  }
}
