/**
 * `Authorization: Bearer <token>`, read as Kubernetes reads it: the header's first value, trimmed,
 * split on single spaces; the scheme is case-insensitive; the token is the second part (anything
 * after a further space is ignored). No header, another scheme or an empty token: no opinion (an
 * empty token after an extra space earns a warning). A token that no token authenticator proves is
 * an error ("invalid bearer token"), never anonymous.
 */
import { failed, type AuthenticationResult, type Authenticator, type TokenAuthenticator } from '../types.js';

export const INVALID_BEARER_TOKEN = 'invalid bearer token';
export const TOKEN_AFTER_EXTRA_SPACE_WARNING = 'the provided Authorization header contains extra space before the bearer token, and is ignored';

export type BearerParse = { kind: 'none' } | { kind: 'empty-after-space' } | { kind: 'token'; token: string };

/** Pure: what the Authorization header value says (`undefined` when there is none). */
export function parseBearer(header: string | readonly string[] | undefined): BearerParse {
  const first = Array.isArray(header) ? header[0] : header;
  const value = typeof first === 'string' ? trimGoSpace(first) : '';
  if (value === '') return { kind: 'none' };
  const parts = splitN(value, ' ', 3);
  if (parts.length < 2 || (parts[0] as string).toLowerCase() !== 'bearer') return { kind: 'none' };
  const token = parts[1] as string;
  if (token === '') return parts.length === 3 ? { kind: 'empty-after-space' } : { kind: 'none' };
  return { kind: 'token', token };
}

export function bearerToken(tokens: TokenAuthenticator): Authenticator {
  return {
    async authenticate(req, signal): Promise<AuthenticationResult> {
      const parsed = parseBearer(req.headers.authorization);
      if (parsed.kind === 'empty-after-space') req.warn?.(TOKEN_AFTER_EXTRA_SPACE_WARNING);
      if (parsed.kind !== 'token') return { kind: 'no-opinion' };
      const result = await tokens.authenticateToken({ token: parsed.token, ...(req.audiences ? { audiences: req.audiences } : {}) }, signal);
      return result.kind === 'no-opinion' ? failed(INVALID_BEARER_TOKEN) : result;
    },
  };
}

/** Go's strings.SplitN: at most n parts, the last holding the rest. */
function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

/** Go's strings.TrimSpace: ASCII and Unicode white space at both ends. */
function trimGoSpace(s: string): string {
  return s.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');
}
