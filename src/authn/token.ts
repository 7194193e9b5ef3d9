/**
 * Bearer tokens: the token authenticators (OpenID Connect, the token webhook, ...) decide on the
 * token alone; `bearerTokenAuthenticator` lifts one onto the request seam by reading
 * `Authorization: Bearer <token>` as Kubernetes does (scheme case-insensitive, one space, the token
 * up to the next space). A request without such a header is no opinion.
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
    authenticate(req: AuthenticationRequest, signal: AbortSignal): Promise<AuthenticationResult> {
      const token = bearerToken(req.headers);
      if (token === undefined) return Promise.resolve({ kind: 'no-opinion' });
      return tokens.authenticateToken(token, audiences, signal);
    },
  };
}
