/**
 * The keys service-account tokens are signed and verified with, read from PEM as Kubernetes reads
 * them: a verification file may hold several blocks (public keys, private keys, certificates; other
 * blocks are skipped), the signing file one private key; RSA and ECDSA (P-256, P-384, P-521) only.
 * A key's id is the unpadded base64url SHA-256 of its public key in SPKI DER form, as Kubernetes
 * derives it, so tokens and key sets interoperate with its tooling. Pure apart from reading bytes.
 */
import { createHash, createPrivateKey, createPublicKey, X509Certificate, type JsonWebKey, type KeyObject } from 'node:crypto';
import { decodeAllPem } from '../../machinery/pem.js';

export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface VerificationKey {
  readonly keyId: string;
  readonly key: KeyObject;
  /** The JWS algorithms this key may verify (never `none`, never HMAC). */
  readonly algorithms: readonly string[];
  /** The algorithm the key set advertises for it. */
  readonly algorithm: SigningAlgorithm;
}

export interface SigningKey {
  readonly keyId: string;
  readonly key: KeyObject;
  readonly algorithm: SigningAlgorithm;
  /** Its public half, which verifiers need. */
  readonly publicKey: KeyObject;
}

const CURVE_ALGORITHMS: Readonly<Record<string, SigningAlgorithm>> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };
const RSA_VERIFY = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

/** The algorithm Kubernetes signs with for this key, or undefined for a key it does not sign with. */
export function signingAlgorithmOf(key: KeyObject): SigningAlgorithm | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') return CURVE_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''];
  return undefined;
}

export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

export function verificationKey(publicKey: KeyObject): VerificationKey | undefined {
  const algorithm = signingAlgorithmOf(publicKey);
  if (!algorithm) return undefined;
  return { keyId: keyIdOf(publicKey), key: publicKey, algorithm, algorithms: algorithm === 'RS256' ? RSA_VERIFY : [algorithm] };
}

/** A DER block as whatever key it holds: private keys give their public half. */
function publicKeyOfBlock(der: Buffer): KeyObject | undefined {
  const attempts: (() => KeyObject)[] = [
    () => createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs1' })),
    () => createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })),
    () => createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'sec1' })),
    () => createPublicKey({ key: der, format: 'der', type: 'pkcs1' }),
    () => createPublicKey({ key: der, format: 'der', type: 'spki' }),
    () => new X509Certificate(der).publicKey,
  ];
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch {
      // not this encoding; try the next
    }
  }
  return undefined;
}

/** Every RSA or ECDSA public key in a PEM text; throws when there is none. */
export function verificationKeysFromPem(pem: Buffer | string): VerificationKey[] {
  const keys: VerificationKey[] = [];
  for (const block of decodeAllPem(Buffer.from(pem))) {
    const key = publicKeyOfBlock(block.bytes);
    const usable = key && verificationKey(key);
    if (usable) keys.push(usable);
  }
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}

/** The first RSA or ECDSA private key in a PEM text; throws when there is none. */
export function signingKeyFromPem(pem: Buffer | string): SigningKey {
  for (const block of decodeAllPem(Buffer.from(pem))) {
    for (const type of ['pkcs1', 'sec1', 'pkcs8'] as const) {
      let key: KeyObject;
      try {
        key = createPrivateKey({ key: block.bytes, format: 'der', type });
      } catch {
        continue;
      }
      const algorithm = signingAlgorithmOf(key);
      if (!algorithm) continue;
      const publicKey = createPublicKey(key);
      return { key, publicKey, algorithm, keyId: keyIdOf(publicKey) };
    }
  }
  throw new Error('data does not contain a valid RSA or ECDSA private key');
}

/**
 * The public JSON Web Key of a verification key, as the issuer's key set publishes it (members in
 * Kubernetes' order; only public members, whatever the key object held).
 */
export function publicJwk(key: VerificationKey): JsonWebKey & { kid: string; alg: string; use: string } {
  const { kty, crv, x, y, n, e } = key.key.export({ format: 'jwk' });
  const members = { use: 'sig', kty, kid: key.keyId, crv, alg: key.algorithm, x, y, n, e };
  return Object.fromEntries(Object.entries(members).filter(([, v]) => v !== undefined)) as JsonWebKey & { kid: string; alg: string; use: string };
}
