/**
 * A JWT token authenticator as Kubernetes' service-account one: a token whose (unverified) `iss`
 * is not one of ours, or that is not a compact JWS at all, is no opinion (another method's); one
 * that claims our issuer must verify with one of the keys, name an audience that was asked for
 * (a token without audience, a legacy one, stands for the server's own audiences), and pass the
 * validator (expiry, the objects it names still existing). Every failure after the issuer matched
 * is an error, whose message names the rule and never the token.
 */
import { compactVerify } from 'jose';
import type { ApiNames } from '../../machinery/api-names.js';
import { intersectAudiences } from '../audiences.js';
import { authenticated, failed, NO_OPINION, type AuthenticationResult, type TokenAuthenticator } from '../types.js';
import { serviceAccountUser, type PublicClaims, type ServiceAccountInfo } from './claims.js';
import type { VerificationKey } from './keys.js';

/** What a validator answers: who the token stands for, or why it does not hold. */
export type ValidationResult = { ok: true; info: ServiceAccountInfo } | { ok: false; error: string };

export interface TokenValidator {
  /**
   * Checks a token whose signature and issuer are verified. `payload` is the whole verified claim
   * set. Reads objects through listers; never throws for a bad token (answers `ok: false`).
   */
  validate(token: string, claims: PublicClaims, payload: Readonly<Record<string, unknown>>, signal: AbortSignal): Promise<ValidationResult>;
}

export interface JwtAuthenticatorConfig {
  readonly names: ApiNames;
  readonly issuers: readonly string[];
  readonly keys: readonly VerificationKey[];
  /** The server's API audiences: what a token without audience is good for, and what is asked when nothing is. */
  readonly implicitAudiences: readonly string[];
  readonly validator: TokenValidator;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Go's base64.RawURLEncoding: no padding, URL alphabet, no stray length. */
function decodeSegment(segment: string): Buffer | undefined {
  if (!BASE64URL.test(segment) || segment.length % 4 === 1) return undefined;
  return Buffer.from(segment, 'base64url');
}

function jsonObject(bytes: Buffer | undefined): Record<string, unknown> | undefined {
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The claims Kubernetes decodes, type-checked as Go's decoder would; a string says what is wrong. */
export function publicClaimsOf(payload: Readonly<Record<string, unknown>>): PublicClaims | string {
  const out: PublicClaims = {};
  for (const name of ['iss', 'sub'] as const) {
    const v = payload[name];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') return `claim ${name} is not a string`;
    out[name] = v;
  }
  const aud = payload.aud;
  if (typeof aud === 'string') out.aud = [aud];
  else if (Array.isArray(aud)) {
    if (!aud.every((a): a is string => typeof a === 'string')) return 'claim aud is not a string or a list of strings';
    out.aud = aud;
  } else if (aud !== undefined && aud !== null) return 'claim aud is not a string or a list of strings';
  for (const name of ['exp', 'nbf', 'iat'] as const) {
    const v = payload[name];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isFinite(v)) return `claim ${name} is not a number`;
    out[name] = Math.trunc(v);
  }
  return out;
}

/** Go's %q of a string list: `["a" "b"]`. */
function goQuoteList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

export function jwtTokenAuthenticator(config: JwtAuthenticatorConfig): TokenAuthenticator {
  const issuers = new Set(config.issuers);
  return {
    async authenticateToken(req, signal): Promise<AuthenticationResult> {
      const token = req.token;
      if (token.trim().startsWith('{')) return NO_OPINION;
      const parts = token.split('.');
      if (parts.length !== 3) return NO_OPINION;
      // Not verified yet: read only to learn whether the token is ours to judge.
      const unverified = jsonObject(decodeSegment(parts[1] as string));
      if (!unverified || typeof unverified.iss !== 'string' || !issuers.has(unverified.iss)) return NO_OPINION;
      const header = jsonObject(decodeSegment(parts[0] as string));
      if (!header || typeof header.alg !== 'string' || !decodeSegment(parts[2] as string)) return NO_OPINION;

      const errors: string[] = [];
      let payloadBytes: Uint8Array | undefined;
      for (const key of config.keys) {
        try {
          payloadBytes = (await compactVerify(token, key.key, { algorithms: [...key.algorithms] })).payload;
          break;
        } catch (e) {
          errors.push(verifyFailure(e));
        }
      }
      if (!payloadBytes) return failed(errors.length === 0 ? 'invalid signature, no keys found' : [...new Set(errors)].join(', '));
      const payload = jsonObject(Buffer.from(payloadBytes));
      if (!payload) return failed('token claims could not be decoded');
      const claims = publicClaimsOf(payload);
      if (typeof claims === 'string') return failed(`token claims could not be decoded: ${claims}`);
      // The issuer was read before the signature was checked; check the verified one.
      if (!issuers.has(claims.iss ?? '')) return failed(`token issuer ${JSON.stringify(claims.iss ?? '')} is invalid`);

      const tokenAudiences = claims.aud && claims.aud.length > 0 ? claims.aud : config.implicitAudiences;
      const requested = req.audiences ?? config.implicitAudiences;
      const audiences = intersectAudiences(tokenAudiences, requested);
      if (audiences.length === 0 && config.implicitAudiences.length > 0) {
        return failed(`token audiences ${goQuoteList(tokenAudiences)} is invalid for the target audiences ${goQuoteList(requested)}`);
      }
      const result = await config.validator.validate(token, claims, payload, signal);
      if (!result.ok) return failed(result.error);
      return authenticated(serviceAccountUser(config.names, result.info), audiences);
    },
  };
}

function verifyFailure(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return 'token signature is invalid';
  if (code === 'ERR_JOSE_ALG_NOT_ALLOWED') return 'token signature algorithm does not fit the key';
  return `token signature could not be checked: ${e instanceof Error ? e.message : String(e)}`;
}
