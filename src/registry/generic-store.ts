/**
 * The generic store: create, update, delete and reads for one resource, with the order of the
 * Kubernetes registry: decode and default (done by the caller) → mutating admission → prepare →
 * validate → validating admission → persist. Updates are pure transforms inside a
 * compare-and-swap loop; reads come from the watch cache or, for past revisions, the store.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Admission, AdmissionAttributes, AdmissionOperation } from './admission.js';
import type { UserInfo } from '../machinery/user-info.js';
import type { AuditContext } from '../machinery/request-context.js';
import type { ApiNames } from '../machinery/api-names.js';
import { errors, StatusError } from '../machinery/errors.js';
import type { FieldError } from '../machinery/field-errors.js';
import type { GroupResource } from '../machinery/gvk.js';
import { zeroValue, type DeleteOptions, type KubeObject, type ObjectMeta } from '../schema/index.js';
import { WatchCache, type CacheEntry } from '../storage/cacher/cache.js';
import { EncodedObject } from '../machinery/encoded-object.js';
import { isKVError, type KVEntry, type RevisionedKV } from '../storage/kv.js';
import type { PartialSubresource, ResourceDefinition, StrategyContext, WriteTransaction } from './define-resource.js';
import { carryUpdateSystemFields, fillCreateSystemFields, formatTime, generateName, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { StoreReads } from './store-reads.js';

export interface RequestScope {
  /** '' for cluster-scoped resources and all-namespace requests. */
  namespace: string;
  user?: UserInfo;
  signal: AbortSignal;
  /** Advice collected for `Warning` headers. */
  warnings: string[];
  /** The group and version the request named (which served version of the kind it used). */
  groupVersion?: { group: string; version: string };
  /** The request's audit context, for admission's annotations. */
  audit?: AuditContext;
  /** `fieldManager` and `fieldValidation` as the request sent them, for the options admission sees. */
  writeParams?: { fieldManager?: string; fieldValidation?: string };
}

/**
 * Records who changed which fields: given the stored object (undefined on create) and the object
 * about to be admitted, returns the `metadata.managedFields` to store with it. Pure; never throws
 * for client input. The endpoint passes one per write (it knows the manager and the served version);
 * writes without one keep the managedFields the object carries.
 */
export type ManagedFieldsStep = (live: KubeObject | undefined, next: KubeObject) => ObjectMeta['managedFields'];

export interface WriteOptions {
  dryRun: boolean;
  /** Updates metadata.managedFields for this write (see ManagedFieldsStep). */
  managedFields?: ManagedFieldsStep;
}

export interface UpdateOptions extends WriteOptions {
  /** '' for the main resource, else the subresource written (status, finalize, ...). */
  subresource: string;
  /** PUT may create when the kind allows it; PATCH never creates before apply exists. */
  allowCreate: boolean;
  /** The uid the stored object must have (a PUT whose body names a uid); checked before anything else. */
  preconditions?: { uid?: string };
}

/** Computes the new object from the current one (undefined when creating); may throw a StatusError. */
export type UpdateTransform = (current: KubeObject | undefined) => Promise<KubeObject> | KubeObject;

export interface DeleteResult {
  object: KubeObject;
  /** True when the object is gone; false while finalizers hold it. */
  deleted: boolean;
}

const MAX_UPDATE_ATTEMPTS = 50;
const GENERATE_NAME_ATTEMPTS = 8;
const PROPAGATION_POLICIES = ['Orphan', 'Background', 'Foreground'];

export interface GenericStoreDeps {
  def: ResourceDefinition;
  names: ApiNames;
  kv: RevisionedKV;
  cache: WatchCache;
  admission: Admission;
  /** The resource's key prefix, ending in '/'. */
  prefix: string;
}

export class GenericStore extends StoreReads {
  readonly def: ResourceDefinition;
  private readonly names: ApiNames;
  private readonly admission: Admission;

  constructor(deps: GenericStoreDeps) {
    super(deps.def, deps.kv, deps.cache, deps.prefix, deps.names.metaGroup);
    this.def = deps.def;
    this.names = deps.names;
    this.admission = deps.admission;
  }

  get groupResource(): GroupResource {
    return { group: this.def.group, resource: this.def.resource };
  }

  private strategyContext(scope: RequestScope, subresource = ''): StrategyContext {
    return {
      names: this.names,
      namespace: scope.namespace,
      subresource,
      now: new Date(),
      ...(scope.user ? { user: scope.user } : {}),
      ...(scope.groupVersion ? { requestGroupVersion: scope.groupVersion } : {}),
    };
  }

  private encode(obj: KubeObject): string {
    const { resourceVersion: _rv, selfLink: _sl, ...meta } = obj.metadata;
    return JSON.stringify({ ...obj, metadata: meta });
  }

  private decodeEntry(e: KVEntry): KubeObject {
    const obj = JSON.parse(e.value) as KubeObject;
    obj.metadata.resourceVersion = String(e.modRevision);
    return obj;
  }

  private invalid(name: string, errs: FieldError[]): StatusError {
    return errors.invalid({ group: this.def.group, kind: this.def.kind }, name, errs);
  }

  private attrs(
    op: AdmissionOperation,
    scope: RequestScope,
    name: string,
    subresource: string,
    dryRun: boolean,
    object?: KubeObject,
    oldObject?: KubeObject,
    deleteOptions?: DeleteOptions,
  ): AdmissionAttributes {
    const gv = scope.groupVersion;
    return {
      operation: op,
      group: this.def.group,
      version: this.def.version,
      resource: this.def.resource,
      subresource,
      kind: this.def.kind,
      namespace: this.def.namespaced ? scope.namespace : '',
      name,
      ...(object ? { object } : {}),
      ...(oldObject ? { oldObject } : {}),
      dryRun,
      ...(scope.user ? { user: scope.user } : {}),
      signal: scope.signal,
      ...(gv && (gv.group !== this.def.group || gv.version !== this.def.version) ? { requestGroupVersion: gv } : {}),
      options: this.admissionOptions(op, scope, dryRun, deleteOptions),
      warnings: scope.warnings,
      ...(scope.audit ? { audit: scope.audit } : {}),
    };
  }

  /** The options object Kubernetes passes to admission with each operation. */
  private admissionOptions(op: AdmissionOperation, scope: RequestScope, dryRun: boolean, deleteOptions?: DeleteOptions): Record<string, unknown> {
    const apiVersion = `${this.names.metaGroup}/v1`;
    const dry = dryRun ? { dryRun: ['All'] } : {};
    if (op === 'DELETE') return { ...deleteOptions, apiVersion, kind: 'DeleteOptions', ...dry };
    const p = scope.writeParams ?? {};
    return {
      apiVersion,
      kind: op === 'CREATE' ? 'CreateOptions' : 'UpdateOptions',
      ...dry,
      ...(p.fieldManager ? { fieldManager: p.fieldManager } : {}),
      ...(p.fieldValidation ? { fieldValidation: p.fieldValidation } : {}),
    };
  }

  /** Kinds with a `/status` subresource write status only there, as Kubernetes' strategies do. */
  private get hasStatusSubresource(): boolean {
    return !!this.def.subresources?.status;
  }

  /**
   * Puts back the status a main-endpoint write may not set: the stored one on update, the zero
   * value on create. Mutates `obj`.
   */
  private resetStatus(obj: KubeObject, current?: KubeObject): void {
    if (current) {
      if (current.status === undefined) delete obj.status;
      else obj.status = structuredClone(current.status);
      return;
    }
    const field = this.def.schema.fields.status;
    if (field?.presence === 'always') obj.status = zeroValue(field.schema);
    else delete obj.status;
  }

  private setIdentity(obj: KubeObject): void {
    obj.apiVersion = this.def.group ? `${this.def.group}/${this.def.version}` : this.def.version;
    obj.kind = this.def.kind;
  }

  /** Checks the object's namespace against the request's; fills it when empty. Mutates. */
  private bindNamespace(obj: KubeObject, scope: RequestScope): void {
    if (!this.def.namespaced) {
      delete obj.metadata.namespace;
      return;
    }
    if (obj.metadata.namespace && obj.metadata.namespace !== scope.namespace) {
      throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    obj.metadata.namespace = scope.namespace;
  }

  async create(scope: RequestScope, input: KubeObject, opts: WriteOptions): Promise<KubeObject> {
    const ctx = this.strategyContext(scope);
    const strategy = this.def.strategy;
    const obj = structuredClone(input);
    this.setIdentity(obj);
    this.bindNamespace(obj, scope);
    const generated = !obj.metadata.name && !!obj.metadata.generateName;
    const nextName = (): string => (strategy.generateName ?? generateName)(obj.metadata.generateName as string);
    if (generated) obj.metadata.name = nextName();
    if (opts.managedFields) setManagedFields(obj, opts.managedFields(undefined, obj));
    fillCreateSystemFields(obj.metadata, ctx.now, strategy.trackGeneration ?? false);
    await this.admission.admit(this.attrs('CREATE', scope, obj.metadata.name ?? '', '', opts.dryRun, obj));
    this.bindNamespace(obj, scope);
    if (this.hasStatusSubresource && !strategy.statusOnCreate) this.resetStatus(obj);
    strategy.prepareForCreate?.(obj, ctx);
    const check = async (o: KubeObject, dryRun: boolean, warnings: string[], rehearsal = false): Promise<void> => {
      const errs = [
        ...validateObjectMeta(o.metadata, this.def.namespaced, strategy.nameValidator),
        ...(strategy.validate?.(o, ctx) ?? []),
        ...(strategy.validateCreate?.(o, ctx) ?? []),
      ];
      if (errs.length) throw this.invalid(o.metadata.name ?? '', errs);
      warnings.push(...(strategy.warnings?.(o, undefined, ctx) ?? []));
      strategy.canonicalize?.(o);
      await this.admission.validate(rehearsing(this.attrs('CREATE', { ...scope, warnings }, o.metadata.name ?? '', '', dryRun, o), rehearsal));
    };
    if (strategy.beginCreate && !opts.dryRun) {
      // Allocations (Service IPs and ports) are writes of their own: rehearse the create as a dry run
      // first, so that one refused by validation, admission or an existing name never takes and gives
      // back a value, which would move the store's revision for a write that changed nothing.
      const rehearsal = structuredClone(obj);
      await finishing(await strategy.beginCreate(rehearsal, { ...ctx, dryRun: true }), true, () => check(rehearsal, true, [], true));
      if (!generated && (await this.nextEntry(this.keyFor(scope.namespace, obj.metadata.name as string), obj.metadata.name as string, undefined))) {
        throw errors.alreadyExists(this.groupResource, obj.metadata.name as string);
      }
    }
    const tx = await strategy.beginCreate?.(obj, { ...ctx, dryRun: opts.dryRun });
    return finishing(tx, opts.dryRun, async () => {
      await check(obj, opts.dryRun, scope.warnings);
      if (opts.dryRun) return obj;

      for (let attempt = 1; ; attempt++) {
        try {
          const entry = await this.kv.create(this.keyFor(scope.namespace, obj.metadata.name as string), this.encode(obj));
          return this.decodeEntry(entry);
        } catch (e) {
          if (!isKVError(e, 'exists')) throw this.storageError(e, obj.metadata.name ?? '');
          if (!generated) throw errors.alreadyExists(this.groupResource, obj.metadata.name as string);
          if (attempt >= GENERATE_NAME_ATTEMPTS) throw errors.generateNameConflict(this.groupResource, obj.metadata.name as string, 1);
          obj.metadata.name = nextName();
        }
      }
    });
  }

  /**
   * Reads the current object, applies `transform`, and writes the result if it differs, retrying on
   * a concurrent write. Creates when absent and allowed. Returns the object and whether it was created.
   */
  async update(scope: RequestScope, name: string, transform: UpdateTransform, opts: UpdateOptions): Promise<{ object: KubeObject; created: boolean }> {
    const key = this.keyFor(scope.namespace, name);
    let known: LostRace | undefined;
    for (let attempt = 1; attempt <= MAX_UPDATE_ATTEMPTS; attempt++) {
      const entry = await this.nextEntry(key, name, known);
      known = undefined;
      if (!entry) {
        if (!opts.allowCreate || opts.subresource) throw errors.notFound(this.groupResource, name);
        if (opts.preconditions?.uid) throw this.uidPreconditionFailed(name, opts.preconditions.uid, '');
        // As in Kubernetes, a resourceVersion in the body does not stop a create-on-update: the
        // create overwrites it like every other system field.
        const created = await transform(undefined);
        try {
          return { object: await this.create(scope, created, opts), created: true };
        } catch (e) {
          if (e instanceof StatusError && e.reason === 'AlreadyExists') {
            known = { lost: true };
            continue;
          }
          throw e;
        }
      }
      const current = this.decodeEntry(entry);
      const result = await this.updateExisting(scope, name, current, entry, transform, opts);
      if (!isLostRace(result)) return { object: result, created: false };
      known = result;
    }
    throw errors.conflict(this.groupResource, name, 'the object is being changed too often to update it; try again');
  }

  private async updateExisting(
    scope: RequestScope,
    name: string,
    current: KubeObject,
    entry: KVEntry,
    transform: UpdateTransform,
    opts: UpdateOptions,
  ): Promise<KubeObject | LostRace> {
    const ctx = this.strategyContext(scope, opts.subresource);
    const strategy = this.def.strategy;
    const sent = await transform(structuredClone(current));
    const requestedRv = sent.metadata.resourceVersion;
    if (requestedRv && requestedRv !== current.metadata.resourceVersion) throw errors.modified(this.groupResource, name);
    if (!requestedRv && strategy.allowUnconditionalUpdate === false) {
      throw this.invalid(name, [{ type: 'FieldValueInvalid', field: 'metadata.resourceVersion', value: 0, detail: 'must be specified for an update' }]);
    }
    const uid = opts.preconditions?.uid;
    if (uid && uid !== current.metadata.uid) throw this.uidPreconditionFailed(name, uid, current.metadata.uid ?? '');
    const sub = opts.subresource ? this.def.subresources?.[opts.subresource] : undefined;
    if (opts.subresource && !sub) throw errors.notFound(this.groupResource, name);
    // A partial subresource (status, finalize) writes its part; a view (scale) writes the whole
    // object through the main strategy, having mapped its change onto it already.
    // An action (pods/binding) has made the whole object already; it is written as a partial write
    // that takes everything, without the main strategy's update rules.
    const partial = sub?.kind === 'partial' ? sub : sub?.kind === 'action' ? ACTION_WRITE : undefined;
    const obj: KubeObject = partial ? partial.merge(sent, current) : structuredClone(sent);
    this.setIdentity(obj);
    this.bindNamespace(obj, scope);
    carryUpdateSystemFields(obj.metadata, current.metadata);
    if (opts.managedFields) setManagedFields(obj, opts.managedFields(current, obj));
    // An action (pods/binding) was admitted as a create of its body by its handler, as in Kubernetes.
    const admitted = sub?.kind !== 'action';
    if (admitted) await this.admission.admit(this.attrs('UPDATE', scope, name, opts.subresource, opts.dryRun, obj, current));
    if (partial) {
      partial.prepareForUpdate?.(obj, current, ctx);
    } else {
      if (this.hasStatusSubresource) this.resetStatus(obj, current);
      strategy.prepareForUpdate?.(obj, current, ctx);
    }
    if (strategy.trackGeneration && !partial && specChanged(obj, current)) {
      obj.metadata.generation = (current.metadata.generation ?? 0) + 1;
    }
    const check = async (o: KubeObject, dryRun: boolean, warnings: string[], rehearsal = false): Promise<void> => {
      const errs = [
        ...validateObjectMetaUpdate(o.metadata, current.metadata, this.def.namespaced, strategy.nameValidator),
        ...(partial
          ? (partial.validateUpdate?.(o, current, ctx) ?? [])
          : [...(strategy.validate?.(o, ctx) ?? []), ...(strategy.validateUpdate?.(o, current, ctx) ?? [])]),
      ];
      if (errs.length) throw this.invalid(name, errs);
      warnings.push(...(strategy.warnings?.(o, current, ctx) ?? []));
      if (!partial) strategy.canonicalize?.(o);
      if (admitted) await this.admission.validate(rehearsing(this.attrs('UPDATE', { ...scope, warnings }, name, opts.subresource, dryRun, o, current), rehearsal));
    };
    if (!partial && strategy.beginUpdate && !opts.dryRun) {
      // As on create: a refused update must not take and give back allocations.
      const rehearsal = structuredClone(obj);
      await finishing(await strategy.beginUpdate(rehearsal, current, { ...ctx, dryRun: true }), true, () => check(rehearsal, true, [], true));
    }
    const tx = partial ? undefined : await strategy.beginUpdate?.(obj, current, { ...ctx, dryRun: opts.dryRun });
    return finishing(tx, opts.dryRun, async (): Promise<KubeObject | LostRace> => {
      await check(obj, opts.dryRun, scope.warnings);

      obj.metadata.resourceVersion = current.metadata.resourceVersion;
      const removing = this.shouldDeleteDuringUpdate(obj);
      // A no-op keeps its resourceVersion and sends no event; map and key order are not content.
      if (!removing && isDeepStrictEqual(JSON.parse(this.encode(obj)), JSON.parse(entry.value))) return current;
      if (opts.dryRun) return obj;
      try {
        if (removing) {
          // The last finalizer went away from an object marked for deletion: it is removed now.
          const { revision } = await this.kv.delete(entry.key, entry.modRevision);
          obj.metadata.resourceVersion = String(revision);
          await this.afterDelete(obj, ctx);
          return obj;
        }
        return this.decodeEntry(await this.kv.update(entry.key, this.encode(obj), entry.modRevision));
      } catch (e) {
        if (isKVError(e, 'conflict') || isKVError(e, 'not-found')) return { lost: true, ...(e.current ? { current: e.current } : {}) };
        throw this.storageError(e, name);
      }
    });
  }

  /** Releases what a deleted object held; a failure is logged by the caller's Status, never undoes the delete. */
  private async afterDelete(obj: KubeObject, ctx: StrategyContext): Promise<void> {
    await this.def.strategy.afterDelete?.(obj, ctx);
  }

  /**
   * The entry to work on next. After a lost race the winner's entry is used when the backend
   * named it; otherwise the store is read again after one turn of the event loop, so that a
   * backend committing writes in groups (SQLite) has published the write that won. Without that
   * turn, a read would keep returning the state the race was lost against.
   */
  private async nextEntry(key: string, name: string, known: LostRace | undefined): Promise<KVEntry | undefined> {
    if (known?.current) return known.current;
    if (known) await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      return (await this.kv.get(key)).entry;
    } catch (e) {
      throw this.storageError(e, name);
    }
  }

  private uidPreconditionFailed(name: string, wanted: string, actual: string): StatusError {
    return errors.conflict(this.groupResource, name, `Precondition failed: UID in precondition: ${wanted}, UID in object meta: ${actual}`);
  }

  private shouldDeleteDuringUpdate(obj: KubeObject): boolean {
    return !!obj.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).length === 0 && !this.def.strategy.holdsDeletion?.(obj);
  }

  async delete(scope: RequestScope, name: string, options: DeleteOptions, opts: WriteOptions): Promise<DeleteResult> {
    validateDeleteOptions(options, this.names.metaGroup);
    const key = this.keyFor(scope.namespace, name);
    const ctx = this.strategyContext(scope);
    let known: LostRace | undefined;
    for (let attempt = 1; attempt <= MAX_UPDATE_ATTEMPTS; attempt++) {
      const entry = await this.nextEntry(key, name, known);
      known = undefined;
      if (!entry) throw errors.notFound(this.groupResource, name);
      const current = this.decodeEntry(entry);
      const pre = options.preconditions;
      if (pre?.uid && pre.uid !== current.metadata.uid) throw this.uidPreconditionFailed(name, pre.uid, current.metadata.uid ?? '');
      if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
        throw errors.conflict(
          this.groupResource,
          name,
          `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`,
        );
      }
      const strategy = this.def.strategy;
      if (strategy.deletePendingConflict && current.metadata.deletionTimestamp && strategy.holdsDeletion?.(current)) {
        throw errors.conflict(this.groupResource, name, strategy.deletePendingConflict);
      }
      // Both phases, with the old object, as Kubernetes' delete runs admission (mutating plugins see
      // the delete too, though there is no object to change).
      const deleteAttrs = this.attrs('DELETE', scope, name, '', opts.dryRun, undefined, current, options);
      await this.admission.admit(deleteAttrs);
      await this.admission.validate(deleteAttrs);

      const marked = structuredClone(current);
      applyPropagationFinalizers(marked, options);
      const pending = (marked.metadata.finalizers ?? []).length > 0 || !!this.def.strategy.holdsDeletion?.(marked);
      try {
        if (pending) {
          if (!marked.metadata.deletionTimestamp) {
            // Being marked for deletion is a change of intent: tracked generations grow (markAsDeleting).
            if ((marked.metadata.generation ?? 0) > 0) marked.metadata.generation = (marked.metadata.generation as number) + 1;
            marked.metadata.deletionTimestamp = formatTime(ctx.now);
            marked.metadata.deletionGracePeriodSeconds = 0;
            this.def.strategy.prepareForDelete?.(marked, ctx);
          }
          if (this.encode(marked) === entry.value || opts.dryRun) return { object: opts.dryRun ? marked : current, deleted: false };
          return { object: this.decodeEntry(await this.kv.update(key, this.encode(marked), entry.modRevision)), deleted: false };
        }
        if (opts.dryRun) return { object: current, deleted: true };
        const { revision } = await this.kv.delete(key, entry.modRevision);
        current.metadata.resourceVersion = String(revision);
        await this.afterDelete(current, ctx);
        return { object: current, deleted: true };
      } catch (e) {
        if (isKVError(e, 'conflict')) {
          known = { lost: true, ...(e.current ? { current: e.current } : {}) };
          continue;
        }
        if (isKVError(e, 'not-found')) throw errors.notFound(this.groupResource, name);
        throw this.storageError(e, name);
      }
    }
    throw errors.conflict(this.groupResource, name, 'the object is being changed too often to delete it; try again');
  }

  /**
   * Admission of a create on a subresource that stores nothing of its own (TokenRequest): both
   * phases, with the request object as the object, before the subresource acts. Mutating admission
   * may change `request`. Throws a StatusError to refuse.
   */
  async admitSubresourceCreate(scope: RequestScope, name: string, subresource: string, request: KubeObject, dryRun: boolean): Promise<void> {
    const attrs = this.attrs('CREATE', scope, name, subresource, dryRun, request);
    await this.admission.admit(attrs);
    await this.admission.validate(attrs);
  }

  /**
   * Admission of a CONNECT (exec, attach, port-forward, proxy): both phases, with the connect
   * options object (PodExecOptions, ...) as the object; nothing is stored. Throws a StatusError to
   * refuse the connection.
   */
  async admitConnect(scope: RequestScope, name: string, subresource: string, options: KubeObject): Promise<void> {
    const attrs = this.attrs('CONNECT', scope, name, subresource, false, options);
    await this.admission.admit(attrs);
    await this.admission.validate(attrs);
  }

  /** Deletes every object the list options select, each with the same delete options. */
  async deleteCollection(scope: RequestScope, selected: CacheEntry[], options: DeleteOptions, opts: WriteOptions): Promise<KubeObject[]> {
    validateDeleteOptions(options, this.names.metaGroup);
    const out: KubeObject[] = [];
    for (const entry of selected) {
      const obj = entry.object.parse<KubeObject>();
      const name = obj.metadata.name as string;
      const itemScope = { ...scope, namespace: obj.metadata.namespace ?? '' };
      try {
        out.push((await this.delete(itemScope, name, options, opts)).object);
      } catch (e) {
        // Objects deleted meanwhile are simply not part of the result.
        if (!(e instanceof StatusError && e.reason === 'NotFound')) throw e;
      }
    }
    return out;
  }
}

/** Marks the attributes of a rehearsal (see AdmissionAttributes.rehearsal). */
function rehearsing(attrs: AdmissionAttributes, rehearsal: boolean): AdmissionAttributes {
  return rehearsal ? { ...attrs, rehearsal: true } : attrs;
}

function setManagedFields(obj: KubeObject, entries: ObjectMeta['managedFields']): void {
  if (entries && entries.length) obj.metadata.managedFields = entries;
  else delete obj.metadata.managedFields;
}

/**
 * Runs a write with its side-effect transaction: finished as committed when `write` succeeds
 * (and is not a dry run or a lost race), as not committed otherwise.
 */
async function finishing<R>(tx: WriteTransaction | undefined, dryRun: boolean, write: () => Promise<R>): Promise<R> {
  if (!tx) return write();
  let result: R;
  try {
    result = await write();
  } catch (e) {
    await tx.finish(false);
    throw e;
  }
  await tx.finish(!dryRun && !isLostRace(result as KubeObject | LostRace));
  return result;
}

/** A write that lost a compare-and-swap; `current` is the entry that won, when known. */
interface LostRace {
  lost: true;
  current?: KVEntry;
}

function isLostRace(v: KubeObject | LostRace): v is LostRace {
  return typeof v === 'object' && v !== null && (v as LostRace).lost === true;
}

const ACTION_WRITE: PartialSubresource = { kind: 'partial', verbs: [], merge: (sent) => structuredClone(sent) };

function specChanged(a: KubeObject, b: KubeObject): boolean {
  const strip = ({ metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest }: KubeObject): unknown => JSON.parse(JSON.stringify(rest));
  return !isDeepStrictEqual(strip(a), strip(b));
}

export function validateDeleteOptions(o: DeleteOptions, metaGroup: string): void {
  const errs: FieldError[] = [];
  if (o.propagationPolicy !== undefined && !PROPAGATION_POLICIES.includes(o.propagationPolicy)) {
    errs.push({ type: 'FieldValueNotSupported', field: 'propagationPolicy', value: o.propagationPolicy, detail: 'supported values: "Foreground", "Background", "Orphan", "nil"' });
  }
  if (o.propagationPolicy !== undefined && o.orphanDependents !== undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'propagationPolicy', value: o.propagationPolicy, detail: 'orphanDependents and deletionPropagation cannot be both set' });
  }
  // A negative gracePeriodSeconds is not an error: Kubernetes reads it as 1s, and no kind here waits.
  for (const d of o.dryRun ?? []) {
    if (d !== 'All') errs.push({ type: 'FieldValueNotSupported', field: 'dryRun', value: d, detail: 'supported values: "All"' });
  }
  if (errs.length) throw errors.invalid({ group: metaGroup, kind: 'DeleteOptions' }, '', errs);
}

/** Adds or removes the garbage collector's finalizers as the propagation policy asks. Mutates. */
function applyPropagationFinalizers(obj: KubeObject, o: DeleteOptions): void {
  const policy = o.propagationPolicy ?? (o.orphanDependents === true ? 'Orphan' : o.orphanDependents === false ? 'Background' : undefined);
  if (!policy) return;
  const fins = new Set(obj.metadata.finalizers ?? []);
  if (policy === 'Orphan') {
    fins.add('orphan');
    fins.delete('foregroundDeletion');
  } else if (policy === 'Foreground') {
    fins.add('foregroundDeletion');
    fins.delete('orphan');
  } else {
    fins.delete('orphan');
    fins.delete('foregroundDeletion');
  }
  const list = [...fins];
  if (list.length) obj.metadata.finalizers = list;
  else delete obj.metadata.finalizers;
}

export { EncodedObject };
