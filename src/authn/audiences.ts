/**
 * Audiences, as Kubernetes handles them. A credential that names no audience of its own (a client
 * certificate, a static token, a proxy's headers) is good for the API server alone: asked for
 * audiences, such an authenticator answers only when they include one of the server's API
 * audiences, and then says the credential was good for those (Kubernetes'
 * WrapAudienceAgnosticRequest/Token). Methods whose credentials carry audiences (service-account
 * tokens, webhooks) check them themselves and are not wrapped.
 */
import { NO_OPINION, type AuthenticationResult, type Authenticator, type TokenAuthenticator } from './types.js';

export function intersectAudiences(a: readonly string[], b: readonly string[]): string[] {
  const set = new Set(b);
  return a.filter((x) => set.has(x));
}

/** Kubernetes' audiencesAreAcceptable: nothing asked or nothing said, or at least one in common. */
export function audiencesAreAcceptable(apiAudiences: readonly string[], responseAudiences: readonly string[] | undefined): boolean {
  if (apiAudiences.length === 0 || !responseAudiences || responseAudiences.length === 0) return true;
  return intersectAudiences(apiAudiences, responseAudiences).length > 0;
}

async function agnostic(apiAudiences: readonly string[], asked: readonly string[] | undefined, run: () => Promise<AuthenticationResult>): Promise<AuthenticationResult> {
  if (asked === undefined) return run();
  const audiences = intersectAudiences(apiAudiences, asked);
  if (audiences.length === 0) return NO_OPINION;
  const result = await run();
  if (result.kind !== 'user') return result;
  if (result.audiences && result.audiences.length > 0) {
    // A wrapped authenticator must not name audiences: that would be a wiring mistake, never a client's.
    return { kind: 'error', error: new Error(`audience agnostic authenticator wrapped an authenticator that returned audiences: ${JSON.stringify(result.audiences)}`) };
  }
  return { ...result, audiences };
}

export function audienceAgnostic(apiAudiences: readonly string[], inner: Authenticator): Authenticator {
  return { authenticate: (req, signal) => agnostic(apiAudiences, req.audiences, () => inner.authenticate(req, signal)) };
}

export function audienceAgnosticToken(apiAudiences: readonly string[], inner: TokenAuthenticator): TokenAuthenticator {
  return { authenticateToken: (req, signal) => agnostic(apiAudiences, req.audiences, () => inner.authenticateToken(req, signal)) };
}
