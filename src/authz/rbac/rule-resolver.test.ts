import { describe, expect, it } from 'vitest';
import type { ClusterRole } from '../../apis/rbac/v1/clusterrole.js';
import type { ClusterRoleBinding } from '../../apis/rbac/v1/clusterrolebinding.js';
import type { Role } from '../../apis/rbac/v1/role.js';
import type { RoleBinding } from '../../apis/rbac/v1/rolebinding.js';
import type { Subject } from '../../apis/rbac/v1/types.js';
import type { Lister } from '../../machinery/lister.js';
import type { UserInfo } from '../../machinery/user-info.js';
import type { AuthorizationAttributes } from '../index.js';
import { rbacAuthorizer } from './authorizer.js';
import { BINDINGS_BY_SUBJECT, RbacRuleResolver, bindingSubjectKeys, type RbacListers } from './rule-resolver.js';
import { arrayLister } from './testing.js';

const G = 'rbac.authorization.orch.io';
const signal = new AbortController().signal;

describe('bindingSubjectKeys', () => {
  it('files a binding under each subject that could name a user, service accounts by their username', () => {
    const binding = {
      metadata: { name: 'b', namespace: 'team' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'Group', name: 'dev' },
        { kind: 'ServiceAccount', name: 'robot' },
        { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
        { kind: 'Robot', name: 'r2' },
        { kind: 'User', name: 'alice', namespace: 'team' },
      ] as Subject[],
    };
    expect(bindingSubjectKeys(binding)).toEqual([
      'team\u0000u\u0000alice',
      'team\u0000g\u0000dev',
      'team\u0000u\u0000system:serviceaccount:team:robot',
      'team\u0000u\u0000system:serviceaccount:ci:builder',
      'team\u0000*',
    ]);
    // A ServiceAccount subject of a ClusterRoleBinding without a namespace names no one.
    expect(bindingSubjectKeys({ metadata: {}, subjects: [{ kind: 'ServiceAccount', name: 'x' } as Subject] })).toEqual([]);
    expect(bindingSubjectKeys({ metadata: {} })).toEqual([]);
  });
});

/** A lister that refuses to be scanned: the resolver must find bindings through the index. */
function unscannable<T extends { metadata: { name?: string; namespace?: string } }>(items: T[]): Lister<T> {
  return { ...arrayLister(items), list: () => { throw new Error('the bindings were scanned'); } };
}

/** A lister whose index answers every binding of the key's namespace: what a scan of them all would see. */
function scanning<T extends { metadata: { name?: string; namespace?: string } }>(items: T[]): Lister<T> {
  return { ...arrayLister(items), byIndex: (_index, key) => items.filter((i) => key.startsWith(`${i.metadata.namespace ?? ''}\u0000`)) };
}

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

const NAMES = ['alice', 'bob', 'dev', 'ops', 'robot', 'system:authenticated'];
const NAMESPACES = ['team', 'other', ''];

function randomWorld(next: () => number) {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const subject = (): Subject => {
    const kind = pick(['User', 'Group', 'ServiceAccount', 'ServiceAccount', 'Robot']);
    const namespace = pick(['', '', 'team', 'other']);
    return { kind, name: pick(NAMES), ...(kind === 'User' || kind === 'Group' ? { apiGroup: G } : {}), ...(namespace ? { namespace } : {}) } as Subject;
  };
  const rule = () => ({ verbs: [pick(['get', 'list', '*'])], apiGroups: [''], resources: [pick(['pods', 'configmaps', '*'])] });
  const clusterRoles = ['r0', 'r1', 'r2'].map((name) => ({ metadata: { name }, rules: [rule(), rule()] }) as ClusterRole);
  const roles = ['team', 'other'].flatMap((namespace) => ['n0', 'n1'].map((name) => ({ metadata: { name, namespace }, rules: [rule()] }) as Role));
  const subjects = () => Array.from({ length: 1 + Math.floor(next() * 3) }, subject);
  const clusterRoleBindings = Array.from({ length: 12 }, (_, i) => ({
    metadata: { name: `crb-${pick(['a', 'b', 'c'])}-${i}` },
    roleRef: { apiGroup: G, kind: 'ClusterRole', name: pick(['r0', 'r1', 'r2', 'gone']) },
    subjects: subjects(),
  }) as ClusterRoleBinding);
  const roleBindings = Array.from({ length: 16 }, (_, i) => ({
    metadata: { name: `rb-${pick(['a', 'b'])}-${i}`, namespace: pick(['team', 'other']) },
    roleRef: { apiGroup: G, ...pick([{ kind: 'Role', name: 'n0' }, { kind: 'Role', name: 'n1' }, { kind: 'ClusterRole', name: 'r1' }, { kind: 'Role', name: 'gone' }]) },
    subjects: subjects(),
  }) as RoleBinding);
  return { clusterRoles, roles, clusterRoleBindings, roleBindings };
}

describe('RbacRuleResolver finds bindings by subject', () => {
  it('never scans the bindings', async () => {
    const listers: RbacListers = {
      clusterRoles: arrayLister([{ metadata: { name: 'reader' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] } as ClusterRole]),
      roles: arrayLister<Role>([]),
      clusterRoleBindings: unscannable([{ metadata: { name: 'dev' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'reader' }, subjects: [{ kind: 'Group', apiGroup: G, name: 'dev' }] } as ClusterRoleBinding]),
      roleBindings: unscannable([{ metadata: { name: 'sa', namespace: 'team' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'reader' }, subjects: [{ kind: 'ServiceAccount', name: 'robot' }] } as RoleBinding]),
    };
    const authorizer = rbacAuthorizer(new RbacRuleResolver(listers, G));
    const ask = (user: UserInfo, namespace: string): AuthorizationAttributes => ({ user, verb: 'get', isResourceRequest: true, path: '', namespace, apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: 'p' });
    expect((await authorizer.authorize(ask({ username: 'x', groups: ['dev'] }, 'team'), signal)).reason).toBe('RBAC: allowed by ClusterRoleBinding "dev" of ClusterRole "reader" to Group "dev"');
    expect((await authorizer.authorize(ask({ username: 'system:serviceaccount:team:robot', groups: [] }, 'team'), signal)).reason).toBe('RBAC: allowed by RoleBinding "sa/team" of ClusterRole "reader" to ServiceAccount "robot/team"');
    expect((await authorizer.authorize(ask({ username: 'system:serviceaccount:other:robot', groups: [] }, 'team'), signal)).decision).toBe('no-opinion');
  });

  it('decides, explains and reports errors exactly as a scan of every binding would (random worlds)', async () => {
    const users: UserInfo[] = [
      { username: 'alice', groups: ['dev'] },
      { username: 'bob', groups: ['ops', 'system:authenticated'] },
      { username: 'system:serviceaccount:team:robot', groups: ['system:authenticated'] },
      { username: 'system:serviceaccount:other:robot', groups: [] },
      { username: 'nobody', groups: [] },
    ];
    for (let seed = 1; seed <= 40; seed++) {
      const w = randomWorld(random(seed));
      const indexed = new RbacRuleResolver({ clusterRoles: arrayLister(w.clusterRoles), roles: arrayLister(w.roles), clusterRoleBindings: unscannable(w.clusterRoleBindings), roleBindings: unscannable(w.roleBindings) }, G);
      const scanned = new RbacRuleResolver({ clusterRoles: arrayLister(w.clusterRoles), roles: arrayLister(w.roles), clusterRoleBindings: scanning(w.clusterRoleBindings), roleBindings: scanning(w.roleBindings) }, G);
      for (const user of users) {
        for (const namespace of NAMESPACES) {
          expect(indexed.rulesFor(user, namespace), `seed ${seed}, ${user.username} in "${namespace}"`).toEqual(scanned.rulesFor(user, namespace));
          for (const verb of ['get', 'delete']) {
            const attrs: AuthorizationAttributes = { user, verb, isResourceRequest: true, path: '', namespace, apiGroup: '', apiVersion: 'v1', resource: 'configmaps', subresource: '', name: '' };
            expect(await rbacAuthorizer(indexed).authorize(attrs, signal)).toEqual(await rbacAuthorizer(scanned).authorize(attrs, signal));
          }
        }
      }
    }
  });

  it('keeps its index name stable for the listers that carry it', () => {
    expect(BINDINGS_BY_SUBJECT).toBe('rbac-binding-subjects');
  });
});
