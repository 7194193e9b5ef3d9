/**
 * Establishes who is asking. A proven user goes on as `ctx.user`; a credential that does not hold
 * gets 401 Unauthorized (never anonymous); a request with no credential the authenticator knows
 * goes on as system:anonymous when anonymous requests are allowed, else 401. Present only when an
 * authenticator is configured (without one, as in Kubernetes, authentication is off).
 *
 * Whatever the outcome, a request that goes further carries no credential: the `Authorization`
 * header of a proven user is removed (as Kubernetes does), and so are the authenticating proxy's
 * identity headers on every request, so nothing behind this filter can mistake them for proof.
 */
import { anonymousUser, audiencesAreAcceptable, type AuthenticationRequest, type Authenticator } from '../authn/index.js';
import type { Filter } from '../http/context.js';
import { errors } from '../machinery/errors.js';
import type { Logger } from '../machinery/logger.js';
import type { RequestContext } from '../machinery/request-context.js';

/** Headers that carry an identity: exact names and name prefixes, any case. */
export interface IdentityHeaders {
  readonly names: readonly string[];
  readonly prefixes: readonly string[];
}

export interface AuthenticationOptions {
  /** Requests without a known credential go on as system:anonymous (--anonymous-auth). */
  anonymous: boolean;
  log: Logger;
  /** The server's API audiences (--api-audiences); a credential good only for others is refused. */
  apiAudiences?: readonly string[];
  /** Removed from every request once authentication has read them (the proxy's identity headers). */
  identityHeaders?: IdentityHeaders;
}

export function withAuthentication(authenticator: Authenticator, opts: AuthenticationOptions): Filter<RequestContext> {
  const apiAudiences = opts.apiAudiences ?? [];
  const identity = opts.identityHeaders && identityMatcher(opts.identityHeaders);
  return async (ctx, next) => {
    const request: AuthenticationRequest = {
      headers: ctx.req.headers,
      rawHeaders: ctx.req.rawHeaders,
      ...(ctx.tls ? { tls: ctx.tls } : {}),
      ...(apiAudiences.length > 0 ? { audiences: apiAudiences } : {}),
      warn: (message) => void ctx.warnings.push(message),
    };
    const result = await authenticator.authenticate(request, ctx.signal);
    switch (result.kind) {
      case 'user':
        if (!audiencesAreAcceptable(apiAudiences, result.audiences)) {
          opts.log.info('unable to authenticate the request', { path: ctx.url.pathname, error: `unable to match the audience: ${JSON.stringify(result.audiences)}, accepted: ${JSON.stringify(apiAudiences)}` });
          throw errors.unauthorized();
        }
        removeHeaders(ctx.req, (name) => name.toLowerCase() === 'authorization');
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
    if (identity) removeHeaders(ctx.req, identity);
    return next();
  };
}

function identityMatcher(identity: IdentityHeaders): (name: string) => boolean {
  const names = new Set(identity.names.map((n) => n.toLowerCase()));
  const prefixes = identity.prefixes.map((p) => p.toLowerCase());
  return (name) => {
    const lower = name.toLowerCase();
    return names.has(lower) || prefixes.some((p) => lower.startsWith(p));
  };
}

/** Removes headers from Node's header object and, where it is a plain array, from the raw list. */
function removeHeaders(req: RequestContext['req'], matches: (name: string) => boolean): void {
  for (const name of Object.keys(req.headers)) if (matches(name)) delete req.headers[name];
  const raw = req.rawHeaders;
  if (!Array.isArray(raw) || Object.isFrozen(raw)) return;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (matches(raw[i] as string)) raw.splice(i, 2);
}
