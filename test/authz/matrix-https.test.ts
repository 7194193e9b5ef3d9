/**
 * The authorization matrix over HTTPS with real authentication: users of each method (the admin's
 * client certificate, a CA-signed certificate with an O group, static tokens, anonymous) × verbs ×
 * scopes (a namespace with grants, another namespace, the cluster, non-resource paths) × the RBAC
 * roles bound to them (edit in a namespace, view across the cluster, a group Role, nothing). Every
 * cell is asserted: allowed (any status but 403), or 403 naming the user as authenticated.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate, type CertificateAndKey } from '../../src/machinery/x509/certificates.js';
import { httpCall, startTestServer, type Target, type TestServer } from '../helpers/server.js';
import { RBAC_V1, clusterRoleBinding, eventually, groupSubject, role, roleBinding, userSubject } from './helpers.js';

let dir: string;
let s: TestServer;
let cara: CertificateAndKey;
const TOKENS = { tina: 'tina-token-0123456789', tom: 'tom-token-0123456789' };

type User = 'admin' | 'tina' | 'tom' | 'cara' | 'anonymous';
const USERS: User[] = ['admin', 'tina', 'tom', 'cara', 'anonymous'];
/** How the server names each user in its messages. */
const NAMES: Record<User, string> = { admin: 'orch-admin', tina: 'tina', tom: 'tom', cara: 'cara', anonymous: 'system:anonymous' };

function target(user: User): { target: Target; headers: Record<string, string> } {
  const ca = s.server.tls!.caPem;
  switch (user) {
    case 'admin':
      return { target: { url: s.url, tls: s.server.tls!.clientOptions }, headers: {} };
    case 'cara':
      return { target: { url: s.url, tls: { ca, cert: cara.certPem, key: cara.keyPem } }, headers: {} };
    case 'tina':
    case 'tom':
      return { target: { url: s.url, tls: { ca } }, headers: { Authorization: `Bearer ${TOKENS[user]}` } };
    case 'anonymous':
      return { target: { url: s.url, tls: { ca } }, headers: {} };
  }
}

interface Cell {
  what: string;
  method: string;
  path: string;
  body?: unknown;
  /** Who is allowed; everyone else gets 403. */
  allowed: User[];
}

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const CELLS: Cell[] = [
  { what: 'list pods in team', method: 'GET', path: '/api/v1/namespaces/team/pods', allowed: ['admin', 'tina', 'cara'] },
  { what: 'list pods in other', method: 'GET', path: '/api/v1/namespaces/other/pods', allowed: ['admin', 'cara'] },
  { what: 'watch configmaps in team', method: 'GET', path: '/api/v1/namespaces/team/configmaps?watch=1&timeoutSeconds=1', allowed: ['admin', 'tina', 'cara'] },
  { what: 'list pods in every namespace', method: 'GET', path: '/api/v1/pods', allowed: ['admin', 'cara'] },
  { what: 'get a secret in team', method: 'GET', path: '/api/v1/namespaces/team/secrets/s1', allowed: ['admin', 'tina', 'cara'] },
  { what: 'get a secret in other', method: 'GET', path: '/api/v1/namespaces/other/secrets/s1', allowed: ['admin'] },
  { what: 'create a configmap in team', method: 'POST', path: '/api/v1/namespaces/team/configmaps?dryRun=All', body: cm('new'), allowed: ['admin', 'tina'] },
  { what: 'update a configmap in team', method: 'PUT', path: '/api/v1/namespaces/team/configmaps/cm1?dryRun=All', body: cm('cm1'), allowed: ['admin', 'tina'] },
  { what: 'delete a configmap in team', method: 'DELETE', path: '/api/v1/namespaces/team/configmaps/cm1?dryRun=All', allowed: ['admin', 'tina'] },
  { what: 'delete configmaps in team', method: 'DELETE', path: '/api/v1/namespaces/team/configmaps?dryRun=All', allowed: ['admin', 'tina'] },
  { what: 'create a configmap in other', method: 'POST', path: '/api/v1/namespaces/other/configmaps?dryRun=All', body: cm('new'), allowed: ['admin'] },
  { what: 'get namespace team', method: 'GET', path: '/api/v1/namespaces/team', allowed: ['admin', 'tina', 'cara'] },
  { what: 'list namespaces', method: 'GET', path: '/api/v1/namespaces', allowed: ['admin', 'cara'] },
  { what: 'list cluster roles', method: 'GET', path: `${RBAC_V1}/clusterroles`, allowed: ['admin'] },
  { what: 'create a role in team', method: 'POST', path: `${RBAC_V1}/namespaces/team/roles?dryRun=All`, body: role('r', []), allowed: ['admin'] },
  { what: 'get /healthz', method: 'GET', path: '/healthz', allowed: USERS },
  { what: 'get /version', method: 'GET', path: '/version', allowed: USERS },
  { what: 'get /apis', method: 'GET', path: '/apis', allowed: ['admin', 'tina', 'tom', 'cara'] },
  { what: 'get /metrics', method: 'GET', path: '/metrics', allowed: ['admin'] },
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-authz-matrix-'));
  writeFileSync(join(dir, 'tokens.csv'), `${TOKENS.tina},tina,1,dev\n${TOKENS.tom},tom,2\n`);
  s = await startTestServer({ tls: true, dataDir: join(dir, 'data'), storageBackend: 'memory', tokenAuthFile: join(dir, 'tokens.csv') });
  const ca = { certPem: readFileSync(join(dir, 'data', 'pki', 'ca.crt'), 'utf8'), keyPem: readFileSync(join(dir, 'data', 'pki', 'ca.key'), 'utf8') };
  cara = await issueCertificate(ca, { commonName: 'cara', organizations: ['auditors'], usage: 'client', validForDays: 1 });
  const setup: [string, unknown][] = [
    ['/api/v1/namespaces', { metadata: { name: 'team' } }],
    ['/api/v1/namespaces', { metadata: { name: 'other' } }],
    ['/api/v1/namespaces/team/configmaps', cm('cm1')],
    ['/api/v1/namespaces/team/secrets', { metadata: { name: 's1' } }],
    ['/api/v1/namespaces/other/secrets', { metadata: { name: 's1' } }],
    // tina (a token) edits in team; cara (a certificate) views everywhere; group auditors reads secrets in team.
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('tina-edits', 'ClusterRole', 'edit', [userSubject('tina')])],
    [`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('cara-views', 'view', [userSubject('cara')])],
    [`${RBAC_V1}/namespaces/team/roles`, role('secret-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }])],
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('auditors-read-secrets', 'Role', 'secret-reader', [groupSubject('auditors')])],
  ];
  for (const [path, body] of setup) {
    const r = await s.post(path, body);
    expect(r.status, `${path}: ${r.text}`).toBe(201);
  }
  const asCara = target('cara');
  await eventually(async () => (await httpCall(asCara.target, 'GET', '/api/v1/namespaces/team/secrets/s1')).status === 200, 'the grants are in effect');
});
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('authorization matrix: users of each authentication method × verbs × scopes', () => {
  const cells = CELLS.flatMap((c) => USERS.map((u) => [c.what, u, c] as const));
  it.each(cells)('%s as %s', async (_what, user, cell) => {
    const { target: t, headers } = target(user);
    const r = await httpCall(t, cell.method, cell.path, { headers, ...(cell.body !== undefined ? { body: cell.body } : {}) });
    if (cell.allowed.includes(user)) {
      expect(r.status, `${cell.what} as ${user}: ${r.text}`).not.toBe(403);
      expect(r.status, r.text).toBeLessThan(400);
    } else {
      expect(r.status, `${cell.what} as ${user}: ${r.text}`).toBe(403);
      expect(r.body.reason).toBe('Forbidden');
      expect(r.body.message).toContain(`User "${NAMES[user]}" cannot `);
    }
  });

  it('an unknown token is 401 whatever it asks, before authorization', async () => {
    const r = await httpCall({ url: s.url, tls: { ca: s.server.tls!.caPem } }, 'GET', '/healthz', { headers: { Authorization: 'Bearer nobody-knows-this' } });
    expect(r.status).toBe(401);
  });

  it('a 403 names the user and scope exactly, for a certificate user and a token user', async () => {
    const c = await httpCall(target('cara').target, 'POST', '/api/v1/namespaces/team/configmaps', { body: cm('x') });
    expect(c.body.message).toBe('configmaps is forbidden: User "cara" cannot create resource "configmaps" in API group "" in the namespace "team"');
    const t = target('tom');
    const r = await httpCall(t.target, 'GET', '/api/v1/namespaces', { headers: t.headers });
    expect(r.body.message).toBe('namespaces is forbidden: User "tom" cannot list resource "namespaces" in API group "" at the cluster scope');
  });

  it('impersonation by a real user needs the impersonate grant, restricted by resourceNames', async () => {
    const t = target('tina');
    const asTom = { ...t.headers, 'Impersonate-User': 'tom' };
    const refused = await httpCall(t.target, 'GET', '/api/v1/namespaces/team/pods', { headers: asTom });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('users "tom" is forbidden: User "tina" cannot impersonate resource "users" in API group "" at the cluster scope');
    expect((await s.post(`${RBAC_V1}/clusterroles`, { metadata: { name: 'impersonate-tom' }, rules: [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['tom'] }] })).status).toBe(201);
    expect((await s.post(`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('tina-as-tom', 'impersonate-tom', [userSubject('tina')]))).status).toBe(201);
    const message = async (): Promise<string> => (await httpCall(t.target, 'GET', '/api/v1/namespaces/team/pods', { headers: asTom })).body.message as string;
    await eventually(async () => (await message()).includes('User "tom" cannot list'), 'tina may act as tom');
    // Now the request runs as tom, who may not list pods in team.
    const asTomNow = await httpCall(t.target, 'GET', '/api/v1/namespaces/team/pods', { headers: asTom });
    expect(asTomNow.body.message).toBe('pods is forbidden: User "tom" cannot list resource "pods" in API group "" in the namespace "team"');
    const asOther = await httpCall(t.target, 'GET', '/api/v1/namespaces/team/pods', { headers: { ...t.headers, 'Impersonate-User': 'cara' } });
    expect(asOther.body.message).toBe('users "cara" is forbidden: User "tina" cannot impersonate resource "users" in API group "" at the cluster scope');
    const withGroup = await httpCall(t.target, 'GET', '/api/v1/namespaces/team/pods', { headers: { ...asTom, 'Impersonate-Group': 'auditors' } });
    expect(withGroup.body.message).toBe('groups "auditors" is forbidden: User "tina" cannot impersonate resource "groups" in API group "" at the cluster scope');
  });
});
