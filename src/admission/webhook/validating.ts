/**
 * The ValidatingAdmissionWebhook dispatch: every matching webhook is called at once, each with the
 * object in the version it registered for; any denial or failed call (failurePolicy Fail) rejects
 * the request, reported in webhook order.
 */
import type { ApiNames } from '../../machinery/api-names.js';
import { errors } from '../../machinery/errors.js';
import type { Logger } from '../../machinery/logger.js';
import type { AdmissionAttributes } from '../../registry/admission.js';
import { recordAuditAnnotation } from './audit.js';
import { invokeWebhook, type InvokeDeps, type VersionedObjects } from './invoke.js';
import type { Invocation, Matcher, RequestView } from './match.js';
import type { WebhookMetrics } from './metrics.js';
import { observeOutcome, requestError, seconds } from './outcome.js';
import type { Webhook } from './types.js';
import { toVersion } from './versions.js';

export interface DispatchDeps extends InvokeDeps {
  names: ApiNames;
  matcher: Matcher;
  metrics: WebhookMetrics;
  log: Logger;
}

export async function dispatchValidating(deps: DispatchDeps, hooks: readonly Webhook[], view: RequestView): Promise<void> {
  const { attrs } = view;
  const relevant: Invocation[] = [];
  for (const hook of hooks) {
    const inv = await deps.matcher.shouldCall(hook, view);
    if (inv) relevant.push(inv);
  }
  if (relevant.length === 0) return;
  if (attrs.signal.aborted) throw errors.timeout('request did not complete within requested timeout');
  const versioned = new Map<string, VersionedObjects>();
  const objectsFor = (inv: Invocation): VersionedObjects => {
    const key = `${inv.target.group}/${inv.target.version}`;
    let o = versioned.get(key);
    if (!o) {
      o = {
        ...(attrs.object ? { object: toVersion(inv.target, attrs.object) } : {}),
        ...(attrs.oldObject ? { oldObject: toVersion(inv.target, attrs.oldObject) } : {}),
      };
      versioned.set(key, o);
    }
    return o;
  };
  const outcomes = await Promise.all(relevant.map((inv, idx) => callOne(deps, inv, idx, view, objectsFor(inv))));
  const failures = outcomes.filter((e) => e !== undefined);
  for (const extra of failures.slice(1)) deps.log.warn('a validating webhook also rejected the request', { message: extra.message });
  if (failures[0]) throw failures[0];
}

async function callOne(deps: DispatchDeps, inv: Invocation, idx: number, view: RequestView, objects: VersionedObjects): Promise<Error | undefined> {
  const name = inv.hook.spec.name;
  const ignore = inv.hook.spec.failurePolicy === 'Ignore';
  const started = process.hrtime.bigint();
  let err: unknown;
  try {
    await invokeWebhook(deps, inv, view, objects, false);
  } catch (e) {
    err = e;
  }
  const failedOpen = observeOutcome(deps.metrics, name, 'validating', view.attrs.operation, ignore, seconds(started), err);
  if (err === undefined) return undefined;
  if (failedOpen) {
    deps.log.warn('failed calling webhook, failing open', { webhook: name, error: err instanceof Error ? err.message : String(err) });
    recordAuditAnnotation(view.attrs.audit, deps.names.subKey('failed-open.validating.webhook.admission', `round_0_index_${idx}`), name);
    return undefined;
  }
  return requestError(err);
}
