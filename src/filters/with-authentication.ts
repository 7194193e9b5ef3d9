/**
 * Establishes who is asking. A proven user goes on as `ctx.user`; a credential that does not hold
 * gets 401 Unauthorized (never anonymous); a request with no credential the authenticator knows
 * goes on as system:anonymous when anonymous requests are allowed, else 401. Present only when an
 * authenticator is configured (without one, as in Kubernetes, authentication is off).
 */
import { anonymousUser, type Authenticator } from '../authn/index.js';
import type { Filter } from '../http/context.js';
import { errors } from '../machinery/errors.js';
import type { Logger } from '../machinery/logger.js';
import type { RequestContext } from '../machinery/request-context.js';

export interface AuthenticationOptions {
  /** Requests without a known credential go on as system:anonymous (--anonymous-auth). */
  anonymous: boolean;
  log: Logger;
}

export function withAuthentication(authenticator: Authenticator, opts: AuthenticationOptions): Filter<RequestContext> {
  return async (ctx, next) => {
    const result = await authenticator.authenticate({ headers: ctx.req.headers, ...(ctx.tls ? { tls: ctx.tls } : {}) }, ctx.signal);
    switch (result.kind) {
      case 'user':
        ctx.user = result.user;
        break;
      case 'error':
        // The client hears only "Unauthorized"; the operator learns why. Authenticators keep
        // credentials out of their error messages.
        opts.log.info('unable to authenticate the request', { path: ctx.path, error: result.error.message });
        throw errors.unauthorized();
      case 'no-opinion':
        if (!opts.anonymous) throw errors.unauthorized();
        ctx.user = anonymousUser();
        break;
    }
    return next();
  };
}
