/**
 * The MutatingAdmissionWebhook dispatch: matching webhooks are called one after the other, each
 * with the object as the previous ones left it, in the version it registered for. A JSON patch in
 * the answer is applied, decoded again as the kind (unknown fields dropped, defaults filled) and
 * becomes the request's object. A webhook with `reinvocationPolicy: IfNeeded` is called once more,
 * in a second round, when a webhook after it changed the object.
 */
import { errors } from '../../machinery/errors.js';
import { applyJsonPatch, deepEqual, parseJsonPatch, type JsonPatchOp } from '../../machinery/json-patch.js';
import { DecodeError, decodeObject, type KubeObject } from '../../schema/index.js';
import { recordAuditAnnotation } from './audit.js';
import { CallingWebhookError, toStatusErr } from './errors.js';
import { invokeWebhook } from './invoke.js';
import type { Invocation, RequestView } from './match.js';
import { observeOutcome, requestError, seconds } from './outcome.js';
import type { Webhook } from './types.js';
import type { DispatchDeps } from './validating.js';
import { fromVersion, toVersion } from './versions.js';

/** Which IfNeeded webhooks have run, and which must run again (Kubernetes' webhookReinvokeContext). */
class Reinvocation {
  private previously = new Set<string>();
  readonly again = new Set<string>();

  objectChanged(): void {
    for (const uid of this.previously) this.again.add(uid);
    this.previously = new Set();
  }

  invoked(hook: Webhook): void {
    if (hook.spec.reinvocationPolicy === 'IfNeeded') this.previously.add(hook.uid);
  }
}

export async function dispatchMutating(deps: DispatchDeps, hooks: readonly Webhook[], view: RequestView): Promise<void> {
  const reinvocation = new Reinvocation();
  await runRound(deps, hooks, view, 0, reinvocation);
  if (reinvocation.again.size) await runRound(deps, hooks, view, 1, reinvocation);
}

async function runRound(deps: DispatchDeps, hooks: readonly Webhook[], view: RequestView, round: number, reinvocation: Reinvocation): Promise<void> {
  for (const [index, hook] of hooks.entries()) {
    const inv = await deps.matcher.shouldCall(hook, view);
    if (!inv) continue;
    // A webhook is never called for the first time in the second round.
    if (round === 1 && !reinvocation.again.has(hook.uid)) continue;
    const name = hook.spec.name;
    const ignore = hook.spec.failurePolicy === 'Ignore';
    const started = process.hrtime.bigint();
    let changed = false;
    let err: unknown;
    try {
      changed = await callMutating(deps, inv, view, round, index);
    } catch (e) {
      err = e;
    }
    const failedOpen = observeOutcome(deps.metrics, name, 'admit', view.attrs.operation, ignore, seconds(started), err);
    if (changed) reinvocation.objectChanged();
    reinvocation.invoked(hook);
    if (err === undefined) continue;
    if (failedOpen) {
      deps.log.warn('failed calling webhook, failing open', { webhook: name, error: err instanceof Error ? err.message : String(err) });
      recordAuditAnnotation(view.attrs.audit, deps.names.subKey('failed-open.mutation.webhook.admission', `round_${round}_index_${index}`), name);
      if (view.attrs.signal.aborted) throw errors.timeout('request did not complete within requested timeout');
      continue;
    }
    throw requestError(err);
  }
}

/** Go writes a patch operation's keys in sorted order (each is a map); the audit annotation shows them so. */
function sortedOps(ops: readonly JsonPatchOp[]): Record<string, unknown>[] {
  return ops.map((op) => Object.fromEntries(Object.entries(op).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/** Calls one mutating webhook and applies its patch to the request's object; true when the object changed. */
async function callMutating(deps: DispatchDeps, inv: Invocation, view: RequestView, round: number, index: number): Promise<boolean> {
  const { attrs } = view;
  const { spec, configurationName } = inv.hook;
  const name = spec.name;
  const key = (prefix: string): string => deps.names.subKey(prefix, `round_${round}_index_${index}`);
  let changed = false;
  try {
    const object = attrs.object ? toVersion(inv.target, attrs.object) : undefined;
    const oldObject = attrs.oldObject ? toVersion(inv.target, attrs.oldObject) : undefined;
    const response = await invokeWebhook(deps, inv, view, { ...(object ? { object } : {}), ...(oldObject ? { oldObject } : {}) }, true);
    if (response.patch.length === 0) return false;
    let ops: JsonPatchOp[];
    try {
      ops = parseJsonPatch(JSON.parse(response.patch.toString('utf8')));
    } catch (e) {
      throw errors.internal(e instanceof Error ? e.message : String(e));
    }
    if (ops.length === 0) return false;
    if (!object || !attrs.object) throw errors.internal(`admission webhook "${name}" attempted to modify the object, which is not supported for this operation`);
    if (response.patchType !== 'JSONPatch') throw new CallingWebhookError(name, `unsupported patch type "${response.patchType}"`, toStatusErr(name, response.result));
    let patched: KubeObject;
    try {
      patched = decodeAs(inv, applyJsonPatch(object, ops));
    } catch (e) {
      throw errors.internal(e instanceof Error ? e.message : String(e));
    }
    changed = !deepEqual(object, patched);
    recordAuditAnnotation(attrs.audit, key('patch.webhook.admission'), JSON.stringify({ configuration: configurationName, webhook: name, patch: sortedOps(ops), patchType: 'JSONPatch' }));
    replaceContents(attrs.object, withDefaults(deps, inv, view, fromVersion(inv.target, patched)));
    return changed;
  } finally {
    recordAuditAnnotation(attrs.audit, key('mutation.webhook.admission'), JSON.stringify({ configuration: configurationName, webhook: name, mutated: changed }));
  }
}

/** The patched value as an object of the invoked version: Go's decoding drops unknown fields and refuses wrong types. */
function decodeAs(inv: Invocation, value: unknown): KubeObject {
  const def = inv.target.def;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('the patched object is not a JSON object');
  if (!def) return value as KubeObject;
  try {
    const decoded = decodeObject<KubeObject>(def.schema, value).value;
    decoded.apiVersion = def.group ? `${def.group}/${def.version}` : def.version;
    decoded.kind = def.kind;
    return decoded;
  } catch (e) {
    if (e instanceof DecodeError) throw new Error(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: ${e.message}`);
    throw e;
  }
}

function withDefaults(deps: DispatchDeps, inv: Invocation, view: RequestView, hub: KubeObject): KubeObject {
  const { attrs } = view;
  inv.target.def?.strategy.defaults?.(hub, {
    names: deps.names,
    namespace: attrs.namespace,
    subresource: attrs.subresource,
    now: new Date(),
    ...(attrs.user ? { user: attrs.user } : {}),
  });
  return hub;
}

/** The store holds the object by reference: a patch result replaces its contents in place. */
function replaceContents(target: KubeObject, source: KubeObject): void {
  const t = target as unknown as Record<string, unknown>;
  for (const k of Object.keys(t)) delete t[k];
  Object.assign(t, source);
}
