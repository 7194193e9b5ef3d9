/**
 * Audits requests that authentication refused (401), which never reach the audit filter, as
 * Kubernetes' WithFailedAuthenticationAudit does: the policy is asked with no user, and one
 * ResponseStarted event records the 401 and which credentials were tried (never the credentials).
 * Sits just outside authentication; present only when auditing and authentication are configured.
 */
import type { Auditor } from '../audit/index.js';
import { receivedAtMs, stageEvent } from '../audit/index.js';
import type { Filter } from '../http/context.js';
import { StatusError } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';
import { auditAttributes } from './with-audit.js';

/** Kubernetes' getAuthMethods: the kinds of credential the request carried. */
export function attemptedAuthMethods(ctx: RequestContext): string {
  const methods: string[] = [];
  const auth = (ctx.req.headers.authorization ?? '').trim();
  const scheme = auth.split(' ')[0]?.toLowerCase() ?? '';
  if (scheme === 'basic') methods.push('basic');
  if (scheme === 'bearer' && auth.split(' ').length > 1) methods.push('bearer');
  if ((ctx.url.searchParams.get('access_token') ?? '').trim()) methods.push('access_token');
  if (ctx.tls?.verifiedChain?.length || ctx.tls?.verificationError) methods.push('x509');
  return methods.length ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}

export function withFailedAuthenticationAudit(auditor: Auditor): Filter<RequestContext> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      // Only authentication's own refusal: once the audit filter ran, the request has its level.
      if (err instanceof StatusError && err.status.code === 401 && ctx.audit.level === undefined) {
        const config = auditor.decide(auditAttributes(undefined, ctx.info));
        auditor.metrics.levelChosen(config.level);
        if (config.level !== 'None' && !config.omitStages.includes('ResponseStarted')) {
          const responseStatus = { metadata: {}, message: attemptedAuthMethods(ctx), code: 401 } as const;
          auditor.metrics.eventGenerated();
          await auditor.process(
            stageEvent(ctx, {
              apiVersion: auditor.apiVersion,
              level: config.level,
              stage: 'ResponseStarted',
              user: undefined,
              receivedMs: receivedAtMs(ctx),
              patchAnnotationPrefix: auditor.patchAnnotationPrefix,
              remoteAddress: ctx.req.socket?.remoteAddress,
              responseStatus,
            }),
          );
        }
      }
      throw err;
    }
  };
}
