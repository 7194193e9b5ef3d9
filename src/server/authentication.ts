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
  audienceAgnosticToken,
  unionAuthenticators,
  unionTokenAuthenticators,
  withAuthenticatedGroup,
  type Authenticator,
  type TokenAuthenticator,
} from '../authn/index.js';
import { bearerToken } from '../authn/bearer-token/index.js';
import { bootstrapTokenAuthenticator } from '../authn/bootstrap-token/index.js';
import { insecureSuperuser } from '../authn/unsecured/index.js';
import type { IdentityHeaders } from '../filters/with-authentication.js';
import type { ApiNames } from '../machinery/api-names.js';
import type { Logger } from '../machinery/logger.js';
import type { ResourceListers } from '../registry/lister.js';
import type { ServerOptions } from './options.js';

export interface AuthenticationDeps {
  options: ServerOptions;
  log: Logger;
  /** The API names and listers methods that read API objects need (bootstrap tokens, service accounts). */
  names?: ApiNames;
  listers?: ResourceListers;
  /** Service-account token authenticators and the API audiences they imply (absent: none). */
  serviceAccounts?: { readonly authenticators: readonly TokenAuthenticator[]; readonly apiAudiences: readonly string[] };
}

function needs<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`authentication is missing ${what}`);
  return value;
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
    return { authenticator: insecureSuperuser(), anonymous: false, apiAudiences: [] };
  }
  // Kubernetes: without --api-audiences, the service-account issuers are the API audiences.
  const apiAudiences = deps.serviceAccounts?.apiAudiences ?? options.apiAudiences ?? [];
  const listers = (): ResourceListers => needs(deps.listers, 'the listers');
  const names = (): ApiNames => needs(deps.names, 'the API names');
  // Kubernetes' order: static token file, service-account tokens, bootstrap tokens, OIDC, webhook.
  const tokenAuthenticators: TokenAuthenticator[] = [
    ...(deps.serviceAccounts?.authenticators ?? []),
    options.enableBootstrapTokenAuth &&
      audienceAgnosticToken(apiAudiences, bootstrapTokenAuthenticator({ names: names(), secrets: listers().for('', 'secrets'), log: deps.log })),
  ].filter((t): t is TokenAuthenticator => !!t);
  const requestAuthenticators: Authenticator[] = [
    // (authenticating proxy, client certificates: one line each)
    bearerToken(unionTokenAuthenticators(tokenAuthenticators)),
  ];
  return {
    authenticator: withAuthenticatedGroup(unionAuthenticators(requestAuthenticators)),
    anonymous: anonymousAuthEnabled(options.anonymousAuth, undefined, deps.log),
    apiAudiences,
  };
}
