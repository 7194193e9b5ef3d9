/**
 * Audits the request, after authentication, as Kubernetes' WithAudit does: the policy picks the
 * level and stages from the authenticated user and the request info; RequestReceived is recorded
 * before anything else runs, ResponseStarted when a long-running request (a watch) starts its
 * answer, then ResponseComplete, or Panic for an unexpected failure. Each event carries what the
 * handlers recorded at its level (request and response objects, the answer's Status) and the
 * annotations other stages added. When a blocking-strict backend cannot store the RequestReceived
 * event the request fails with 500 and does nothing. Present only when auditing is configured.
 */
import type { Auditor, AuditStage, ResponseStatus } from '../audit/index.js';
import { receivedAtMs, stageEvent } from '../audit/index.js';
import type { Filter } from '../http/context.js';
import { auditResponseObject } from '../machinery/audit-record.js';
import { StatusError } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';
import type { RequestInfo } from '../machinery/request-info.js';
import type { UserInfo } from '../machinery/user-info.js';
import type { AuditAttributes } from '../audit/index.js';

export function auditAttributes(user: UserInfo | undefined, info: RequestInfo): AuditAttributes {
  if (!info.isResourceRequest) return { user, verb: info.verb, isResourceRequest: false, path: info.path, namespace: '', apiGroup: '', resource: '', subresource: '', name: '' };
  return { user, verb: info.verb, isResourceRequest: true, path: info.path, namespace: info.namespace, apiGroup: info.apiGroup, resource: info.resource, subresource: info.subresource, name: info.name };
}

/** When nothing was written: the request ended without an answer of its own. */
const CLOSED_EARLY: ResponseStatus = { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 };

/** Calls `fn` once, when the response's status line is about to go out. */
function onResponseStart(ctx: RequestContext, fn: (code: number) => void): void {
  const res = ctx.res as unknown as Record<'writeHead' | 'flushHeaders' | 'write' | 'end', (...a: unknown[]) => unknown> & { statusCode: number };
  let fired = false;
  const fire = (code: number): void => {
    if (fired) return;
    fired = true;
    fn(code);
  };
  for (const method of ['writeHead', 'flushHeaders', 'write', 'end'] as const) {
    const original = res[method];
    // HTTP/2's compatibility response may lack one of them: add nothing it does not have.
    if (typeof original !== 'function') continue;
    res[method] = function (this: unknown, ...args: unknown[]) {
      fire(method === 'writeHead' && typeof args[0] === 'number' ? args[0] : res.statusCode);
      return original.apply(this, args);
    };
  }
}

export function withAudit(auditor: Auditor): Filter<RequestContext> {
  return async (ctx, next) => {
    const user = ctx.user;
    const config = auditor.decide(auditAttributes(user, ctx.info));
    auditor.metrics.levelChosen(config.level);
    ctx.audit.level = config.level;
    if (config.level === 'None') return next();
    ctx.audit.omitManagedFields = config.omitManagedFields;
    const receivedMs = receivedAtMs(ctx);
    const remoteAddress = ctx.req.socket?.remoteAddress;
    const emit = (stage: AuditStage, responseStatus?: ResponseStatus): boolean | Promise<boolean> => {
      if (config.omitStages.includes(stage)) return true;
      auditor.metrics.eventGenerated();
      return auditor.process(
        stageEvent(ctx, { apiVersion: auditor.apiVersion, level: config.level, stage, user, receivedMs, patchAnnotationPrefix: auditor.patchAnnotationPrefix, remoteAddress, ...(responseStatus ? { responseStatus } : {}) }),
      );
    };
    if (!(await emit('RequestReceived'))) {
      auditor.metrics.requestRejected();
      throw new StatusError(500, 'InternalError', `Internal Server Error: ${JSON.stringify(ctx.req.url ?? '/')}: failed to store audit event`);
    }
    const withRecorded = (code: number): ResponseStatus => ({ metadata: {}, ...ctx.audit.record?.responseStatus, code });
    let started = false;
    if (ctx.longRunning) {
      onResponseStart(ctx, (code) => {
        started = true;
        void emit('ResponseStarted', withRecorded(code));
      });
    }
    let failure: unknown;
    try {
      await next();
    } catch (err) {
      failure = err;
    }
    if (failure !== undefined && !(failure instanceof StatusError)) {
      await emit('Panic', { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${failure instanceof Error ? failure.message : String(failure)}`, reason: 'InternalError', code: 500 });
      throw failure;
    }
    // A refusal thrown here is written by panic recovery later: its Status is the answer to record.
    if (failure instanceof StatusError) auditResponseObject(ctx.audit, failure.status);
    const code = ctx.response.status ?? (failure instanceof StatusError ? failure.status.code : undefined);
    if (ctx.longRunning && !started) await emit('ResponseStarted', code === undefined ? CLOSED_EARLY : withRecorded(code));
    await emit('ResponseComplete', code === undefined ? CLOSED_EARLY : withRecorded(code));
    if (failure !== undefined) throw failure;
  };
}
