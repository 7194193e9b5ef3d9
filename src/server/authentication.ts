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
  audienceAgnosticToken,
  unionAuthenticators,
  unionTokenAuthenticators,
  withAuthenticatedGroup,
  type Authenticator,
  type TokenAuthenticator,
} from '../authn/index.js';
import { bearerToken } from '../authn/bearer-token/index.js';
import { createOidcAuthenticator } from '../authn/oidc/index.js';
import { createTokenWebhookAuthenticator } from '../authn/token-webhook/index.js';
import { insecureSuperuser } from '../authn/unsecured/index.js';
import { x509ClientCertificates } from '../authn/x509/index.js';
import type { IdentityHeaders } from '../filters/with-authentication.js';
import { createApiNames } from '../machinery/api-names.js';
import type { Logger } from '../machinery/logger.js';
import { DEFAULTS, type ServerOptions } from './options.js';

export interface AuthenticationDeps {
  options: ServerOptions;
  log: Logger;
  /** The CA bundle client certificates are checked against (`--client-ca-file` or the server's own CA); absent in plain-HTTP mode. */
  clientCaPem?: string;
}

export interface AuthenticationSetup {
  /** Every configured method, as one union; users also in system:authenticated. No anonymous here. */
  readonly authenticator: Authenticator;
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
  if (options.plainHttp) {
    // The explicit test mode: every request is system:unsecured, as on Kubernetes' old insecure port.
    return { authenticator: insecureSuperuser(), anonymous: false, apiAudiences: [], close: () => undefined };
  }
  const apiAudiences = options.apiAudiences ?? [];
  const oidc = options.oidc && createOidcAuthenticator(options.oidc, { log: deps.log });
  const tokenAuthenticators: TokenAuthenticator[] = [
    // Tokens that name no audience this server could check: good for the API audiences alone.
    ...[
      // (static token file, bootstrap tokens, service-account tokens: one line each)
      oidc as TokenAuthenticator | undefined,
    ]
      .filter((t): t is TokenAuthenticator => Boolean(t))
      .map((t) => audienceAgnosticToken(apiAudiences, t)),
    // The webhook is told the audiences and answers for them itself.
    options.tokenWebhook && createTokenWebhookAuthenticator(options.tokenWebhook, { names: createApiNames(options.apiDomain ?? DEFAULTS.apiDomain), log: deps.log, apiAudiences }),
  ].filter((t): t is TokenAuthenticator => Boolean(t));
  const requestAuthenticators = [
    // (authenticating proxy: one line)
    deps.clientCaPem !== undefined && audienceAgnostic(apiAudiences, x509ClientCertificates(deps.clientCaPem)),
    bearerToken(unionTokenAuthenticators(tokenAuthenticators)),
  ];
  return {
    authenticator: withAuthenticatedGroup(unionAuthenticators(requestAuthenticators.filter((a): a is Authenticator => a !== false))),
    anonymous: anonymousAuthEnabled(options.anonymousAuth, undefined, deps.log),
    apiAudiences,
    close: () => oidc?.close(),
  };
}
