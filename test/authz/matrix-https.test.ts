/**
 * The authorization matrix over HTTPS with real authentication: a caller of every authentication
 * method the server supports (matrix-identities.ts) × verbs (get, list, watch, create, update by
 * patch, delete, deletecollection, non-resource gets) × scopes (a namespace, another namespace,
 * every namespace, the cluster, a subresource, non-resource paths; service accounts in their own
 * namespace and another) × the RBAC roles bound to them (edit, view, admin and custom roles, through
 * User, Group and ServiceAccount subjects, RoleBindings and ClusterRoleBindings; the default policy
 * alone). Every cell is asserted: allowed (a 2xx), or 403 whose message names the user as
 * authenticated, which also proves each credential was accepted (never 401).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall, openWatch, type Reply, type TestServer } from '../helpers/server.js';
import { csrDryRunBody } from '../helpers/whoami.js';
import { RBAC, RBAC_V1, clusterRole, clusterRoleBinding, eventually, groupSubject, role, roleBinding, userSubject } from './helpers.js';
import { HOW, METHODS, startMatrixWorld, type MatrixWorld, type Method } from './matrix-identities.js';

/**
 * The grants, one line each (the rest is Kubernetes' default policy, which every caller has too):
 *   tina      RoleBinding team/tina-edits            ClusterRole edit   → User tina
 *   cara      ClusterRoleBinding cara-views          ClusterRole view   → User cara
 *             RoleBinding team/auditors-read-secrets Role secret-reader → Group auditors (her O)
 *   robot     RoleBinding team/robot-views           ClusterRole view   → ServiceAccount robot (of team, by default)
 *   deployer  RoleBinding other/other-sas-edit       ClusterRole edit   → Group system:serviceaccounts:other
 *   boot      nothing beyond the default policy (system:node-bootstrapper: CertificateSigningRequests)
 *   oidc      ClusterRoleBinding oidc-dev-pods       ClusterRole pod-reader (get, list, watch pods) → Group oidc:dev
 *   hooked    RoleBinding team/corp-admins           ClusterRole admin  → Group corp:dev
 *   proxied   ClusterRoleBinding proxy-ops           ClusterRole proxy-ops (list nodes and namespaces, get /metrics) → Group proxy-ops
 *   ivy       RoleBinding other/ivy-views            ClusterRole view   → User ivy; tom may impersonate ivy (resourceNames)
 *   tom, anonymous: the default policy only
 */
async function grant(s: TestServer): Promise<void> {
  const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  const sa = (name: string) => ({ kind: 'ServiceAccount', name });
  const setup: [string, unknown][] = [
    ['/api/v1/namespaces', { metadata: { name: 'team' } }],
    ['/api/v1/namespaces', { metadata: { name: 'other' } }],
    ['/api/v1/namespaces/team/configmaps', cm('cm1')],
    ['/api/v1/namespaces/other/configmaps', cm('cm1')],
    ['/api/v1/namespaces/team/secrets', { metadata: { name: 's1' } }],
    ['/api/v1/namespaces/other/secrets', { metadata: { name: 's1' } }],
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('tina-edits', 'ClusterRole', 'edit', [userSubject('tina')])],
    [`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('cara-views', 'view', [userSubject('cara')])],
    [`${RBAC_V1}/namespaces/team/roles`, role('secret-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }])],
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('auditors-read-secrets', 'Role', 'secret-reader', [groupSubject('auditors')])],
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('robot-views', 'ClusterRole', 'view', [sa('robot')])],
    [`${RBAC_V1}/namespaces/other/rolebindings`, roleBinding('other-sas-edit', 'ClusterRole', 'edit', [groupSubject('system:serviceaccounts:other')])],
    [`${RBAC_V1}/clusterroles`, clusterRole('pod-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }])],
    [`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('oidc-dev-pods', 'pod-reader', [groupSubject('oidc:dev')])],
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('corp-admins', 'ClusterRole', 'admin', [groupSubject('corp:dev')])],
    [`${RBAC_V1}/clusterroles`, clusterRole('proxy-ops', [{ verbs: ['list'], apiGroups: [''], resources: ['nodes', 'namespaces'] }, { verbs: ['get'], nonResourceURLs: ['/metrics'] }])],
    [`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('proxy-ops', 'proxy-ops', [groupSubject('proxy-ops')])],
    [`${RBAC_V1}/namespaces/other/rolebindings`, roleBinding('ivy-views', 'ClusterRole', 'view', [userSubject('ivy')])],
    [`${RBAC_V1}/clusterroles`, clusterRole('impersonate-ivy', [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['ivy'] }])],
    [`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('tom-as-ivy', 'impersonate-ivy', [userSubject('tom')])],
  ];
  for (const [path, body] of setup) {
    const r = await s.post(path, body);
    if (r.status !== 201) throw new Error(`${path}: ${r.status} ${r.text}`);
  }
}

interface Cell {
  what: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  contentType?: string;
  /** Opened as a watch stream: allowed means the stream starts (200). */
  watch?: true;
  /** Who is allowed; every other caller gets 403. */
  allowed: readonly Method[];
}

const EVERYONE = METHODS;
const AUTHENTICATED = METHODS.filter((m) => m !== 'anonymous');
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const DRY = '?dryRun=All';

const CELLS: Cell[] = [
  // namespaced reads: the namespace with grants, another namespace, every namespace
  { what: 'list pods in team', method: 'GET', path: '/api/v1/namespaces/team/pods', allowed: ['admin', 'cara', 'tina', 'robot', 'oidc', 'hooked'] },
  { what: 'list pods in other', method: 'GET', path: '/api/v1/namespaces/other/pods', allowed: ['admin', 'cara', 'deployer', 'oidc', 'ivy'] },
  { what: 'list pods in every namespace', method: 'GET', path: '/api/v1/pods', allowed: ['admin', 'cara', 'oidc'] },
  { what: 'watch configmaps in team', method: 'GET', path: '/api/v1/namespaces/team/configmaps?watch=1', watch: true, allowed: ['admin', 'cara', 'tina', 'robot', 'hooked'] },
  { what: 'watch configmaps in other', method: 'GET', path: '/api/v1/namespaces/other/configmaps?watch=1', watch: true, allowed: ['admin', 'cara', 'deployer', 'ivy'] },
  { what: 'get a configmap in team', method: 'GET', path: '/api/v1/namespaces/team/configmaps/cm1', allowed: ['admin', 'cara', 'tina', 'robot', 'hooked'] },
  { what: 'get a secret in team', method: 'GET', path: '/api/v1/namespaces/team/secrets/s1', allowed: ['admin', 'cara', 'tina', 'hooked'] },
  { what: 'get a secret in other', method: 'GET', path: '/api/v1/namespaces/other/secrets/s1', allowed: ['admin', 'deployer'] },
  // namespaced writes (dry run: nothing changes, the check is the same)
  { what: 'create a configmap in team', method: 'POST', path: `/api/v1/namespaces/team/configmaps${DRY}`, body: cm('new'), allowed: ['admin', 'tina', 'hooked'] },
  { what: 'patch a configmap in team', method: 'PATCH', path: `/api/v1/namespaces/team/configmaps/cm1${DRY}`, body: { data: { k: 'v' } }, contentType: 'application/merge-patch+json', allowed: ['admin', 'tina', 'hooked'] },
  { what: 'delete a configmap in team', method: 'DELETE', path: `/api/v1/namespaces/team/configmaps/cm1${DRY}`, allowed: ['admin', 'tina', 'hooked'] },
  { what: 'create a configmap in other', method: 'POST', path: `/api/v1/namespaces/other/configmaps${DRY}`, body: cm('new'), allowed: ['admin', 'deployer'] },
  { what: 'delete configmaps in other (collection)', method: 'DELETE', path: `/api/v1/namespaces/other/configmaps${DRY}`, allowed: ['admin', 'deployer'] },
  { what: 'create a role in team', method: 'POST', path: `${RBAC_V1}/namespaces/team/roles${DRY}`, body: role('r', []), allowed: ['admin', 'hooked'] },
  // a namespace object is checked in its own namespace, so namespace grants reach it
  { what: 'get namespace team', method: 'GET', path: '/api/v1/namespaces/team', allowed: ['admin', 'cara', 'tina', 'robot', 'hooked'] },
  { what: 'get namespace team/status (subresource)', method: 'GET', path: '/api/v1/namespaces/team/status', allowed: ['admin', 'cara', 'tina', 'robot', 'hooked'] },
  // cluster scope
  { what: 'list namespaces', method: 'GET', path: '/api/v1/namespaces', allowed: ['admin', 'cara', 'proxied'] },
  { what: 'list nodes', method: 'GET', path: '/api/v1/nodes', allowed: ['admin', 'proxied'] },
  { what: 'list cluster roles', method: 'GET', path: `${RBAC_V1}/clusterroles`, allowed: ['admin'] },
  { what: 'create a CertificateSigningRequest', method: 'POST', path: `/apis/certificates.orch.io/v1/certificatesigningrequests${DRY}`, body: csrDryRunBody(), allowed: ['admin', 'boot'] },
  { what: 'create a SelfSubjectAccessReview', method: 'POST', path: '/apis/authorization.orch.io/v1/selfsubjectaccessreviews', body: { spec: { nonResourceAttributes: { path: '/version', verb: 'get' } } }, allowed: AUTHENTICATED },
  // non-resource paths
  { what: 'get /healthz', method: 'GET', path: '/healthz', allowed: EVERYONE },
  { what: 'get /version', method: 'GET', path: '/version', allowed: EVERYONE },
  { what: 'get /apis', method: 'GET', path: '/apis', allowed: AUTHENTICATED },
  { what: 'get /metrics', method: 'GET', path: '/metrics', allowed: ['admin', 'proxied'] },
  { what: 'get /.well-known/openid-configuration', method: 'GET', path: '/.well-known/openid-configuration', allowed: ['admin', 'robot', 'deployer'] },
];

let world: MatrixWorld;

/** The reply to one cell; a watch is opened and closed as soon as its status is known. */
async function perform(who: Method, cell: Cell): Promise<Reply> {
  const caller = world.callers[who];
  if (cell.watch) {
    const w = await openWatch(caller.target, cell.path, caller.headers);
    w.close();
    if (w.status === 200) return { status: 200, headers: w.headers, text: '', body: undefined };
  }
  return caller.call(cell.method, cell.path, cell.body, cell.contentType);
}

beforeAll(async () => {
  world = await startMatrixWorld(grant);
  // Grants and tokens reach the authenticators and RBAC through the watch cache: wait until each
  // caller's first cell of its own (not one everyone has) is allowed.
  for (const who of METHODS) {
    const own = CELLS.find((c) => c.allowed.includes(who) && c.allowed.length < AUTHENTICATED.length && !c.watch) ?? CELLS.find((c) => c.allowed.includes(who))!;
    await eventually(async () => (await perform(who, own)).status < 400, `${who} (${HOW[who]}) may ${own.what}`);
  }
}, 60_000);
afterAll(async () => {
  await world?.close();
});

describe('authorization matrix: users of each authentication method × verbs × scopes × RBAC roles', () => {
  const cells = CELLS.flatMap((c) => METHODS.map((who) => [c.what, who, HOW[who], c] as const));
  it.each(cells)('%s as %s (%s)', async (_what, who, _how, cell) => {
    const r = await perform(who, cell);
    if (cell.allowed.includes(who)) {
      expect(r.status, `${cell.what} as ${who}: ${r.text}`).toBeGreaterThanOrEqual(200);
      expect(r.status, `${cell.what} as ${who}: ${r.text}`).toBeLessThan(300);
    } else {
      expect(r.status, `${cell.what} as ${who}: ${r.text}`).toBe(403);
      expect(r.body.reason).toBe('Forbidden');
      expect(r.body.message).toContain(`User "${world.callers[who].username}" cannot `);
    }
  });

  it('covers every method, and no caller is allowed or refused everything but the administrator', () => {
    for (const who of METHODS) {
      const allowed = CELLS.filter((c) => c.allowed.includes(who)).length;
      expect(allowed, who).toBeGreaterThan(0);
      if (who !== 'admin') expect(allowed, who).toBeLessThan(CELLS.length);
    }
  });

  it('an unknown token is 401 whatever it asks, before authorization', async () => {
    const r = await httpCall({ url: world.server.url, tls: { ca: world.server.tls!.ca as string } }, 'GET', '/healthz', { headers: { Authorization: 'Bearer nobody-knows-this' } });
    expect(r.status).toBe(401);
  });

  it("a 403 names the user and scope exactly, whatever the method (Kubernetes' words)", async () => {
    const cases: [Method, Cell['method'], string, unknown, string][] = [
      ['cara', 'POST', '/api/v1/namespaces/team/configmaps', cm('x'), 'configmaps is forbidden: User "cara" cannot create resource "configmaps" in API group "" in the namespace "team"'],
      ['tom', 'GET', '/api/v1/namespaces', undefined, 'namespaces is forbidden: User "tom" cannot list resource "namespaces" in API group "" at the cluster scope'],
      ['robot', 'GET', '/api/v1/namespaces/other/secrets/s1', undefined, 'secrets "s1" is forbidden: User "system:serviceaccount:team:robot" cannot get resource "secrets" in API group "" in the namespace "other"'],
      ['boot', 'GET', '/metrics', undefined, 'forbidden: User "system:bootstrap:abcdef" cannot get path "/metrics"'],
      ['hooked', 'GET', `${RBAC_V1}/clusterroles/admin`, undefined, `clusterroles.${RBAC} "admin" is forbidden: User "jane@corp" cannot get resource "clusterroles" in API group "${RBAC}" at the cluster scope`],
      ['anonymous', 'GET', '/api/v1/namespaces/team/status', undefined, 'namespaces "team" is forbidden: User "system:anonymous" cannot get resource "namespaces/status" in API group "" in the namespace "team"'],
    ];
    for (const [who, method, path, body, message] of cases) {
      const r = await world.callers[who].call(method, path, body);
      expect(r.status, r.text).toBe(403);
      expect(r.body.message).toBe(message);
    }
    const oidc = await world.callers.oidc.call('GET', '/api/v1/namespaces');
    expect(oidc.body.message).toBe(`namespaces is forbidden: User "${world.callers.oidc.username}" cannot list resource "namespaces" in API group "" at the cluster scope`);
  });

  it('impersonation by a real user needs the impersonate grant, restricted by resourceNames', async () => {
    const tina = world.callers.tina;
    const s = world.server;
    const as = (user: string, extra: Record<string, string> = {}) => httpCall(tina.target, 'GET', '/api/v1/namespaces/team/pods', { headers: { ...tina.headers, 'Impersonate-User': user, ...extra } });
    const refused = await as('tom');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('users "tom" is forbidden: User "tina" cannot impersonate resource "users" in API group "" at the cluster scope');
    expect((await s.post(`${RBAC_V1}/clusterroles`, { metadata: { name: 'impersonate-tom' }, rules: [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['tom'] }] })).status).toBe(201);
    expect((await s.post(`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('tina-as-tom', 'impersonate-tom', [userSubject('tina')]))).status).toBe(201);
    await eventually(async () => ((await as('tom')).body.message as string).includes('User "tom" cannot list'), 'tina may act as tom');
    // Now the request runs as tom, who may not list pods in team.
    expect((await as('tom')).body.message).toBe('pods is forbidden: User "tom" cannot list resource "pods" in API group "" in the namespace "team"');
    expect((await as('cara')).body.message).toBe('users "cara" is forbidden: User "tina" cannot impersonate resource "users" in API group "" at the cluster scope');
    expect((await as('tom', { 'Impersonate-Group': 'auditors' })).body.message).toBe('groups "auditors" is forbidden: User "tina" cannot impersonate resource "groups" in API group "" at the cluster scope');
  });
});
