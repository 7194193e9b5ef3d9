/**
 * Every authenticated user is also in `system:authenticated` (Kubernetes' AuthenticatedGroupAdder):
 * added unless the user is system:anonymous or already in system:authenticated or
 * system:unauthenticated. Returns a new user; the authenticator's answer is not mutated.
 */
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS_USER, type Authenticator } from './types.js';

export function withAuthenticatedGroup(inner: Authenticator): Authenticator {
  return {
    async authenticate(req, signal) {
      const result = await inner.authenticate(req, signal);
      if (result.kind !== 'user') return result;
      const { user } = result;
      if (user.username === ANONYMOUS_USER || user.groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED)) return result;
      return { ...result, user: { ...user, groups: [...user.groups, ALL_AUTHENTICATED] } };
    },
  };
}
