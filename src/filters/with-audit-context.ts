/**
 * Starts the request's audit record: its audit ID (the client's `Audit-ID` header when it sent one,
 * else a new UUID, echoed in the response's `Audit-ID` header as Kubernetes does), the
 * RequestReceived stage, and the last stage once the rest of the chain is done. Present only when
 * an audit sink is configured.
 */
import { randomUUID } from 'node:crypto';
import type { AuditSink } from '../audit/index.js';
import type { Filter } from '../http/context.js';
import { StatusError } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';

/** Audit IDs a client may choose: Kubernetes takes the header as is; we bound it so logs stay sane. */
const CLIENT_AUDIT_ID = /^[\w.:-]{1,128}$/;

export function withAuditContext(sink: AuditSink): Filter<RequestContext> {
  return async (ctx, next) => {
    const sent = ctx.req.headers['audit-id'];
    ctx.audit.id = typeof sent === 'string' && CLIENT_AUDIT_ID.test(sent) ? sent : randomUUID();
    ctx.res.setHeader('Audit-ID', ctx.audit.id);
    sink.record('RequestReceived', ctx);
    let stage: 'ResponseComplete' | 'Panic' = 'ResponseComplete';
    try {
      await next();
    } catch (err) {
      // A StatusError is an answer (panic recovery writes it); anything else is a failure of ours.
      if (!(err instanceof StatusError)) stage = 'Panic';
      throw err;
    } finally {
      sink.record(stage, ctx);
    }
  };
}
