/**
 * Gives every request its audit ID (the client's `Audit-ID` header when it sent a usable one, else a
 * new UUID) and echoes it in the response's `Audit-ID` header, as Kubernetes' WithAuditInit does,
 * whether or not a policy audits the request: clients and logs can always quote it.
 */
import { randomUUID } from 'node:crypto';
import type { Filter } from '../http/context.js';
import type { RequestContext } from '../machinery/request-context.js';

/** Audit IDs a client may choose: Kubernetes takes the header as is; we bound it so logs stay sane. */
const CLIENT_AUDIT_ID = /^[\w.:-]{1,128}$/;

export function withAuditInit(): Filter<RequestContext> {
  return async (ctx, next) => {
    const sent = ctx.req.headers['audit-id'];
    ctx.audit.id = typeof sent === 'string' && CLIENT_AUDIT_ID.test(sent) ? sent : randomUUID();
    ctx.res.setHeader('Audit-ID', ctx.audit.id);
    return next();
  };
}
