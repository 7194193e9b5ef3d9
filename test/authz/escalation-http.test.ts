/**
 * The role-escalation matrix: who may create which role and binding. A user may grant only rules
 * they hold (in the namespace of the write), unless they have `escalate` on roles or `bind` on the
 * role granted; system:masters may grant anything. Each cell is asserted with its status and, for
 * refusals, Kubernetes' message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';
import { RBAC, RBAC_V1, caller, clusterRole, clusterRoleBinding, eventually, role, roleBinding, userSubject } from './helpers.js';

let s: TestServer;

type Op = 'role-held' | 'role-nodes' | 'binding-view' | 'binding-cluster-admin' | 'clusterrole-held' | 'clusterrolebinding-view' | 'clusterrole-aggregating';
const OPS: Op[] = ['role-held', 'role-nodes', 'binding-view', 'binding-cluster-admin', 'clusterrole-held', 'clusterrolebinding-view', 'clusterrole-aggregating'];

function perform(user: string, op: Op): Promise<Reply> {
  const c = user === 'system:unsecured' ? { post: (p: string, b: unknown) => s.post(p, b) } : caller(s, user);
  const name = `${op}-${user.replace(/[^a-z-]/g, '-')}`;
  switch (op) {
    case 'role-held':
      return c.post(`${RBAC_V1}/namespaces/team/roles`, role(name, [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]));
    case 'role-nodes':
      return c.post(`${RBAC_V1}/namespaces/team/roles`, role(name, [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }]));
    case 'binding-view':
      return c.post(`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding(name, 'ClusterRole', 'view', [userSubject('someone')]));
    case 'binding-cluster-admin':
      return c.post(`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding(name, 'ClusterRole', 'cluster-admin', [userSubject('someone')]));
    case 'clusterrole-held':
      return c.post(`${RBAC_V1}/clusterroles`, clusterRole(name, [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]));
    case 'clusterrolebinding-view':
      return c.post(`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding(name, 'view', [userSubject('someone')]));
    case 'clusterrole-aggregating':
      return c.post(`${RBAC_V1}/clusterroles`, { metadata: { name }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } });
  }
}

const notHeld = (user: string, kind: string, name: string, lines: string[]) =>
  `${kind}.${RBAC} "${name}" is forbidden: user "${user}" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
const cannot = (user: string, verb: string, resource: string, scope: string) => `${resource}.${RBAC} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${RBAC}" ${scope}`;
const inTeam = 'in the namespace "team"';
const cluster = 'at the cluster scope';

/** Expected outcome per user and operation: 201, or the 403 message. */
const MATRIX: Record<string, Record<Op, 201 | string | { startsWith: string }>> = {
  'system:unsecured': Object.fromEntries(OPS.map((o) => [o, 201])) as Record<Op, 201>,
  // admin in team: may write roles and bindings there, and grant what admin holds.
  'ns-admin': {
    'role-held': 201,
    'role-nodes': notHeld('ns-admin', 'roles', 'role-nodes-ns-admin', ['{APIGroups:[""], Resources:["nodes"], Verbs:["get"]}']),
    'binding-view': 201,
    'binding-cluster-admin': notHeld('ns-admin', 'rolebindings', 'binding-cluster-admin-ns-admin', ['{APIGroups:["*"], Resources:["*"], Verbs:["*"]}', '{NonResourceURLs:["*"], Verbs:["*"]}']),
    'clusterrole-held': cannot('ns-admin', 'create', 'clusterroles', cluster),
    'clusterrolebinding-view': cannot('ns-admin', 'create', 'clusterrolebindings', cluster),
    'clusterrole-aggregating': cannot('ns-admin', 'create', 'clusterroles', cluster),
  },
  // edit in team: no writes of roles or bindings at all.
  editor: {
    'role-held': cannot('editor', 'create', 'roles', inTeam),
    'role-nodes': cannot('editor', 'create', 'roles', inTeam),
    'binding-view': cannot('editor', 'create', 'rolebindings', inTeam),
    'binding-cluster-admin': cannot('editor', 'create', 'rolebindings', inTeam),
    'clusterrole-held': cannot('editor', 'create', 'clusterroles', cluster),
    'clusterrolebinding-view': cannot('editor', 'create', 'clusterrolebindings', cluster),
    'clusterrole-aggregating': cannot('editor', 'create', 'clusterroles', cluster),
  },
  // may create rolebindings in team and bind cluster-admin (only): holds nothing else.
  binder: {
    'role-held': cannot('binder', 'create', 'roles', inTeam),
    'role-nodes': cannot('binder', 'create', 'roles', inTeam),
    // view's rules, one line per resource: the first few are enough to know the message.
    'binding-view': { startsWith: notHeld('binder', 'rolebindings', 'binding-view-binder', ['{APIGroups:[""], Resources:["bindings"], Verbs:["get" "list" "watch"]}', '{APIGroups:[""], Resources:["configmaps"], Verbs:["get" "list" "watch"]}']) },
    'binding-cluster-admin': 201,
    'clusterrole-held': cannot('binder', 'create', 'clusterroles', cluster),
    'clusterrolebinding-view': cannot('binder', 'create', 'clusterrolebindings', cluster),
    'clusterrole-aggregating': cannot('binder', 'create', 'clusterroles', cluster),
  },
  // may create and escalate roles in team, and cluster roles: any rule goes, but an aggregating
  // cluster role needs escalate at the cluster scope too, which this user has.
  escalator: {
    'role-held': 201,
    'role-nodes': 201,
    'binding-view': cannot('escalator', 'create', 'rolebindings', inTeam),
    'binding-cluster-admin': cannot('escalator', 'create', 'rolebindings', inTeam),
    'clusterrole-held': 201,
    'clusterrolebinding-view': cannot('escalator', 'create', 'clusterrolebindings', cluster),
    'clusterrole-aggregating': 201,
  },
  // may create cluster roles (no escalate) and holds configmaps get everywhere.
  'cr-writer': {
    'role-held': cannot('cr-writer', 'create', 'roles', inTeam),
    'role-nodes': cannot('cr-writer', 'create', 'roles', inTeam),
    'binding-view': cannot('cr-writer', 'create', 'rolebindings', inTeam),
    'binding-cluster-admin': cannot('cr-writer', 'create', 'rolebindings', inTeam),
    'clusterrole-held': 201,
    'clusterrolebinding-view': cannot('cr-writer', 'create', 'clusterrolebindings', cluster),
    'clusterrole-aggregating': `clusterroles.${RBAC} "clusterrole-aggregating-cr-writer" is forbidden: must have cluster-admin privileges to use the aggregationRule`,
  },
};

beforeAll(async () => {
  s = await startTestServer();
  expect((await s.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
  const setup: [string, unknown][] = [
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('ns-admin', 'ClusterRole', 'admin', [userSubject('ns-admin')])],
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('editor', 'ClusterRole', 'edit', [userSubject('editor')])],
    [`${RBAC_V1}/clusterroles`, clusterRole('binder', [{ verbs: ['create'], apiGroups: [RBAC], resources: ['rolebindings'] }, { verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['cluster-admin'] }])],
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('binder', 'ClusterRole', 'binder', [userSubject('binder')])],
    [`${RBAC_V1}/clusterroles`, clusterRole('escalator', [{ verbs: ['create', 'escalate'], apiGroups: [RBAC], resources: ['roles', 'clusterroles'] }])],
    [`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('escalator', 'escalator', [userSubject('escalator')])],
    [`${RBAC_V1}/clusterroles`, clusterRole('cr-writer', [{ verbs: ['create'], apiGroups: [RBAC], resources: ['clusterroles'] }, { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }])],
    [`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('cr-writer', 'cr-writer', [userSubject('cr-writer')])],
  ];
  for (const [path, body] of setup) expect((await s.post(path, body)).status, path).toBe(201);
  // Grants reach the authorizer through the watch cache: wait until the last one counts.
  await eventually(async () => (await caller(s, 'cr-writer').get('/api/v1/namespaces/team/configmaps/x')).status === 404, 'the grants are in effect');
});
afterAll(() => s.close());

describe('role-escalation matrix', () => {
  const cells = Object.entries(MATRIX).flatMap(([user, row]) => OPS.map((op) => [user, op, row[op]] as const));
  it.each(cells)('%s %s → %s', async (user, op, want) => {
    const r = await perform(user, op);
    if (want === 201) {
      expect(r.status, r.text).toBe(201);
    } else {
      expect(r.status, r.text).toBe(403);
      expect(r.body.reason).toBe('Forbidden');
      if (typeof want === 'string') expect(r.body.message).toBe(want);
      else expect((r.body.message as string).startsWith(want.startsWith), r.body.message).toBe(true);
    }
  });

  it('an update that adds an unheld rule is refused; one that only changes owner references or finalizers passes', async () => {
    const admin = caller(s, 'ns-admin');
    const created = await admin.post(`${RBAC_V1}/namespaces/team/roles`, role('upd', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]));
    expect(created.status).toBe(201);
    const obj = created.body;
    const bad = await admin.put(`${RBAC_V1}/namespaces/team/roles/upd`, { ...obj, rules: [...obj.rules, { verbs: ['get'], apiGroups: [''], resources: ['nodes'] }] });
    expect(bad.status).toBe(403);
    expect(bad.body.message).toBe(notHeld('ns-admin', 'roles', 'upd', ['{APIGroups:[""], Resources:["nodes"], Verbs:["get"]}']));
    // A master widens the role beyond what ns-admin holds; ns-admin may still add a finalizer to it.
    const widened = await s.put(`${RBAC_V1}/namespaces/team/roles/upd`, { ...obj, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] });
    expect(widened.status).toBe(200);
    const gcOnly = await admin.put(`${RBAC_V1}/namespaces/team/roles/upd`, { ...widened.body, metadata: { ...widened.body.metadata, finalizers: ['example.com/hold'] } });
    expect(gcOnly.status, gcOnly.text).toBe(200);
  });

  it('a binding to a missing role is refused with why', async () => {
    const r = await caller(s, 'ns-admin').post(`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('to-nothing', 'Role', 'nothing', [userSubject('x')]));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(`rolebindings.${RBAC} "to-nothing" is forbidden: role.${RBAC} "nothing" not found`);
  });
});
