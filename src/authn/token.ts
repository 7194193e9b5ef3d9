/**
 * Bearer tokens: the token authenticators (OpenID Connect, the token webhook, ...) decide on the
 * token alone; `bearerTokenAuthenticator` lifts one onto the request seam by reading
 * `Authorization: Bearer <token>` as Kubernetes does (scheme case-insensitive, one space, the token
 * up to the next space). A request without such a header is no opinion; a bearer token that no token
 * authenticator accepts is an error ("invalid bearer token"), never anonymous.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthenticationRequest, AuthenticationResult, Authenticator } from './index.js';

export interface TokenAuthenticator {
  /**
   * Decides on `token`. `audiences` are those the token must be valid for (the API server's own
   * when it has them, or a TokenReview's `spec.audiences`); absent means no audience check. Never
   * throws for a bad token (that is an `error` result) and never puts the token in an error.
   */
  authenticateToken(token: string, audiences: readonly string[] | undefined, signal: AbortSignal): Promise<AuthenticationResult>;
}

/** The bearer token of a request's headers, or undefined when it carries none. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization?.trim();
  if (!auth) return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0]?.toLowerCase() !== 'bearer') return undefined;
  const token = parts[1];
  return token ? token : undefined;
}

export function bearerTokenAuthenticator(tokens: TokenAuthenticator, audiences?: readonly string[]): Authenticator {
  return {
    async authenticate(req: AuthenticationRequest, signal: AbortSignal): Promise<AuthenticationResult> {
      const token = bearerToken(req.headers);
      if (token === undefined) return { kind: 'no-opinion' };
      const result = await tokens.authenticateToken(token, audiences, signal);
      return result.kind === 'no-opinion' ? { kind: 'error', error: new Error('invalid bearer token') } : result;
    },
  };
}

/**
 * Several token authenticators as one, as Kubernetes' token union: each is asked in turn until one
 * proves a user; an error does not stop the others (a JWT of another issuer may fail one and suit
 * the next). Without a user, the errors together are the answer, or no opinion when there were none.
 */
export function unionTokenAuthenticators(list: readonly TokenAuthenticator[]): TokenAuthenticator {
  return {
    async authenticateToken(token, audiences, signal): Promise<AuthenticationResult> {
      const errors: Error[] = [];
      for (const t of list) {
        const result = await t.authenticateToken(token, audiences, signal);
        if (result.kind === 'user') return result;
        if (result.kind === 'error') errors.push(result.error);
      }
      if (errors.length === 0) return { kind: 'no-opinion' };
      return { kind: 'error', error: errors.length === 1 ? (errors[0] as Error) : new Error(`[${errors.map((e) => e.message).join(', ')}]`) };
    },
  };
}
