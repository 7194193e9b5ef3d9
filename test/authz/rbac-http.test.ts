/**
 * RBAC through the whole chain on a real server: 403s in Kubernetes' words, grants taking effect
 * through the listers without a restart, resourceNames with field selectors, bad bindings reported
 * and granting nothing, the default policy for anonymous and authenticated users.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { RBAC, RBAC_V1, caller, clusterRole, clusterRoleBinding, eventually, groupSubject, role, roleBinding, userSubject } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  for (const ns of ['team', 'other']) expect((await s.post('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  for (const name of ['cm1', 'cm2']) expect((await s.post('/api/v1/namespaces/team/configmaps', { metadata: { name } })).status).toBe(201);
});
afterAll(() => s.close());

describe('RBAC over HTTP', () => {
  it('refuses a user without grants with 403 in Kubernetes words, for each scope', async () => {
    const alice = caller(s, 'alice');
    const cases: [Promise<import('../helpers/server.js').Reply>, string, Record<string, unknown> | undefined][] = [
      [alice.get('/api/v1/namespaces/default/pods'), 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"', { kind: 'pods' }],
      [alice.get('/api/v1/namespaces/team/configmaps/cm1'), 'configmaps "cm1" is forbidden: User "alice" cannot get resource "configmaps" in API group "" in the namespace "team"', { kind: 'configmaps', name: 'cm1' }],
      [alice.get('/api/v1/nodes'), 'nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope', { kind: 'nodes' }],
      [alice.post('/apis/apps/v1/namespaces/team/deployments', {}), 'deployments.apps is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "team"', { kind: 'deployments', group: 'apps' }],
      [alice.get(`${RBAC_V1}/clusterroles/admin`), `clusterroles.${RBAC} "admin" is forbidden: User "alice" cannot get resource "clusterroles" in API group "${RBAC}" at the cluster scope`, { kind: 'clusterroles', group: RBAC, name: 'admin' }],
      [alice.del('/api/v1/namespaces/team/configmaps'), 'configmaps is forbidden: User "alice" cannot deletecollection resource "configmaps" in API group "" in the namespace "team"', { kind: 'configmaps' }],
      [alice.get('/api/v1/namespaces/team/configmaps?watch=1'), 'configmaps is forbidden: User "alice" cannot watch resource "configmaps" in API group "" in the namespace "team"', { kind: 'configmaps' }],
      [alice.get('/metrics'), 'forbidden: User "alice" cannot get path "/metrics"', undefined],
    ];
    for (const [reply, message, details] of cases) {
      const r = await reply;
      expect(r.status, r.text).toBe(403);
      expect(r.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', ...(details ? { details } : {}), code: 403 });
    }
  });

  it('lets every authenticated user discover and read health and version (the default policy)', async () => {
    const alice = caller(s, 'alice');
    for (const path of ['/api', '/apis', '/api/v1', '/version', '/healthz', '/livez', '/readyz', '/openapi/v2']) expect((await alice.get(path)).status, path).toBe(200);
    expect((await alice.post('/apis/authorization.orch.io/v1/selfsubjectaccessreviews', { spec: { nonResourceAttributes: { path: '/version', verb: 'get' } } })).status).toBe(201);
  });

  it('gives anonymous callers health, version and the public cluster-info, and nothing else', async () => {
    const anon = caller(s, 'system:anonymous');
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) expect((await anon.get(path)).status, path).toBe(200);
    expect((await s.post('/api/v1/namespaces/orch-public/configmaps', { metadata: { name: 'cluster-info' }, data: { kubeconfig: 'x' } })).status).toBe(201);
    expect((await anon.get('/api/v1/namespaces/orch-public/configmaps/cluster-info')).status).toBe(200);
    expect((await anon.get('/api/v1/namespaces/orch-public/configmaps')).status).toBe(403);
    expect((await anon.get('/api')).status).toBe(403);
    const write = await anon.post('/api/v1/namespaces/orch-public/configmaps', { metadata: { name: 'mine' } });
    expect(write.status).toBe(403);
    expect(write.body.message).toBe('configmaps is forbidden: User "system:anonymous" cannot create resource "configmaps" in API group "" in the namespace "orch-public"');
  });

  it('takes a new RoleBinding into account within a second, in its namespace only, and forgets it when deleted', async () => {
    const bob = caller(s, 'bob');
    expect((await s.post(`${RBAC_V1}/namespaces/team/roles`, role('cm-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'] }]))).status).toBe(201);
    expect((await s.post(`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('bob-reads', 'Role', 'cm-reader', [userSubject('bob')]))).status).toBe(201);
    await eventually(async () => (await bob.get('/api/v1/namespaces/team/configmaps')).status === 200, 'bob may list configmaps in team');
    expect((await bob.get('/api/v1/namespaces/team/configmaps/cm1')).status).toBe(200);
    expect((await bob.get('/api/v1/namespaces/other/configmaps')).status).toBe(403);
    expect((await bob.get('/api/v1/configmaps')).status).toBe(403);
    expect((await bob.del('/api/v1/namespaces/team/configmaps/cm1')).status).toBe(403);
    expect((await s.del(`${RBAC_V1}/namespaces/team/rolebindings/bob-reads`)).status).toBe(200);
    await eventually(async () => (await bob.get('/api/v1/namespaces/team/configmaps')).status === 403, 'bob is refused again');
  });

  it('grants through a ClusterRoleBinding to a group, in every namespace and at the cluster scope', async () => {
    expect((await s.post(`${RBAC_V1}/clusterroles`, clusterRole('ns-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['namespaces', 'configmaps'] }]))).status).toBe(201);
    expect((await s.post(`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('readers-read', 'ns-reader', [groupSubject('readers')]))).status).toBe(201);
    const carol = caller(s, 'carol', ['readers']);
    await eventually(async () => (await carol.get('/api/v1/namespaces')).status === 200, 'carol may list namespaces');
    expect((await carol.get('/api/v1/configmaps')).status).toBe(200);
    expect((await carol.get('/api/v1/namespaces/other/configmaps')).status).toBe(200);
    expect((await caller(s, 'carol').get('/api/v1/namespaces')).status).toBe(403);
  });

  it('limits a grant to resourceNames; a list or watch narrowed by a metadata.name field selector is allowed', async () => {
    expect((await s.post(`${RBAC_V1}/namespaces/team/roles`, role('cm1-only', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps', 'secrets'], resourceNames: ['cm1'] }]))).status).toBe(201);
    expect((await s.post(`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('dave-cm1', 'Role', 'cm1-only', [userSubject('dave')]))).status).toBe(201);
    const dave = caller(s, 'dave');
    await eventually(async () => (await dave.get('/api/v1/namespaces/team/configmaps/cm1')).status === 200, 'dave may get cm1');
    expect((await dave.get('/api/v1/namespaces/team/configmaps/cm2')).status).toBe(403);
    expect((await dave.get('/api/v1/namespaces/team/configmaps')).status).toBe(403);
    const narrowed = await dave.get('/api/v1/namespaces/team/configmaps?fieldSelector=metadata.name%3Dcm1');
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.items.map((i: any) => i.metadata.name)).toEqual(['cm1']);
    expect((await dave.get('/api/v1/namespaces/team/configmaps?fieldSelector=metadata.name%3Dcm2')).status).toBe(403);
    const w = await s.watch('/api/v1/namespaces/team/configmaps?watch=1&fieldSelector=metadata.name%3Dcm1', { 'Impersonate-User': 'dave' });
    expect(w.status).toBe(200);
    w.close();
  });

  it('reports a binding whose role is missing in the 403, and grants nothing from it', async () => {
    expect((await s.post(`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('erin-dangling', 'no-such-role', [userSubject('erin')]))).status).toBe(201);
    const erin = caller(s, 'erin');
    await eventually(async () => ((await erin.get('/api/v1/namespaces/team/pods')).body?.message ?? '').includes('RBAC'), 'the missing role is reported');
    const r = await erin.get('/api/v1/namespaces/team/pods');
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(`pods is forbidden: User "erin" cannot list resource "pods" in API group "" in the namespace "team": RBAC: clusterrole.${RBAC} "no-such-role" not found`);
  });

  it('reports a User subject with a namespace, and grants nothing from it', async () => {
    expect((await s.post(`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('frank-namespaced', 'ns-reader', [{ ...userSubject('frank'), namespace: 'team' }]))).status).toBe(201);
    const frank = caller(s, 'frank');
    await eventually(async () => ((await frank.get('/api/v1/namespaces')).body?.message ?? '').includes('RBAC'), 'the subject is reported');
    const r = await frank.get('/api/v1/namespaces');
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('namespaces is forbidden: User "frank" cannot list resource "namespaces" in API group "" at the cluster scope: RBAC: ClusterRoleBinding "frank-namespaced": subject User "frank" has namespace "team", but User subjects are not namespaced');
  });

  it('keeps aggregated default roles up to date as labelled roles come and go', async () => {
    const label = `${RBAC}/aggregate-to-view`;
    const widgets = { verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] };
    expect((await s.post(`${RBAC_V1}/clusterroles`, clusterRole('widget-viewer', [widgets], { [label]: 'true' }))).status).toBe(201);
    const hasWidgets = async (name: string) => ((await s.get(`${RBAC_V1}/clusterroles/${name}`)).body.rules as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify(widgets));
    await eventually(() => hasWidgets('view'), 'view gains the widget rule');
    expect(await hasWidgets('admin')).toBe(false);
    const got = (await s.get(`${RBAC_V1}/clusterroles/widget-viewer`)).body;
    expect((await s.put(`${RBAC_V1}/clusterroles/widget-viewer`, { ...got, metadata: { ...got.metadata, labels: {} } })).status).toBe(200);
    await eventually(async () => !(await hasWidgets('view')), 'view loses the widget rule');
  });

  it('creates the default policy with the autoupdate annotation, in the server domain', async () => {
    const admin = (await s.get(`${RBAC_V1}/clusterroles/cluster-admin`)).body;
    expect(admin.metadata.annotations).toEqual({ [`${RBAC}/autoupdate`]: 'true' });
    expect(admin.metadata.labels).toEqual({ 'orch.io/bootstrapping': 'rbac-defaults' });
    expect(admin.rules).toEqual([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }]);
    const binding = (await s.get(`${RBAC_V1}/clusterrolebindings/cluster-admin`)).body;
    expect(binding.subjects).toEqual([{ kind: 'Group', apiGroup: RBAC, name: 'system:masters' }]);
    const names = ((await s.get(`${RBAC_V1}/clusterroles`)).body.items as any[]).map((i) => i.metadata.name);
    for (const n of ['admin', 'edit', 'view', 'system:basic-user', 'system:discovery', 'system:public-info-viewer', 'system:node-bootstrapper', 'system:certificates.orch.io:certificatesigningrequests:nodeclient', 'system:controller:namespace-controller']) {
      expect(names).toContain(n);
    }
    const edit = (await s.get(`${RBAC_V1}/clusterroles/edit`)).body;
    expect(edit.rules).toContainEqual({ verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'], apiGroups: ['apps'], resources: ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'] });
  });

  it('the edit role lets its holder work in a namespace, and not read roles', async () => {
    expect((await s.post(`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('gina-edits', 'ClusterRole', 'edit', [userSubject('gina')]))).status).toBe(201);
    const gina = caller(s, 'gina');
    await eventually(async () => (await gina.get('/api/v1/namespaces/team/configmaps')).status === 200, 'gina may list configmaps');
    expect((await gina.post('/api/v1/namespaces/team/configmaps', { metadata: { name: 'ginas' } })).status).toBe(201);
    expect((await gina.post('/apis/apps/v1/namespaces/team/deployments', { metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } })).status).toBe(201);
    expect((await gina.get(`${RBAC_V1}/namespaces/team/roles`)).status).toBe(403);
    expect((await gina.get('/api/v1/namespaces/other/configmaps')).status).toBe(403);
  });
});
