/**
 * Verifies an ID token as kube-apiserver 1.25's verifier does, in its order and with its messages:
 * the compact JWS form, the issuer, the audience (`aud` a string or a list that must hold the client
 * id; `azp` is not checked, as upstream), the expiry (no leeway; a missing `exp` is expired), `nbf`
 * with a minute of leeway for clock skew, the signing algorithm against the allowed list, then the
 * signature against the provider's keys. Returns the verified claims; throws an Error whose message
 * says why, never containing the token.
 */
import { compactVerify, importJWK, type JWK } from 'jose';

export interface VerifyConfig {
  issuerUrl: string;
  clientId: string;
  signingAlgs: readonly string[];
  now(): number;
  keysFor(kid: string | undefined): Promise<readonly JWK[]>;
}

export type Claims = Record<string, unknown>;

const NBF_LEEWAY_MS = 60_000;
/** Google once wrote its issuer without the scheme; Go's OIDC library accepts that for Google only. */
const GOOGLE_ISSUER = 'https://accounts.google.com';

export async function verifyIdToken(token: string, config: VerifyConfig): Promise<Claims> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error(`oidc: malformed jwt: compact JWS format must have three parts`);
  const header = decodeSegment(parts[0] ?? '', 'header');
  const claims = decodeSegment(parts[1] ?? '', 'payload');

  const iss = claims.iss;
  if (iss !== undefined && typeof iss !== 'string') throw new Error(`oidc: failed to unmarshal claims: ${goTypeError(iss, 'string')}`);
  const aud = audienceOf(claims.aud);
  const exp = numericDate(claims.exp, 'exp');
  const nbf = claims.nbf === undefined ? undefined : numericDate(claims.nbf, 'nbf');

  if (iss !== config.issuerUrl && !(config.issuerUrl === GOOGLE_ISSUER && iss === 'accounts.google.com')) {
    throw new Error(`oidc: id token issued by a different provider, expected ${JSON.stringify(config.issuerUrl)} got ${JSON.stringify(iss ?? '')}`);
  }
  if (!aud.includes(config.clientId)) throw new Error(`oidc: expected audience ${JSON.stringify(config.clientId)} got ${goQuotedList(aud)}`);
  const now = config.now();
  if ((exp ?? 0) * 1000 < now) throw new Error(`oidc: token is expired (Token Expiry: ${goTime(exp ?? 0)})`);
  if (nbf !== undefined && now + NBF_LEEWAY_MS < nbf * 1000) {
    throw new Error(`oidc: current time ${goTime(Math.floor(now / 1000))} before the nbf (not before) time: ${goTime(nbf)}`);
  }

  const alg = header.alg;
  if (typeof alg !== 'string' || !config.signingAlgs.includes(alg)) {
    throw new Error(`oidc: id token signed with unsupported algorithm, expected ${goQuotedList(config.signingAlgs)} got ${JSON.stringify(typeof alg === 'string' ? alg : '')}`);
  }
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  let keys: readonly JWK[];
  try {
    keys = await config.keysFor(kid);
  } catch (e) {
    throw new Error(`failed to verify signature: ${(e as Error).message}`);
  }
  for (const jwk of keys) {
    const key = await importKey(jwk, alg);
    if (!key) continue;
    try {
      await compactVerify(token, key, { algorithms: [alg] });
      return claims;
    } catch {
      // Not this key: try the next one with the same id, as Go's library does.
    }
  }
  throw new Error('failed to verify signature: failed to verify id token signature');
}

/** The JOSE header or the claims set: base64url (unpadded) JSON objects. */
function decodeSegment(segment: string, what: 'header' | 'payload'): Record<string, unknown> {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) throw new Error(`oidc: malformed jwt: illegal base64 data in the ${what}`);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw new Error(`oidc: malformed jwt: the ${what} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`oidc: malformed jwt: the ${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

function audienceOf(aud: unknown): string[] {
  if (aud === undefined || aud === null) return [];
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud) && aud.every((a): a is string => typeof a === 'string')) return aud;
  throw new Error(`oidc: failed to unmarshal claims: ${goTypeError(aud, '[]string')}`);
}

/** A NumericDate in whole seconds, as Go reads it: a JSON number or a string holding one. */
function numericDate(v: unknown, claim: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) throw new Error(`oidc: failed to unmarshal claims: ${claim}: ${goTypeError(v, 'json.Number')}`);
  return Math.trunc(n);
}

type VerifyKey = Awaited<ReturnType<typeof importJWK>>;
/** Imported keys by key-set entry and algorithm: importing costs more than verifying. */
const imported = new WeakMap<JWK, Map<string, VerifyKey | undefined>>();

/** The key `jwk` as a key for `alg`, or undefined when the two do not fit together. */
async function importKey(jwk: JWK, alg: string): Promise<VerifyKey | undefined> {
  let byAlg = imported.get(jwk);
  if (!byAlg) imported.set(jwk, (byAlg = new Map()));
  if (byAlg.has(alg)) return byAlg.get(alg);
  let key: VerifyKey | undefined;
  try {
    key = await importJWK({ ...jwk, alg }, alg);
  } catch {
    key = undefined;
  }
  byAlg.set(alg, key);
  return key;
}

/** Go's `%q` of a []string: `["a" "b"]`. */
export function goQuotedList(items: readonly string[]): string {
  return `[${items.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** Go's default time formatting of a Unix time in UTC: `2006-01-02 15:04:05 +0000 UTC`. */
function goTime(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  if (Number.isNaN(d.getTime())) return String(unixSeconds);
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} +0000 UTC`;
}

/** encoding/json's message for a JSON value of the wrong type. */
export function goTypeError(value: unknown, goType: string): string {
  const jsonType = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
  return `json: cannot unmarshal ${jsonType} into Go value of type ${goType}`;
}
