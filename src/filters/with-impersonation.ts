/**
 * Acting as another user (`Impersonate-User`, `Impersonate-Group`, `Impersonate-Uid`,
 * `Impersonate-Extra-*`), allowed only when the authorizer grants the `impersonate` verb. Present
 * only when an authorizer is configured.
 *
 * Until the impersonation rules are written, a request that asks to impersonate is refused with 403
 * rather than served as its real user: it never gets more than it asked for, and never silently less.
 */
import type { Authorizer } from '../authz/index.js';
import type { Filter } from '../http/context.js';
import { errors } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';

const IMPERSONATION_PREFIX = 'impersonate-';

/** Whether the request carries any impersonation header (Node lowercases header names). */
export function asksToImpersonate(headers: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(headers).some((h) => h.startsWith(IMPERSONATION_PREFIX));
}

export function withImpersonation(_authorizer: Authorizer): Filter<RequestContext> {
  return (ctx, next) => {
    if (!asksToImpersonate(ctx.req.headers)) return next();
    const username = ctx.user?.username ?? '';
    throw errors.forbidden({ group: '', resource: 'users' }, '', `User ${JSON.stringify(username)} cannot impersonate: impersonation is not supported by this server yet`);
  };
}
