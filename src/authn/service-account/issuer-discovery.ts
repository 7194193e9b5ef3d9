/**
 * Service-account issuer discovery, as kube-apiserver serves it: an OpenID provider configuration
 * at `/.well-known/openid-configuration` and the public keys at `/openid/v1/jwks`, so that other
 * parties can verify this server's tokens. Offered only when the (first) issuer is an https URL
 * without query or fragment; the key set's URI is `--service-account-jwks-uri`, else
 * `https://<external address>/openid/v1/jwks`. Both documents are made once (the keys do not change
 * while the server runs) and may be cached for an hour. Pure.
 */
import { publicJwk, type VerificationKey } from './keys.js';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';
/** As Kubernetes: keys from files never change, so an hour. */
export const DISCOVERY_MAX_AGE_SECONDS = 3600;

export interface IssuerDiscovery {
  /** The provider configuration, JSON. */
  readonly configuration: string;
  /** The key set, JSON (served as application/jwk-set+json). */
  readonly keySet: string;
  readonly maxAgeSeconds: number;
}

/** The documents, or why they cannot be offered (the server then serves neither, and logs why). */
export function issuerDiscovery(issuer: string, jwksUri: string | undefined, externalAddress: string, keys: readonly VerificationKey[]): IssuerDiscovery | { error: string } {
  if (!URL.canParse(issuer)) return { error: `issuer URL ${JSON.stringify(issuer)} is not a URL` };
  const iss = new URL(issuer);
  if (iss.protocol !== 'https:') return { error: `issuer URL must use https scheme, got: ${issuer}` };
  if (iss.search !== '') return { error: `issuer URL may not include a query, got: ${issuer}` };
  if (iss.hash !== '') return { error: `issuer URL may not include a fragment, got: ${issuer}` };
  if (keys.length === 0) return { error: 'no keys provided for validating keyset' };
  const jwks = { keys: keys.map(publicJwk) };
  const configuration = {
    issuer,
    jwks_uri: jwksUri ?? `https://${externalAddress}${JWKS_PATH}`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...new Set(jwks.keys.map((k) => k.alg))].sort(),
  };
  return { configuration: JSON.stringify(configuration), keySet: JSON.stringify(jwks), maxAgeSeconds: DISCOVERY_MAX_AGE_SECONDS };
}
