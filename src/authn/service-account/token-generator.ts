/**
 * Signs service-account tokens: a compact JWS of the claims with the signing key, the key id in
 * the header, the issuer's `iss` added last so that no caller's claim can replace it (Kubernetes
 * applies its claims in the same precedence). jose does the JWS work.
 */
import { CompactSign } from 'jose';
import type { SigningKey } from './keys.js';

export interface TokenGenerator {
  readonly issuer: string;
  /** The signed token. Does not mutate `claims`; safe to call concurrently. */
  generate(claims: Readonly<Record<string, unknown>>): Promise<string>;
}

export function createTokenGenerator(issuer: string, signingKey: SigningKey): TokenGenerator {
  const encoder = new TextEncoder();
  return {
    issuer,
    async generate(claims) {
      const payload = encoder.encode(JSON.stringify({ ...claims, iss: issuer }));
      return new CompactSign(payload).setProtectedHeader({ alg: signingKey.algorithm, kid: signingKey.keyId }).sign(signingKey.key);
    },
  };
}
