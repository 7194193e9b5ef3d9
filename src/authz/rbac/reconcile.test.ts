import { describe, expect, it } from 'vitest';
import { reconcileBinding, reconcileRole, type BindingLike, type RuleOwner } from './reconcile.js';

const AU = 'rbac.authorization.orch.io/autoupdate';
const G = 'rbac.authorization.orch.io';
const expectedRole: RuleOwner = { metadata: { name: 'r', labels: { boot: 'yes' }, annotations: { [AU]: 'true' } }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] };

describe('reconcileRole', () => {
  it('creates a missing role', () => expect(reconcileRole(undefined, expectedRole, AU).operation).toBe('create'));

  it('adds missing rules, labels and annotations, keeping what the operator added', () => {
    const existing: RuleOwner = { metadata: { name: 'r', labels: { mine: 'x' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: [''], resources: ['secrets'] }] };
    const r = reconcileRole(existing, expectedRole, AU);
    expect(r.operation).toBe('update');
    expect(r.protected).toBe(false);
    expect(r.object.metadata).toEqual({ name: 'r', labels: { boot: 'yes', mine: 'x' }, annotations: { [AU]: 'true' } });
    expect(r.object.rules).toEqual([...existing.rules!, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }]);
  });

  it('leaves an up-to-date role alone', () => expect(reconcileRole(structuredClone(expectedRole), expectedRole, AU).operation).toBe('none'));

  it('says what a protected role lacks, and that it is protected', () => {
    const existing: RuleOwner = { metadata: { name: 'r', labels: { boot: 'yes' }, annotations: { [AU]: 'false' } }, rules: [] };
    const r = reconcileRole(existing, expectedRole, AU);
    expect(r).toMatchObject({ operation: 'update', protected: true });
    expect(r.missingRules).toHaveLength(2);
    expect(r.object.metadata.annotations).toEqual({ [AU]: 'false' });
  });

  it('adds a missing aggregation selector', () => {
    const sel = { matchLabels: { a: 'true' } };
    const r = reconcileRole({ metadata: { name: 'admin', annotations: { [AU]: 'true' } }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { mine: 'x' } }] }, rules: [] }, { metadata: { name: 'admin', annotations: { [AU]: 'true' } }, aggregationRule: { clusterRoleSelectors: [sel] }, rules: [] }, AU);
    expect(r.operation).toBe('update');
    expect(r.object.aggregationRule?.clusterRoleSelectors).toEqual([{ matchLabels: { mine: 'x' } }, sel]);
  });
});

describe('reconcileBinding', () => {
  const expected: BindingLike = { metadata: { name: 'b', annotations: { [AU]: 'true' } }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'Group', apiGroup: G, name: 'g' }] };
  it('adds missing subjects, keeping the others', () => {
    const r = reconcileBinding({ ...structuredClone(expected), subjects: [{ kind: 'User', apiGroup: G, name: 'u' }] }, expected, AU);
    expect(r.operation).toBe('update');
    expect(r.object.subjects).toEqual([{ kind: 'User', apiGroup: G, name: 'u' }, { kind: 'Group', apiGroup: G, name: 'g' }]);
  });
  it('recreates a binding whose roleRef differs', () => {
    const r = reconcileBinding({ ...structuredClone(expected), roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'edit' } }, expected, AU);
    expect(r.operation).toBe('recreate');
    expect(r.object.roleRef.name).toBe('view');
  });
  it('leaves a protected binding alone', () => {
    const r = reconcileBinding({ ...structuredClone(expected), metadata: { name: 'b', annotations: { [AU]: 'false' } }, subjects: [] }, expected, AU);
    expect(r).toMatchObject({ operation: 'update', protected: true });
  });
});
