/**
 * Service-account tokens: their authenticators, their issuer and the issuer's discovery documents,
 * made from the resolved settings (settings.ts). Kubernetes' order: the legacy (Secret-based) token
 * authenticator, then the bound token one. Both check audiences themselves, so neither is wrapped
 * as audience-agnostic.
 */
import type { ApiNames } from '../../machinery/api-names.js';
import type { Logger } from '../../machinery/logger.js';
import type { ServiceAccountTokenIssuer } from '../../machinery/service-account-tokens.js';
import type { TokenAuthenticator } from '../types.js';
import { boundTokenClaims, legacyIssuer, legacyTokenClaims } from './claims.js';
import { issuerDiscovery, type IssuerDiscovery } from './issuer-discovery.js';
import { jwtTokenAuthenticator } from './jwt-authenticator.js';
import type { ServiceAccountSettings } from './settings.js';
import { createTokenGenerator } from './token-generator.js';
import { boundTokenValidator, legacyTokenValidator, type ServiceAccountGetters } from './validators.js';

export { resolveServiceAccountSettings, DEFAULT_SERVICE_ACCOUNT_ISSUER, type ServiceAccountFlags, type ServiceAccountSettings } from './settings.js';
export { JWKS_PATH, OPENID_CONFIGURATION_PATH, type IssuerDiscovery } from './issuer-discovery.js';
export type { ServiceAccountGetters } from './validators.js';

export interface ServiceAccountTokenDeps {
  readonly names: ApiNames;
  readonly settings: ServiceAccountSettings;
  readonly getters: ServiceAccountGetters;
  readonly log: Logger;
  /** The clock tokens are issued and checked by (tests move it). */
  readonly now?: () => Date;
}

export interface ServiceAccountTokens {
  /** The legacy, then the bound token authenticator. */
  readonly authenticators: readonly TokenAuthenticator[];
  /** Issues bound tokens (TokenRequest); absent without a signing key. */
  readonly issuer?: ServiceAccountTokenIssuer;
  /** Signs a legacy token for an account's token Secret; absent without a signing key. */
  readonly signLegacyToken?: (serviceAccount: { namespace: string; name: string; uid: string }, secretName: string) => Promise<string>;
  /** The discovery documents, given the address the server is reached at (`host:port`). */
  discovery(externalAddress: string): IssuerDiscovery | { error: string };
}

export function serviceAccountTokens(deps: ServiceAccountTokenDeps): ServiceAccountTokens {
  const { names, settings, getters, log } = deps;
  const validatorDeps = { names, getters, log, ...(deps.now ? { now: deps.now } : {}) };
  const authenticators = [
    jwtTokenAuthenticator({
      names,
      issuers: [legacyIssuer(names)],
      keys: settings.verificationKeys,
      implicitAudiences: settings.apiAudiences,
      validator: legacyTokenValidator({ ...validatorDeps, lookup: settings.lookup }),
    }),
    jwtTokenAuthenticator({
      names,
      issuers: settings.issuers,
      keys: settings.verificationKeys,
      implicitAudiences: settings.apiAudiences,
      validator: boundTokenValidator(validatorDeps),
    }),
  ];
  const { signingKey } = settings;
  const first = settings.issuers[0] as string;
  const discovery = (externalAddress: string) => issuerDiscovery(first, settings.jwksUri, externalAddress, settings.verificationKeys);
  if (!signingKey) return { authenticators, discovery };

  const bound = createTokenGenerator(first, signingKey);
  const legacy = createTokenGenerator(legacyIssuer(names), signingKey);
  return {
    authenticators,
    discovery,
    issuer: {
      audiences: settings.apiAudiences,
      maxExpirationSeconds: settings.maxTokenExpirationSeconds,
      extendExpiration: settings.extendTokenExpiration,
      issue: (request, now) => bound.generate(boundTokenClaims(names, request, Math.floor(now.getTime() / 1000))),
    },
    signLegacyToken: (sa, secretName) => legacy.generate(legacyTokenClaims(names, sa, secretName)),
  };
}
