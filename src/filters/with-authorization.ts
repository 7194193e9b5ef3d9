/**
 * Asks the authorizer whether `ctx.user` may do what `ctx.info` says. An allow goes on; otherwise
 * 403 Forbidden with Kubernetes' message and the authorizers' reasons, or 500 when an authorizer
 * failed to decide and none allowed (Kubernetes answers an authorizer error so). Present only when
 * an authorizer is configured.
 */
import { attributesOf, forbiddenMessage, type AuthorizationAttributes, type AuthorizationResult, type Authorizer } from '../authz/index.js';
import type { Filter } from '../http/context.js';
import { errors, type StatusError } from '../machinery/errors.js';
import type { Logger } from '../machinery/logger.js';
import type { RequestContext } from '../machinery/request-context.js';

export function withAuthorization(authorizer: Authorizer, log?: Logger): Filter<RequestContext> {
  return async (ctx, next) => {
    const attrs = attributesOf(ctx.user, ctx.info);
    const result = await authorizer.authorize(attrs, ctx.signal);
    if (result.decision === 'allow') return next();
    if (result.failure && result.decision === 'no-opinion') {
      log?.warn('an authorizer failed to decide', { path: ctx.url.pathname, error: result.failure });
      throw errors.internal(result.failure);
    }
    throw forbidden(attrs, result);
  };
}

/** The 403 of a refused request, as Kubernetes' responsewriters.Forbidden writes it. */
export function forbidden(attrs: AuthorizationAttributes, result: Pick<AuthorizationResult, 'reason'>): StatusError {
  const message = result.reason ? `${forbiddenMessage(attrs)}: ${result.reason}` : forbiddenMessage(attrs);
  return errors.forbidden({ group: attrs.apiGroup, resource: attrs.resource }, attrs.name, message);
}
