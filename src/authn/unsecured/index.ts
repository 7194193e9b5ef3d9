/**
 * The explicit plain-HTTP test mode (`plainHttp`, `--insecure-plain-http`) serves every request
 * as Kubernetes' old insecure port did: as user `system:unsecured` in `system:masters` and
 * `system:authenticated`, whatever credentials it carries. Only ever on loopback.
 */
import type { UserInfo } from '../../machinery/user-info.js';
import type { Authenticator } from '../types.js';

export const UNSECURED_USER = 'system:unsecured';

export function unsecuredUser(): UserInfo {
  return { username: UNSECURED_USER, groups: ['system:masters', 'system:authenticated'] };
}

export function insecureSuperuser(): Authenticator {
  return { authenticate: async () => ({ kind: 'user', user: unsecuredUser() }) };
}
