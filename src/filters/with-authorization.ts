/**
 * Asks the authorizer whether `ctx.user` may do what `ctx.info` says. An allow goes on; otherwise
 * 403 Forbidden with Kubernetes' message and the authorizers' reasons, or 500 when an authorizer
 * failed and none allowed (Kubernetes answers an authorizer error so). Present only when
 * an authorizer is configured. Every decision is recorded on the request's audit context, as
 * kube-apiserver's `authorization.k8s.io/decision` and `/reason` annotations, under the server's
 * authorization group.
 */
import { attributesOf, forbiddenMessage, type AuthorizationAttributes, type AuthorizationResult, type Authorizer } from '../authz/index.js';
import type { Filter } from '../http/context.js';
import { errors, type StatusError } from '../machinery/errors.js';
import type { Logger } from '../machinery/logger.js';
import type { AuditContext, RequestContext } from '../machinery/request-context.js';

export interface AuthorizationFilterOptions {
  /** The authorization group as served (`authorization.orch.io`): the audit annotations' prefix. */
  authorizationGroup: string;
  log?: Logger;
}

/** The audit annotation values Kubernetes records (its decisionAllow, decisionForbid, reasonError). */
const ALLOW = 'allow';
const FORBID = 'forbid';
const INTERNAL_ERROR = 'internal error';

export function withAuthorization(authorizer: Authorizer, opts: AuthorizationFilterOptions): Filter<RequestContext> {
  const keys = authorizationAuditKeys(opts.authorizationGroup);
  return async (ctx, next) => {
    const attrs = attributesOf(ctx.user, ctx.info);
    const result = await authorizer.authorize(attrs, ctx.signal);
    if (result.decision === 'allow') {
      annotate(ctx.audit, keys, ALLOW, result.reason);
      return next();
    }
    if (result.failure) {
      // As Kubernetes: an authorizer error that no one overruled with an allow is a 500, even with a
      // denial (a webhook answering both allowed and denied). Only the reason is recorded, not the error's text.
      ctx.audit.annotations[keys.reason] = INTERNAL_ERROR;
      opts.log?.warn('an authorizer failed to decide', { path: ctx.url.pathname, error: result.failure });
      throw errors.internal(result.failure);
    }
    annotate(ctx.audit, keys, FORBID, result.reason);
    throw forbidden(attrs, result);
  };
}

/** `authorization.orch.io/decision` and `authorization.orch.io/reason` (the k8s.io names under --api-domain=k8s.io). */
export function authorizationAuditKeys(authorizationGroup: string): { decision: string; reason: string } {
  return { decision: `${authorizationGroup}/decision`, reason: `${authorizationGroup}/reason` };
}

/** Both annotations, the reason even when empty, as Kubernetes records them. */
function annotate(audit: AuditContext, keys: { decision: string; reason: string }, decision: string, reason: string): void {
  audit.annotations[keys.decision] = decision;
  audit.annotations[keys.reason] = reason;
}

/** The 403 of a refused request, as Kubernetes' responsewriters.Forbidden writes it. */
export function forbidden(attrs: AuthorizationAttributes, result: Pick<AuthorizationResult, 'reason'>): StatusError {
  const message = result.reason ? `${forbiddenMessage(attrs)}: ${result.reason}` : forbiddenMessage(attrs);
  return errors.forbidden({ group: attrs.apiGroup, resource: attrs.resource }, attrs.name, message);
}
