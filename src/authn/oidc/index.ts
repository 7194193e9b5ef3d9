/**
 * OpenID Connect ID tokens as bearer tokens (document 3, "OpenID Connect tokens"). One issuer is
 * trusted; a token that names another issuer (or is no JWT at all) gets no opinion, so the other
 * token authenticators (service accounts, the webhook) may still claim it. A token of this issuer is
 * the user its claims name, or an error saying why not; keys come from the provider's discovery
 * document, never per request (see provider-keys.ts).
 */
import { readFileSync } from 'node:fs';
import type { Logger } from '../../machinery/logger.js';
import type { AuthenticationResult, TokenAuthenticator } from '../index.js';
import { claimsToUser } from './claims-to-user.js';
import { createProviderKeys, NOT_INITIALIZED, type ProviderKeysOptions } from './provider-keys.js';
import { resolveOidcSettings, type OidcOptions } from './settings.js';
import { verifyIdToken } from './verify-id-token.js';

export { parseRequiredClaims, parseSigningAlgs, resolveOidcSettings, ALLOWED_SIGNING_ALGS, OIDC_DEFAULTS, type OidcOptions } from './settings.js';

export interface OidcAuthenticator extends TokenAuthenticator {
  /** Resolves once the first attempt to read the provider's keys has ended (tests, start-up logs). */
  ready(): Promise<void>;
  /** Stops the background retries. */
  close(): void;
}

export interface OidcDeps {
  log: Logger;
  now?: () => number;
  /** Replaces the HTTPS fetch of the discovery document and key set (unit tests). */
  fetch?: ProviderKeysOptions['fetch'];
}

/** Throws an Error naming the flag when the options cannot be used (the server refuses to start). */
export function createOidcAuthenticator(options: OidcOptions, deps: OidcDeps): OidcAuthenticator {
  const settings = resolveOidcSettings(options);
  let ca: string | undefined;
  if (settings.caFile !== undefined) {
    try {
      ca = readFileSync(settings.caFile, 'utf8');
    } catch (e) {
      throw new Error(`--oidc-ca-file: failed to read the CA file: ${(e as Error).message}`);
    }
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`--oidc-ca-file: ${settings.caFile} holds no PEM certificate`);
  }
  const now = deps.now ?? Date.now;
  const keys = createProviderKeys({
    issuerUrl: settings.issuerUrl,
    ...(ca !== undefined ? { ca } : {}),
    refreshIntervalMs: settings.keyRefreshIntervalMs,
    log: deps.log,
    now,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  return {
    async authenticateToken({ token }): Promise<AuthenticationResult> {
      if (untrustedIssuer(token) !== settings.issuerUrl) return { kind: 'no-opinion' };
      if (!(await keys.initialized())) return { kind: 'error', error: new Error(NOT_INITIALIZED) };
      let claims;
      try {
        claims = await verifyIdToken(token, {
          issuerUrl: settings.issuerUrl,
          clientId: settings.clientId,
          signingAlgs: settings.signingAlgs,
          now,
          keysFor: (kid) => keys.keysFor(kid),
        });
      } catch (e) {
        return { kind: 'error', error: new Error(`oidc: verify token: ${(e as Error).message}`) };
      }
      try {
        return { kind: 'user', user: claimsToUser(claims, settings) };
      } catch (e) {
        return { kind: 'error', error: e as Error };
      }
    },
    ready: () => keys.ready(),
    close: () => keys.close(),
  };
}

/**
 * The `iss` a token claims, read without verifying anything: it only decides whether this
 * authenticator is the one to ask. Undefined for anything that is not a JWT.
 */
function untrustedIssuer(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]+$/.test(parts[1] ?? '')) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8')) as unknown;
    if (typeof claims !== 'object' || claims === null) return undefined;
    const iss = (claims as { iss?: unknown }).iss;
    if (typeof iss !== 'string') return undefined;
    // As Kubernetes: Google's scheme-less issuer counts as its https one.
    return iss === 'accounts.google.com' ? 'https://accounts.google.com' : iss;
  } catch {
    return undefined;
  }
}
