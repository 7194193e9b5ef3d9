import { describe, expect, it } from 'vitest';
import type { ClusterRole } from '../../apis/rbac/v1/clusterrole.js';
import type { ClusterRoleBinding } from '../../apis/rbac/v1/clusterrolebinding.js';
import type { Role } from '../../apis/rbac/v1/role.js';
import type { RoleBinding } from '../../apis/rbac/v1/rolebinding.js';
import type { AuthorizationAttributes } from '../index.js';
import { rbacAuthorizer } from './authorizer.js';
import { RbacRuleResolver } from './rule-resolver.js';
import { arrayLister } from './testing.js';

const G = 'rbac.authorization.orch.io';
const signal = new AbortController().signal;

function world(): { roles: Role[]; roleBindings: RoleBinding[]; clusterRoles: ClusterRole[]; clusterRoleBindings: ClusterRoleBinding[] } {
  return {
    clusterRoles: [
      { metadata: { name: 'pod-reader' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] } as ClusterRole,
      { metadata: { name: 'health' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez*'] }] } as ClusterRole,
    ],
    clusterRoleBindings: [
      { metadata: { name: 'readers' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'Group', apiGroup: G, name: 'readers' }] },
      { metadata: { name: 'health' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'health' }, subjects: [{ kind: 'Group', apiGroup: G, name: 'system:authenticated' }] },
    ] as ClusterRoleBinding[],
    roles: [{ metadata: { name: 'cm-editor', namespace: 'team' }, rules: [{ verbs: ['*'], apiGroups: [''], resources: ['configmaps'] }] } as Role],
    roleBindings: [
      { metadata: { name: 'bob-edits', namespace: 'team' }, roleRef: { apiGroup: G, kind: 'Role', name: 'cm-editor' }, subjects: [{ kind: 'User', apiGroup: G, name: 'bob' }] },
      { metadata: { name: 'robot-reads', namespace: 'team' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'robot' }] },
    ] as RoleBinding[],
  };
}

function authorizerOf(w: ReturnType<typeof world>) {
  const resolver = new RbacRuleResolver(
    { roles: arrayLister(w.roles), roleBindings: arrayLister(w.roleBindings), clusterRoles: arrayLister(w.clusterRoles), clusterRoleBindings: arrayLister(w.clusterRoleBindings) },
    G,
  );
  return rbacAuthorizer(resolver);
}

const ask = (username: string, groups: string[], over: Partial<AuthorizationAttributes>): AuthorizationAttributes => ({
  user: { username, groups },
  verb: 'get',
  isResourceRequest: true,
  path: '',
  namespace: '',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: '',
  ...over,
});

describe('rbacAuthorizer', () => {
  const cases: [string, AuthorizationAttributes, 'allow' | 'no-opinion', string][] = [
    ['a group binding, cluster-wide', ask('alice', ['readers'], { verb: 'list' }), 'allow', 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to Group "readers"'],
    ['a group binding, in a namespace', ask('alice', ['readers'], { namespace: 'x', name: 'p' }), 'allow', 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to Group "readers"'],
    ['no binding', ask('alice', [], {}), 'no-opinion', ''],
    ['a verb the role lacks', ask('alice', ['readers'], { verb: 'delete' }), 'no-opinion', ''],
    ['a Role through a RoleBinding', ask('bob', [], { namespace: 'team', resource: 'configmaps', verb: 'delete' }), 'allow', 'RBAC: allowed by RoleBinding "bob-edits/team" of Role "cm-editor" to User "bob"'],
    ['a RoleBinding does not reach another namespace', ask('bob', [], { namespace: 'other', resource: 'configmaps' }), 'no-opinion', ''],
    ['a RoleBinding does not reach the cluster scope', ask('bob', [], { resource: 'configmaps' }), 'no-opinion', ''],
    ['a service account by its username, namespace from the binding', ask('system:serviceaccount:team:robot', [], { namespace: 'team' }), 'allow', 'RBAC: allowed by RoleBinding "robot-reads/team" of ClusterRole "pod-reader" to ServiceAccount "robot/team"'],
    ['a service account of another namespace', ask('system:serviceaccount:other:robot', [], { namespace: 'team' }), 'no-opinion', ''],
    ['a non-resource URL', { ...ask('carol', ['system:authenticated'], {}), isResourceRequest: false, path: '/livez/ping' }, 'allow', 'RBAC: allowed by ClusterRoleBinding "health" of ClusterRole "health" to Group "system:authenticated"'],
    ['no user', { ...ask('', [], {}), user: undefined }, 'no-opinion', ''],
  ];
  it.each(cases)('%s', async (_label, attrs, decision, reason) => {
    const r = await authorizerOf(world()).authorize(attrs, signal);
    expect(r.decision).toBe(decision);
    expect(r.reason).toBe(reason);
    expect(r.evaluationErrors).toBeUndefined();
  });

  it('reports a binding whose ClusterRole is missing as an error that grants nothing', async () => {
    const w = world();
    w.clusterRoleBindings.push({ metadata: { name: 'dangling' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'gone' }, subjects: [{ kind: 'User', apiGroup: G, name: 'alice' }] } as ClusterRoleBinding);
    const r = await authorizerOf(w).authorize(ask('alice', [], {}), signal);
    expect(r).toEqual({ decision: 'no-opinion', reason: `RBAC: clusterrole.${G} "gone" not found`, evaluationErrors: [`clusterrole.${G} "gone" not found`] });
    // Someone the binding does not name hears nothing of it.
    expect((await authorizerOf(w).authorize(ask('zed', [], {}), signal)).reason).toBe('');
  });

  it('reports a RoleBinding whose Role is missing, in its namespace only', async () => {
    const w = world();
    w.roles.length = 0;
    const r = await authorizerOf(w).authorize(ask('bob', [], { namespace: 'team', resource: 'configmaps' }), signal);
    expect(r.decision).toBe('no-opinion');
    expect(r.evaluationErrors).toEqual([`role.${G} "cm-editor" not found`]);
  });

  it('reports an unknown subject kind to everyone and a namespaced User or Group to whom it names', async () => {
    const w = world();
    w.clusterRoleBindings.push({
      metadata: { name: 'odd' },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'pod-reader' },
      subjects: [{ kind: 'Robot', name: 'r2' }, { kind: 'User', apiGroup: G, name: 'dave', namespace: 'team' }, { kind: 'Group', apiGroup: G, name: 'ops', namespace: 'team' }],
    } as ClusterRoleBinding);
    const dave = await authorizerOf(w).authorize(ask('dave', ['ops'], {}), signal);
    expect(dave.decision).toBe('no-opinion');
    expect(dave.evaluationErrors).toEqual([
      'ClusterRoleBinding "odd": subject kind "Robot" is not recognized (User, Group or ServiceAccount)',
      'ClusterRoleBinding "odd": subject User "dave" has namespace "team", but User subjects are not namespaced',
      'ClusterRoleBinding "odd": subject Group "ops" has namespace "team", but Group subjects are not namespaced',
    ]);
    expect(dave.reason).toBe(`RBAC: [${dave.evaluationErrors!.join(', ')}]`);
    const zed = await authorizerOf(w).authorize(ask('zed', [], {}), signal);
    expect(zed.evaluationErrors).toEqual(['ClusterRoleBinding "odd": subject kind "Robot" is not recognized (User, Group or ServiceAccount)']);
  });

  it('an allow wins over errors met on the way', async () => {
    const w = world();
    w.clusterRoleBindings.unshift({ metadata: { name: 'a-dangling' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'gone' }, subjects: [{ kind: 'Group', apiGroup: G, name: 'readers' }] } as ClusterRoleBinding);
    expect((await authorizerOf(w).authorize(ask('alice', ['readers'], {}), signal)).decision).toBe('allow');
  });

  it('lists the rules of a user in a namespace, with the errors', () => {
    const w = world();
    w.roleBindings.push({ metadata: { name: 'b', namespace: 'team' }, roleRef: { apiGroup: G, kind: 'Role', name: 'nope' }, subjects: [{ kind: 'User', apiGroup: G, name: 'bob' }] } as RoleBinding);
    const rules = authorizerOf(w).rulesFor({ username: 'bob', groups: ['system:authenticated'] }, 'team');
    expect(rules).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['configmaps'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez*'] }],
      incomplete: false,
      errors: [`role.${G} "nope" not found`],
    });
  });
});
