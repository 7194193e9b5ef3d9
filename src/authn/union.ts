/**
 * Unions, as Kubernetes' `union.New`: each authenticator in order; the first that proves a user
 * decides. An error does not stop the search (a client certificate of another CA, then a good
 * bearer token, authenticates); when nobody proves a user, the errors collected are the answer,
 * else there is no opinion.
 */
import type { AuthenticationRequest, AuthenticationResult, Authenticator, TokenAuthenticator, TokenRequest } from './types.js';

/**
 * Several failures as one, with Kubernetes' aggregate text: one message alone, several as
 * `[a, b]` (nested aggregates flattened, repeated messages once).
 */
export class AuthenticationErrors extends Error {
  readonly errors: readonly Error[];
  constructor(errors: readonly Error[]) {
    const flat = errors.flatMap((e) => (e instanceof AuthenticationErrors ? e.errors : [e]));
    const messages = [...new Set(flat.map((e) => e.message))];
    super(messages.length === 1 ? (messages[0] as string) : `[${messages.join(', ')}]`);
    this.name = 'AuthenticationErrors';
    this.errors = flat;
  }
}

async function firstUser(steps: readonly ((signal: AbortSignal) => Promise<AuthenticationResult>)[], signal: AbortSignal): Promise<AuthenticationResult> {
  const errors: Error[] = [];
  for (const step of steps) {
    const result = await step(signal);
    if (result.kind === 'user') return result;
    if (result.kind === 'error') errors.push(result.error);
  }
  if (errors.length === 0) return { kind: 'no-opinion' };
  return { kind: 'error', error: errors.length === 1 ? (errors[0] as Error) : new AuthenticationErrors(errors) };
}

export function unionAuthenticators(authenticators: readonly Authenticator[]): Authenticator {
  return {
    authenticate: (req: AuthenticationRequest, signal) => firstUser(authenticators.map((a) => (s: AbortSignal) => a.authenticate(req, s)), signal),
  };
}

export function unionTokenAuthenticators(authenticators: readonly TokenAuthenticator[]): TokenAuthenticator {
  return {
    authenticateToken: (req: TokenRequest, signal) => firstUser(authenticators.map((a) => (s: AbortSignal) => a.authenticateToken(req, s)), signal),
  };
}
