/**
 * Who a plain-HTTP request is. Like Kubernetes' old insecure port, a server that offers plain HTTP
 * (on loopback, for test suites and local use) treats every caller there as the cluster's
 * administrator: user system:unsecured in system:masters, which every authorizer allows.
 */
import type { UserInfo } from '../machinery/user-info.js';
import type { Authenticator } from './index.js';

export const UNSECURED_USER: UserInfo = Object.freeze({ username: 'system:unsecured', groups: Object.freeze(['system:masters', 'system:authenticated']) as string[] });

export function unsecuredAuthenticator(): Authenticator {
  return { authenticate: async () => ({ kind: 'user', user: { username: UNSECURED_USER.username, groups: [...UNSECURED_USER.groups] } }) };
}
