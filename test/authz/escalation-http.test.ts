/**
 * The role-escalation matrix: who may create which Role, ClusterRole, RoleBinding and
 * ClusterRoleBinding. A user may grant only rules they hold (in the namespace of the write; held
 * in one namespace is not held in another nor cluster-wide), unless they have `escalate` on roles
 * or `bind` on the role granted (limited by resourceNames); an aggregating ClusterRole needs
 * cluster-admin's powers or escalate; system:masters may grant anything. Each cell is asserted with
 * its status and, for refusals, Kubernetes' message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';
import { RBAC, RBAC_V1, caller, clusterRole, clusterRoleBinding, eventually, role, roleBinding, userSubject } from './helpers.js';

let s: TestServer;

/** One write of a role or binding: where it goes and what it grants. */
interface Operation {
  resource: 'roles' | 'rolebindings' | 'clusterroles' | 'clusterrolebindings';
  namespace?: 'team' | 'other';
  body(name: string): unknown;
}
const CM_GET = { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] };
const OPERATIONS = {
  'role-held': { resource: 'roles', namespace: 'team', body: (n: string) => role(n, [CM_GET]) },
  'role-held-other': { resource: 'roles', namespace: 'other', body: (n: string) => role(n, [CM_GET]) },
  'role-nodes': { resource: 'roles', namespace: 'team', body: (n: string) => role(n, [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }]) },
  'binding-role': { resource: 'rolebindings', namespace: 'team', body: (n: string) => roleBinding(n, 'Role', 'cm-getter', [userSubject('someone')]) },
  'binding-view': { resource: 'rolebindings', namespace: 'team', body: (n: string) => roleBinding(n, 'ClusterRole', 'view', [userSubject('someone')]) },
  'binding-cluster-admin': { resource: 'rolebindings', namespace: 'team', body: (n: string) => roleBinding(n, 'ClusterRole', 'cluster-admin', [userSubject('someone')]) },
  'clusterrole-held': { resource: 'clusterroles', body: (n: string) => clusterRole(n, [CM_GET]) },
  'clusterrole-aggregating': { resource: 'clusterroles', body: (n: string) => ({ metadata: { name: n }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } }) },
  'clusterrolebinding-held': { resource: 'clusterrolebindings', body: (n: string) => clusterRoleBinding(n, 'cm-getter', [userSubject('someone')]) },
  'clusterrolebinding-view': { resource: 'clusterrolebindings', body: (n: string) => clusterRoleBinding(n, 'view', [userSubject('someone')]) },
  'clusterrolebinding-cluster-admin': { resource: 'clusterrolebindings', body: (n: string) => clusterRoleBinding(n, 'cluster-admin', [userSubject('someone')]) },
} satisfies Record<string, Operation>;
type Op = keyof typeof OPERATIONS;
const OPS = Object.keys(OPERATIONS) as Op[];

const nameOf = (user: string, op: Op) => `${op}-${user.replace(/[^a-z-]/g, '-')}`;

function perform(user: string, op: Op): Promise<Reply> {
  const o: Operation = OPERATIONS[op];
  const c = user === 'system:unsecured' ? { post: (p: string, b: unknown) => s.post(p, b) } : caller(s, user);
  return c.post(`${RBAC_V1}/${o.namespace ? `namespaces/${o.namespace}/` : ''}${o.resource}`, o.body(nameOf(user, op)));
}

/** The outcome of one cell: created, refused by authorization, or refused as an escalation. */
type Want = 201 | 'cannot create' | { notHeld: string[] } | { notHeldStartsWith: string[] } | { message: string };
const CANNOT = 'cannot create' as const;
const EVERYTHING = ['{APIGroups:["*"], Resources:["*"], Verbs:["*"]}', '{NonResourceURLs:["*"], Verbs:["*"]}'];
const CONFIGMAPS_GET = ['{APIGroups:[""], Resources:["configmaps"], Verbs:["get"]}'];
// view's rules, one line per resource: the first is enough to know the message.
const VIEW_FIRST_LINE = ['{APIGroups:[""], Resources:["bindings"], Verbs:["get" "list" "watch"]}'];

/** Kubernetes' words for each refusal. */
function expectedMessage(user: string, op: Op, want: Exclude<Want, 201>): { exact: string } | { startsWith: string } {
  const o: Operation = OPERATIONS[op];
  const notHeld = (lines: string[]) =>
    `${o.resource}.${RBAC} "${nameOf(user, op)}" is forbidden: user "${user}" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (want === CANNOT) {
    const scope = o.namespace ? `in the namespace "${o.namespace}"` : 'at the cluster scope';
    return { exact: `${o.resource}.${RBAC} is forbidden: User "${user}" cannot create resource "${o.resource}" in API group "${RBAC}" ${scope}` };
  }
  if ('notHeld' in want) return { exact: notHeld(want.notHeld) };
  if ('notHeldStartsWith' in want) return { startsWith: notHeld(want.notHeldStartsWith) };
  return { exact: want.message };
}

/** Every cell not listed in a row is `cannot create`: the user may not write that kind there at all. */
const row = (cells: Partial<Record<Op, Want>>): Record<Op, Want> => Object.fromEntries(OPS.map((op) => [op, cells[op] ?? CANNOT])) as Record<Op, Want>;

/** Expected outcome per user and operation. */
const MATRIX: Record<string, Record<Op, Want>> = {
  'system:unsecured': Object.fromEntries(OPS.map((o) => [o, 201])) as Record<Op, 201>,
  // admin in team: may write roles and bindings there, and grant what admin holds there.
  'ns-admin': row({ 'role-held': 201, 'role-nodes': { notHeld: ['{APIGroups:[""], Resources:["nodes"], Verbs:["get"]}'] }, 'binding-role': 201, 'binding-view': 201, 'binding-cluster-admin': { notHeld: EVERYTHING } }),
  // edit in team: no writes of roles or bindings at all.
  editor: row({}),
  // may create rolebindings in team and bind cluster-admin (only, by resourceNames): holds nothing else.
  binder: row({
    'binding-role': { notHeld: CONFIGMAPS_GET },
    'binding-view': { notHeldStartsWith: ['{APIGroups:[""], Resources:["bindings"], Verbs:["get" "list" "watch"]}', '{APIGroups:[""], Resources:["configmaps"], Verbs:["get" "list" "watch"]}'] },
    'binding-cluster-admin': 201,
  }),
  // may create and escalate roles and cluster roles everywhere: any rule goes, and an aggregating
  // cluster role too (escalate at the cluster scope).
  escalator: row({ 'role-held': 201, 'role-held-other': 201, 'role-nodes': 201, 'clusterrole-held': 201, 'clusterrole-aggregating': 201 }),
  // may create cluster roles (no escalate) and holds configmaps get everywhere.
  'cr-writer': row({
    'clusterrole-held': 201,
    'clusterrole-aggregating': { message: `clusterroles.${RBAC} "clusterrole-aggregating-cr-writer" is forbidden: must have cluster-admin privileges to use the aggregationRule` },
  }),
  // may create roles and every kind of binding everywhere, and holds configmaps get in team only:
  // what is held in one namespace may be granted there, not in another namespace nor cluster-wide.
  'team-holder': row({
    'role-held': 201,
    'role-held-other': { notHeld: CONFIGMAPS_GET },
    'role-nodes': { notHeld: ['{APIGroups:[""], Resources:["nodes"], Verbs:["get"]}'] },
    'binding-role': 201,
    'binding-view': { notHeldStartsWith: VIEW_FIRST_LINE },
    'binding-cluster-admin': { notHeld: EVERYTHING },
    'clusterrolebinding-held': { notHeld: CONFIGMAPS_GET },
    'clusterrolebinding-view': { notHeldStartsWith: VIEW_FIRST_LINE },
    'clusterrolebinding-cluster-admin': { notHeld: EVERYTHING },
  }),
  // may create cluster role bindings and bind view (only, by resourceNames), cluster-wide: holds nothing.
  'crb-binder': row({
    'clusterrolebinding-held': { notHeld: CONFIGMAPS_GET },
    'clusterrolebinding-view': 201,
    'clusterrolebinding-cluster-admin': { notHeld: EVERYTHING },
  }),
};

beforeAll(async () => {
  s = await startTestServer();
  for (const ns of ['team', 'other']) expect((await s.post('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  const setup: [string, unknown][] = [
    [`${RBAC_V1}/clusterroles`, clusterRole('cm-getter', [CM_GET])],
    [`${RBAC_V1}/namespaces/team/roles`, role('cm-getter', [CM_GET])],
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('ns-admin', 'ClusterRole', 'admin', [userSubject('ns-admin')])],
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('editor', 'ClusterRole', 'edit', [userSubject('editor')])],
    [`${RBAC_V1}/clusterroles`, clusterRole('binder', [{ verbs: ['create'], apiGroups: [RBAC], resources: ['rolebindings'] }, { verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['cluster-admin'] }])],
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('binder', 'ClusterRole', 'binder', [userSubject('binder')])],
    [`${RBAC_V1}/clusterroles`, clusterRole('escalator', [{ verbs: ['create', 'escalate'], apiGroups: [RBAC], resources: ['roles', 'clusterroles'] }])],
    [`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('escalator', 'escalator', [userSubject('escalator')])],
    [`${RBAC_V1}/clusterroles`, clusterRole('cr-writer', [{ verbs: ['create'], apiGroups: [RBAC], resources: ['clusterroles'] }, CM_GET])],
    [`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('cr-writer', 'cr-writer', [userSubject('cr-writer')])],
    [`${RBAC_V1}/clusterroles`, clusterRole('rbac-writer', [{ verbs: ['create'], apiGroups: [RBAC], resources: ['roles', 'rolebindings', 'clusterrolebindings'] }])],
    [`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('team-holder', 'rbac-writer', [userSubject('team-holder')])],
    [`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('team-holder', 'ClusterRole', 'cm-getter', [userSubject('team-holder')])],
    [`${RBAC_V1}/clusterroles`, clusterRole('crb-binder', [{ verbs: ['create'], apiGroups: [RBAC], resources: ['clusterrolebindings'] }, { verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['view'] }])],
    [`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('crb-binder', 'crb-binder', [userSubject('crb-binder')])],
  ];
  for (const [path, body] of setup) expect((await s.post(path, body)).status, path).toBe(201);
  // Grants reach the authorizer through the watch cache: wait until the last one counts.
  await eventually(async () => (await caller(s, 'crb-binder').post(`${RBAC_V1}/clusterrolebindings?dryRun=All`, clusterRoleBinding('probe', 'view', []))).status === 201, 'the grants are in effect');
});
afterAll(() => s.close());

describe('role-escalation matrix', () => {
  const cells = Object.entries(MATRIX).flatMap(([user, cellsOf]) => OPS.map((op) => [user, op, cellsOf[op]] as const));
  it.each(cells)('%s %s → %j', async (user, op, want) => {
    const r = await perform(user, op);
    if (want === 201) {
      expect(r.status, r.text).toBe(201);
      return;
    }
    expect(r.status, r.text).toBe(403);
    expect(r.body.reason).toBe('Forbidden');
    const message = expectedMessage(user, op, want);
    if ('exact' in message) expect(r.body.message).toBe(message.exact);
    else expect((r.body.message as string).startsWith(message.startsWith), r.body.message).toBe(true);
  });

  it('an update that adds an unheld rule is refused; one that only changes owner references or finalizers passes', async () => {
    const admin = caller(s, 'ns-admin');
    const created = await admin.post(`${RBAC_V1}/namespaces/team/roles`, role('upd', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]));
    expect(created.status).toBe(201);
    const obj = created.body;
    const bad = await admin.put(`${RBAC_V1}/namespaces/team/roles/upd`, { ...obj, rules: [...obj.rules, { verbs: ['get'], apiGroups: [''], resources: ['nodes'] }] });
    expect(bad.status).toBe(403);
    const refusal = `roles.${RBAC} "upd" is forbidden: user "ns-admin" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["get"]}`;
    expect(bad.body.message).toBe(refusal);
    // A patch is judged on the object it makes, as an update.
    const patched = await s.patch(`${RBAC_V1}/namespaces/team/roles/upd`, { rules: [...obj.rules, { verbs: ['get'], apiGroups: [''], resources: ['nodes'] }] }, 'application/merge-patch+json', { headers: { 'Impersonate-User': 'ns-admin' } });
    expect(patched.status, patched.text).toBe(403);
    expect(patched.body.message).toBe(refusal);
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
