/**
 * Authentication, built from the options in one place: the union of every configured method in
 * Kubernetes' order (authenticating proxy, client certificates, then bearer tokens), each user
 * also put in `system:authenticated`, and whether anonymous requests are let in.
 *
 * Adding a method: a folder `src/authn/<method>/`, its options in ServerOptions, and one line in
 * `requestAuthenticators` or `tokenAuthenticators` below. A token method whose tokens carry no
 * audience of their own goes through `audienceAgnosticToken` (as the static token file does).
 *
 * Throws an Error naming the flag or file when an option cannot be used (the server does not start).
 */
import {
  audienceAgnostic,
  intersectAudiences,
  audienceAgnosticToken,
  unionAuthenticators,
  unionTokenAuthenticators,
  withAuthenticatedGroup,
  type Authenticator,
  type TokenAuthenticator,
} from '../authn/index.js';
import { bearerToken } from '../authn/bearer-token/index.js';
import { createOidcAuthenticator } from '../authn/oidc/index.js';
import { requestHeaderAuthenticator, type RequestHeaderConfig } from '../authn/request-header/index.js';
import { tokenFileAuthenticator } from '../authn/token-file/index.js';
import { createTokenWebhookAuthenticator } from '../authn/token-webhook/index.js';
import { insecureSuperuser } from '../authn/unsecured/index.js';
import { x509ClientCertificates } from '../authn/x509/index.js';
import type { IdentityHeaders } from '../filters/with-authentication.js';
import { createApiNames } from '../machinery/api-names.js';
import { errors } from '../machinery/errors.js';
import type { Logger } from '../machinery/logger.js';
import type { TokenReviewAnswer, TokenReviewer } from '../registry/define-resource.js';
import { DEFAULTS, type ServerOptions } from './options.js';

export interface AuthenticationDeps {
  options: ServerOptions;
  log: Logger;
  /** The CA bundle client certificates are checked against (`--client-ca-file` or the server's own CA); absent in plain-HTTP mode. */
  clientCaPem?: string;
  /** The authenticating proxy's CA bundle (`--requestheader-client-ca-file`), when configured. */
  requestheaderCaPem?: string;
}

export interface AuthenticationSetup {
  /**
   * What authenticates requests: every configured method as one union, users also in
   * system:authenticated (no anonymous here). In plain-HTTP mode: everyone is system:unsecured.
   */
  readonly authenticator: Authenticator;
  /** TokenReview's answers: the union's decision about a bearer token (never system:unsecured). */
  readonly tokenReviewer: TokenReviewer;
  /** Requests without a known credential go on as system:anonymous. */
  readonly anonymous: boolean;
  /** The server's API audiences (`--api-audiences`); empty when none are configured. */
  readonly apiAudiences: readonly string[];
  /** The proxy's identity headers, removed from every request after authentication. */
  readonly identityHeaders?: IdentityHeaders;
  /** Stops what the authenticators run in the background (the OIDC provider's retries). */
  close(): void;
}

/**
 * Kubernetes' rule: anonymous requests are allowed unless `--anonymous-auth=false`, and never with
 * the AlwaysAllow authorizer (an explicit `true` is then overridden, with a warning), since
 * everyone would be allowed everything. `authorizationModes` absent: no authorization mode is
 * configured yet (the flag comes with authorization), so only the flag decides.
 */
export function anonymousAuthEnabled(explicit: boolean | undefined, authorizationModes: readonly string[] | undefined, log?: Logger): boolean {
  if (authorizationModes?.includes('AlwaysAllow')) {
    if (explicit === true) log?.warn('anonymous requests are not allowed with the AlwaysAllow authorizer; --anonymous-auth is reset to false. Use another authorization mode.');
    return false;
  }
  return explicit ?? true;
}

export function buildAuthentication(deps: AuthenticationDeps): AuthenticationSetup {
  const { options } = deps;
  const apiAudiences = options.apiAudiences ?? [];
  const oidc = options.oidc && createOidcAuthenticator(options.oidc, { log: deps.log });
  const tokenAuthenticators = [
    options.tokenAuthFile !== undefined && audienceAgnosticToken(apiAudiences, tokenFileAuthenticator(options.tokenAuthFile, deps.log)),
    // (bootstrap tokens, service-account tokens: one line each)
    oidc && audienceAgnosticToken(apiAudiences, oidc),
    // The webhook is told the audiences and answers for them itself.
    options.tokenWebhook && createTokenWebhookAuthenticator(options.tokenWebhook, { names: createApiNames(options.apiDomain ?? DEFAULTS.apiDomain), log: deps.log, apiAudiences }),
  ].filter((t): t is TokenAuthenticator => Boolean(t));
  const proxy = requestHeaderConfig(options, deps.requestheaderCaPem);
  const requestAuthenticators = [
    proxy && audienceAgnostic(apiAudiences, requestHeaderAuthenticator(proxy)),
    deps.clientCaPem !== undefined && audienceAgnostic(apiAudiences, x509ClientCertificates(deps.clientCaPem)),
    bearerToken(unionTokenAuthenticators(tokenAuthenticators)),
  ];
  const union = withAuthenticatedGroup(unionAuthenticators(requestAuthenticators.filter((a): a is Authenticator => Boolean(a))));
  const tokenReviewer = createTokenReviewer(union, apiAudiences, deps.log);
  if (options.plainHttp) {
    // The explicit test mode: every request is system:unsecured, as on Kubernetes' old insecure port.
    return { authenticator: insecureSuperuser(), tokenReviewer, anonymous: false, apiAudiences: [], close: () => oidc?.close() };
  }
  return {
    authenticator: union,
    tokenReviewer,
    anonymous: anonymousAuthEnabled(options.anonymousAuth, undefined, deps.log),
    apiAudiences,
    close: () => oidc?.close(),
    ...(proxy ? { identityHeaders: { names: [...proxy.usernameHeaders, ...proxy.groupHeaders], prefixes: proxy.extraHeaderPrefixes } } : {}),
  };
}

/**
 * Kubernetes' TokenReview: the token goes through the union as a request's bearer token would,
 * asked for the review's audiences (default: the API audiences). An answer for none of the asked
 * audiences means an authenticator ignored them: a 500, not a yes.
 */
function createTokenReviewer(authenticator: Authenticator, apiAudiences: readonly string[], log: Logger): TokenReviewer {
  return {
    async review({ token, audiences }, signal): Promise<TokenReviewAnswer> {
      const asked = audiences && audiences.length > 0 ? audiences : apiAudiences;
      const result = await authenticator.authenticate({ headers: { authorization: `Bearer ${token}` }, ...(asked.length > 0 ? { audiences: asked } : {}) }, signal);
      if (result.kind === 'error') return { authenticated: false, error: result.error.message };
      if (result.kind === 'no-opinion') return { authenticated: false };
      if (asked.length > 0 && intersectAudiences(asked, result.audiences ?? []).length === 0) {
        log.error('error validating audiences', { want: asked, got: result.audiences ?? [] });
        throw errors.internal('error validating audiences');
      }
      return { authenticated: true, user: result.user, ...(result.audiences ? { audiences: [...result.audiences] } : {}) };
    },
  };
}

/** The proxy's settings, or undefined when no proxy CA is configured. Throws when the username headers are missing. */
function requestHeaderConfig(options: ServerOptions, caPem: string | undefined): RequestHeaderConfig | undefined {
  if (caPem === undefined) return undefined;
  const usernameHeaders = options.requestheaderUsernameHeaders ?? [];
  if (usernameHeaders.length === 0) throw new Error('--requestheader-client-ca-file needs --requestheader-username-headers (usually X-Remote-User)');
  return {
    caPem,
    allowedNames: options.requestheaderAllowedNames ?? [],
    usernameHeaders,
    groupHeaders: options.requestheaderGroupHeaders ?? [],
    extraHeaderPrefixes: options.requestheaderExtraHeadersPrefix ?? [],
  };
}
