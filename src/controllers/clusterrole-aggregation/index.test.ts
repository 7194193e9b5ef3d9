import { describe, expect, it } from 'vitest';
import type { ClusterRole } from '../../apis/rbac/v1/clusterrole.js';
import { aggregatedRules } from './index.js';

const role = (name: string, labels: Record<string, string>, rules: ClusterRole['rules']): ClusterRole => ({ metadata: { name, labels }, rules }) as ClusterRole;

describe('aggregatedRules', () => {
  it('gathers the rules of the roles each selector matches, by name, each rule once, never its own', () => {
    const admin = { metadata: { name: 'admin', labels: { 'to-admin': 'true' } }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'to-admin': 'true' } }, { matchLabels: { extra: 'yes' } }] }, rules: [] } as unknown as ClusterRole;
    const all = [
      admin,
      role('b', { 'to-admin': 'true' }, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
      role('a', { 'to-admin': 'true' }, [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
      role('c', { extra: 'yes' }, [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]),
      role('d', {}, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]),
    ];
    expect(aggregatedRules(admin, all)).toEqual([
      { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get'], apiGroups: [''], resources: ['secrets'] },
    ]);
  });
});
