import { describe, expect, it } from 'vitest';
import type { RuleWithOperations } from '../../apis/admissionregistration/v1/types.js';
import { ruleMatches, type RuleTarget } from './rules.js';

const pods: RuleTarget = { operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: '', namespace: 'default' };
const rule = (over: Partial<RuleWithOperations> = {}): RuleWithOperations => ({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], ...over });

describe('webhook rules (Kubernetes rules.Matcher)', () => {
  it.each<[string, Partial<RuleWithOperations>, Partial<RuleTarget>, boolean]>([
    ['exact', {}, {}, true],
    ['another operation', {}, { operation: 'UPDATE' }, false],
    ['operation *', { operations: ['*'] }, { operation: 'DELETE' }, true],
    ['group *', { apiGroups: ['*'] }, { group: 'apps' }, true],
    ['another version', {}, { version: 'v2' }, false],
    ['* leaves subresources out', { resources: ['*'] }, { subresource: 'status' }, false],
    ['* takes every resource', { resources: ['*'] }, { resource: 'secrets' }, true],
    ['*/* takes subresources', { resources: ['*/*'] }, { subresource: 'status' }, true],
    ['*/* takes main resources', { resources: ['*/*'] }, {}, true],
    ['pods/* takes every pod subresource', { resources: ['pods/*'] }, { subresource: 'log' }, true],
    ['pods/* takes pods too', { resources: ['pods/*'] }, {}, true],
    ['*/status', { resources: ['*/status'] }, { resource: 'deployments', subresource: 'status' }, true],
    ['*/status not scale', { resources: ['*/status'] }, { subresource: 'scale' }, false],
    ['pods/status not the pod', { resources: ['pods/status'] }, {}, false],
    ['Namespaced takes namespaced', { scope: 'Namespaced' }, {}, true],
    ['Namespaced refuses cluster-scoped', { scope: 'Namespaced' }, { namespace: '' }, false],
    ['Cluster takes cluster-scoped', { scope: 'Cluster' }, { namespace: '' }, true],
    ['Cluster refuses namespaced', { scope: 'Cluster' }, {}, false],
    ['a namespace is cluster-scoped even with its own name as namespace', { scope: 'Cluster', resources: ['namespaces'] }, { resource: 'namespaces', namespace: 'ns1' }, true],
    ['a namespace is never Namespaced', { scope: 'Namespaced', resources: ['namespaces'] }, { resource: 'namespaces', namespace: 'ns1' }, false],
  ])('%s', (_, r, t, want) => {
    expect(ruleMatches(rule(r), { ...pods, ...t })).toBe(want);
  });
});
