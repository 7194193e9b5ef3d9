/** The authentication seam's types and small constructors; see index.ts. */
import type { IncomingHttpHeaders } from 'node:http';
import type { TlsPeer } from '../http/listener.js';
import type { UserInfo } from '../machinery/user-info.js';

/** Kubernetes' well-known user and group names of authentication. */
export const ANONYMOUS_USER = 'system:anonymous';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const ALL_AUTHENTICATED = 'system:authenticated';

/** What an authenticator may look at: the request's headers and what the TLS handshake verified. */
export interface AuthenticationRequest {
  /** Node's headers (names lowercased; repeated values of most headers joined by ", "). */
  readonly headers: IncomingHttpHeaders;
  /** The headers as received, name and value alternating (repeated headers kept apart). */
  readonly rawHeaders?: readonly string[];
  readonly tls?: TlsPeer;
  /**
   * The audiences the credential must be good for: the server's API audiences (`--api-audiences`)
   * on a request, a TokenReview's `spec.audiences` on a review. Absent: any the authenticator
   * accepts (Kubernetes' context without audiences).
   */
  readonly audiences?: readonly string[];
  /** Adds a `Warning` header to the response (a malformed but ignored credential). */
  warn?(message: string): void;
}

export type AuthenticationResult =
  | {
      readonly kind: 'user';
      readonly user: UserInfo;
      /** The audiences the credential was found good for, of those asked; absent when none were asked. */
      readonly audiences?: readonly string[];
    }
  | { readonly kind: 'no-opinion' }
  | { readonly kind: 'error'; readonly error: Error };

export interface Authenticator {
  /**
   * Reads the request's headers and TLS peer; never its body, never mutates it. Safe to retry.
   * Does not throw for a bad credential (that is an `error` result, whose message never contains
   * the credential); throws only when it cannot decide at all (the signal aborted).
   */
  authenticate(req: AuthenticationRequest, signal: AbortSignal): Promise<AuthenticationResult>;
}

/** A bearer token and the audiences it must be good for (see AuthenticationRequest.audiences). */
export interface TokenRequest {
  readonly token: string;
  readonly audiences?: readonly string[];
}

export interface TokenAuthenticator {
  /**
   * The user a bearer token proves. `no-opinion` for a token this method does not know (another
   * may); `error` for one it knows that does not hold. Error messages never contain the token.
   * Safe to retry; throws only when the signal aborted.
   */
  authenticateToken(req: TokenRequest, signal: AbortSignal): Promise<AuthenticationResult>;
}

/** The user of a request that carries no credential, when anonymous requests are allowed. */
export function anonymousUser(): UserInfo {
  return { username: ANONYMOUS_USER, groups: [ALL_UNAUTHENTICATED] };
}

export const NO_OPINION: AuthenticationResult = Object.freeze({ kind: 'no-opinion' });

export function authenticated(user: UserInfo, audiences?: readonly string[]): AuthenticationResult {
  return audiences ? { kind: 'user', user, audiences } : { kind: 'user', user };
}

export function failed(message: string): AuthenticationResult {
  return { kind: 'error', error: new Error(message) };
}
