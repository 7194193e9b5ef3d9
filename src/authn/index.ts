/**
 * The authentication seam: an Authenticator looks at a request's credentials and answers with the
 * user they prove, with no opinion (no credential it knows), or with an error (a credential it
 * knows that does not hold: forged, expired, revoked). The union of several tries each in turn;
 * the first that recognises the credential decides.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { TlsPeer } from '../http/listener.js';
import type { UserInfo } from '../machinery/user-info.js';

/** What an authenticator may look at: the request's headers and what the TLS handshake verified. */
export interface AuthenticationRequest {
  readonly headers: IncomingHttpHeaders;
  readonly tls?: TlsPeer;
}

export type AuthenticationResult =
  | { readonly kind: 'user'; readonly user: UserInfo; readonly audiences?: readonly string[] }
  | { readonly kind: 'no-opinion' }
  | { readonly kind: 'error'; readonly error: Error };

export interface Authenticator {
  /**
   * Reads the request's headers and TLS peer; never its body, never mutates it. Safe to retry.
   * Does not throw for a bad credential (that is an `error` result); throws only when it cannot
   * decide at all (the signal aborted).
   */
  authenticate(req: AuthenticationRequest, signal: AbortSignal): Promise<AuthenticationResult>;
}

/** The user of a request that carries no credential, when anonymous requests are allowed. */
export function anonymousUser(): UserInfo {
  return { username: 'system:anonymous', groups: ['system:unauthenticated'] };
}
