/**
 * Asks the authorizer whether `ctx.user` may do what `ctx.info` says; anything but an allow is 403
 * Forbidden with Kubernetes' message and the authorizer's reason. Present only when an authorizer is
 * configured (without one every request is allowed, as Kubernetes' AlwaysAllow).
 */
import { attributesOf, forbiddenMessage, type Authorizer } from '../authz/index.js';
import type { Filter } from '../http/context.js';
import { errors } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';

export function withAuthorization(authorizer: Authorizer): Filter<RequestContext> {
  return async (ctx, next) => {
    const attrs = attributesOf(ctx.user, ctx.info);
    const { decision, reason } = await authorizer.authorize(attrs, ctx.signal);
    if (decision === 'allow') return next();
    const message = reason ? `${forbiddenMessage(attrs)}: ${reason}` : forbiddenMessage(attrs);
    throw errors.forbidden({ group: attrs.apiGroup, resource: attrs.resource }, attrs.name, message);
  };
}
