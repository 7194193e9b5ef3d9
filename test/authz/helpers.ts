/**
 * Identities for authorization tests before the secure port exists: the plain-HTTP caller is
 * system:unsecured in system:masters, which may impersonate anyone, so a request "as alice" is a
 * request with Impersonate-User: alice. What is tested is the rest of the chain as alice.
 */
import type { Reply, TestServer } from '../helpers/server.js';

export const RBAC = 'rbac.authorization.orch.io';
export const RBAC_V1 = `/apis/${RBAC}/v1`;
export const AUTHZ_V1 = '/apis/authorization.orch.io/v1';

export function as(user: string, groups: string[] = []): Record<string, string | string[]> {
  return { 'Impersonate-User': user, ...(groups.length ? { 'Impersonate-Group': groups } : {}) };
}

/** A client that speaks as one user. */
export interface Caller {
  get(path: string): Promise<Reply>;
  post(path: string, body: unknown): Promise<Reply>;
  put(path: string, body: unknown): Promise<Reply>;
  del(path: string): Promise<Reply>;
}

export function caller(s: TestServer, user: string, groups: string[] = []): Caller {
  const headers = as(user, groups);
  return {
    get: (path) => s.request('GET', path, { headers }),
    post: (path, body) => s.request('POST', path, { body, headers }),
    put: (path, body) => s.request('PUT', path, { body, headers }),
    del: (path) => s.request('DELETE', path, { headers }),
  };
}

/** Polls until `check` holds (a grant reaches the authorizer through the watch cache). */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting until ${what}`);
}

export const clusterRole = (name: string, rules: unknown[], labels?: Record<string, string>) => ({ metadata: { name, ...(labels ? { labels } : {}) }, rules });
export const role = (name: string, rules: unknown[]) => ({ metadata: { name }, rules });
export const userSubject = (name: string) => ({ kind: 'User', apiGroup: RBAC, name });
export const groupSubject = (name: string) => ({ kind: 'Group', apiGroup: RBAC, name });
export const clusterRoleBinding = (name: string, roleName: string, subjects: unknown[]) => ({ metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects });
export const roleBinding = (name: string, kind: 'Role' | 'ClusterRole', roleName: string, subjects: unknown[]) => ({ metadata: { name }, roleRef: { apiGroup: RBAC, kind, name: roleName }, subjects });
