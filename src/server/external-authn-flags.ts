/**
 * The command's flags of the external token authenticators: OpenID Connect (`--oidc-*`) and the
 * token-review webhook (`--authentication-token-webhook-*`), as parseArgs options and their reading
 * into ServerOptions. Like kube-apiserver, the `--oidc-*` flags do nothing without
 * `--oidc-issuer-url` (which needs `--oidc-client-id`), and the webhook flags nothing without its
 * config file. Throws an Error with the message for a usage error; files are read later, by
 * createServer.
 */
import { resolve } from 'node:path';
import { parseRequiredClaims, parseSigningAlgs, resolveOidcSettings, type OidcOptions } from '../authn/oidc/index.js';
import { parseTokenReviewVersion, TOKEN_WEBHOOK_DEFAULTS, type TokenWebhookOptions } from '../authn/token-webhook/index.js';
import { createApiNames } from '../machinery/api-names.js';
import { parseDuration } from './options.js';

export const EXTERNAL_AUTHN_FLAGS = {
  'oidc-issuer-url': { type: 'string' },
  'oidc-client-id': { type: 'string' },
  'oidc-ca-file': { type: 'string' },
  'oidc-username-claim': { type: 'string' },
  'oidc-username-prefix': { type: 'string' },
  'oidc-groups-claim': { type: 'string' },
  'oidc-groups-prefix': { type: 'string' },
  'oidc-required-claim': { type: 'string', multiple: true },
  'oidc-signing-algs': { type: 'string', multiple: true },
  'authentication-token-webhook-config-file': { type: 'string' },
  'authentication-token-webhook-cache-ttl': { type: 'string' },
  'authentication-token-webhook-version': { type: 'string' },
} as const;

type Values = { [K in keyof typeof EXTERNAL_AUTHN_FLAGS]?: (typeof EXTERNAL_AUTHN_FLAGS)[K] extends { multiple: true } ? string[] : string };

export interface ExternalAuthnOptions {
  oidc?: OidcOptions;
  tokenWebhook?: TokenWebhookOptions;
}

/** The flags given that switch one of these authenticators on. */
export function externalAuthnFlagsGiven(v: Values): string[] {
  return (['oidc-issuer-url', 'oidc-client-id', 'authentication-token-webhook-config-file'] as const).filter((f) => v[f] !== undefined).map((f) => `--${f}`);
}

export function parseExternalAuthnFlags(v: Values, apiDomain: string): ExternalAuthnOptions {
  const out: ExternalAuthnOptions = {};
  const issuer = v['oidc-issuer-url'] ?? '';
  const clientId = v['oidc-client-id'] ?? '';
  if ((issuer !== '') !== (clientId !== '')) throw new Error('oidc-issuer-url and oidc-client-id should be specified together');
  if (issuer !== '') {
    const oidc: OidcOptions = {
      issuerUrl: issuer,
      clientId,
      ...(v['oidc-ca-file'] ? { caFile: resolve(v['oidc-ca-file']) } : {}),
      ...(v['oidc-username-claim'] !== undefined ? { usernameClaim: v['oidc-username-claim'] } : {}),
      ...(v['oidc-username-prefix'] !== undefined ? { usernamePrefix: v['oidc-username-prefix'] } : {}),
      ...(v['oidc-groups-claim'] ? { groupsClaim: v['oidc-groups-claim'] } : {}),
      ...(v['oidc-groups-prefix'] ? { groupsPrefix: v['oidc-groups-prefix'] } : {}),
      ...(v['oidc-required-claim'] ? { requiredClaims: parseRequiredClaims(v['oidc-required-claim']) } : {}),
      ...(v['oidc-signing-algs'] ? { signingAlgs: parseSigningAlgs(v['oidc-signing-algs']) } : {}),
    };
    resolveOidcSettings(oidc);
    out.oidc = oidc;
  }
  const configFile = v['authentication-token-webhook-config-file'];
  if (configFile) {
    let cacheTtlMs: number = TOKEN_WEBHOOK_DEFAULTS.cacheTtlMs;
    if (v['authentication-token-webhook-cache-ttl'] !== undefined) {
      try {
        cacheTtlMs = parseDuration(v['authentication-token-webhook-cache-ttl']);
      } catch (e) {
        throw new Error(`--authentication-token-webhook-cache-ttl: ${(e as Error).message}`);
      }
    }
    const versionFlag = v['authentication-token-webhook-version'];
    out.tokenWebhook = {
      configFile: resolve(configFile),
      cacheTtlMs,
      version: versionFlag !== undefined ? parseTokenReviewVersion(versionFlag, createApiNames(apiDomain)) : TOKEN_WEBHOOK_DEFAULTS.version,
    };
  }
  return out;
}
