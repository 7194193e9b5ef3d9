import { describe, expect, it } from 'vitest';
import type { FlowSchema } from '../apis/flowcontrol/types.js';
import { createApiNames } from '../machinery/api-names.js';
import type { RequestInfo } from '../machinery/request-info.js';
import type { UserInfo } from '../machinery/user-info.js';
import { bootstrapConfiguration } from './bootstrap.js';
import { byPrecedence, flowDistinguisher, matchesFlowSchema, matchesNonResourceUrl, type RequestDigest } from './matching.js';

const resource = (verb: string, apiGroup: string, res: string, namespace = '', subresource = ''): RequestInfo =>
  ({ isResourceRequest: true, path: '', verb, apiPrefix: 'apis', apiGroup, apiVersion: 'v1', namespace, inNamespace: namespace !== '', resource: res, subresource, name: '', parts: [] }) as RequestInfo;
const nonResource = (verb: string, path: string): RequestInfo => ({ isResourceRequest: false, path, verb });
const user = (username: string, ...groups: string[]): UserInfo => ({ username, groups });

const boot = bootstrapConfiguration(createApiNames('orch.io'));
const allSchemas = byPrecedence([...boot.mandatoryFlowSchemas, ...boot.suggestedFlowSchemas]);
const classify = (d: RequestDigest): string | undefined => allSchemas.find((fs) => matchesFlowSchema(d, fs))?.metadata.name;

describe('classification by the bootstrap schemas (lowest matchingPrecedence wins)', () => {
  it.each([
    ['system:masters', { info: resource('delete', 'apps', 'deployments', 'default'), user: user('admin', 'system:masters', 'system:authenticated') }, 'exempt'],
    ['a probe by anyone', { info: nonResource('get', '/readyz'), user: user('system:anonymous', 'system:unauthenticated') }, 'probes'],
    ['a probe sub-path (a rule URL matches its sub-paths too)', { info: nonResource('get', '/readyz/etcd'), user: user('system:anonymous', 'system:unauthenticated') }, 'probes'],
    ['a probe written to', { info: nonResource('post', '/readyz'), user: user('system:anonymous', 'system:unauthenticated') }, 'global-default'],
    ['a node updating its status', { info: resource('patch', '', 'nodes', '', 'status'), user: user('system:node:n1', 'system:nodes') }, 'system-node-high'],
    ['a node reading pods', { info: resource('list', '', 'pods', 'default'), user: user('system:node:n1', 'system:nodes') }, 'system-nodes'],
    ['the scheduler renewing its lease', { info: resource('update', 'coordination.orch.io', 'leases', 'orch-system'), user: user('system:kube-scheduler') }, 'system-leader-election'],
    ['the scheduler listing pods', { info: resource('list', '', 'pods'), user: user('system:kube-scheduler') }, 'kube-scheduler'],
    ['a system service account', { info: resource('get', '', 'secrets', 'orch-system'), user: user('system:serviceaccount:orch-system:gc', 'system:serviceaccounts') }, 'orch-system-service-accounts'],
    ['a system service account on endpoints', { info: resource('update', '', 'endpoints', 'orch-system'), user: user('system:serviceaccount:orch-system:endpoint-controller') }, 'endpoint-controller'],
    ['another service account', { info: resource('get', '', 'secrets', 'team'), user: user('system:serviceaccount:team:bot', 'system:serviceaccounts', 'system:authenticated') }, 'service-accounts'],
    ['a service account whose namespace only starts like orch-system', { info: resource('get', '', 'secrets', 'x'), user: user('system:serviceaccount:orch-systemx:bot', 'system:serviceaccounts') }, 'service-accounts'],
    ['an ordinary user', { info: resource('get', '', 'configmaps', 'team'), user: user('jane', 'system:authenticated') }, 'global-default'],
    ['a user in no group', { info: resource('get', '', 'configmaps', 'team'), user: user('nobody') }, undefined],
  ] as [string, RequestDigest, string | undefined][])('%s → %s', (_, digest, want) => {
    expect(classify(digest)).toBe(want);
  });
});

const schema = (rules: NonNullable<FlowSchema['spec']['rules']>, extra: Partial<FlowSchema['spec']> = {}): FlowSchema => ({
  metadata: { name: 's' },
  spec: { priorityLevelConfiguration: { name: 'l' }, matchingPrecedence: 100, rules, ...extra },
  status: {},
});
const everyone = [{ kind: 'Group', group: { name: '*' } }];

describe('rules', () => {
  const digest = (info: RequestInfo): RequestDigest => ({ info, user: user('u', 'g') });
  it('resource rules: verb, group, resource/subresource, namespaces, clusterScope', () => {
    const fs = schema([{ subjects: everyone, resourceRules: [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'], namespaces: ['team'], clusterScope: false }] }]);
    expect(matchesFlowSchema(digest(resource('get', 'apps', 'deployments', 'team', 'scale')), fs)).toBe(true);
    expect(matchesFlowSchema(digest(resource('get', 'apps', 'deployments', 'team')), fs)).toBe(false);
    expect(matchesFlowSchema(digest(resource('list', 'apps', 'deployments', 'team', 'scale')), fs)).toBe(false);
    expect(matchesFlowSchema(digest(resource('get', 'apps', 'deployments', 'other', 'scale')), fs)).toBe(false);
    expect(matchesFlowSchema(digest(resource('get', 'apps', 'deployments', '', 'scale')), fs)).toBe(false);
    const cluster = schema([{ subjects: everyone, resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: [], clusterScope: true }] }]);
    expect(matchesFlowSchema(digest(resource('get', '', 'nodes')), cluster)).toBe(true);
    expect(matchesFlowSchema(digest(resource('get', '', 'pods', 'team')), cluster)).toBe(false);
    // A resource rule never matches a non-resource request, and the reverse.
    expect(matchesFlowSchema(digest(nonResource('get', '/healthz')), cluster)).toBe(false);
  });

  it('a wildcard counts only alone in its list', () => {
    const fs = schema([{ subjects: everyone, resourceRules: [{ verbs: ['get', '*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }]);
    expect(matchesFlowSchema(digest(resource('list', '', 'pods', 'team')), fs)).toBe(false);
  });

  it('subjects: user, group, service account by name or *', () => {
    const rules = (subjects: NonNullable<FlowSchema['spec']['rules']>[number]['subjects']) => schema([{ subjects, nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }]);
    const info = nonResource('get', '/x');
    expect(matchesFlowSchema({ info, user: user('jane') }, rules([{ kind: 'User', user: { name: 'jane' } }]))).toBe(true);
    expect(matchesFlowSchema({ info, user: user('joe') }, rules([{ kind: 'User', user: { name: 'jane' } }]))).toBe(false);
    expect(matchesFlowSchema({ info, user: user('joe') }, rules([{ kind: 'User', user: { name: '*' } }]))).toBe(true);
    expect(matchesFlowSchema({ info, user: user('joe', 'devs') }, rules([{ kind: 'Group', group: { name: 'devs' } }]))).toBe(true);
    const sa = rules([{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: 'bot' } }]);
    expect(matchesFlowSchema({ info, user: user('system:serviceaccount:ns:bot') }, sa)).toBe(true);
    expect(matchesFlowSchema({ info, user: user('system:serviceaccount:ns:bot2') }, sa)).toBe(false);
    const anySa = rules([{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: '*' } }]);
    expect(matchesFlowSchema({ info, user: user('system:serviceaccount:ns:other') }, anySa)).toBe(true);
    expect(matchesFlowSchema({ info, user: undefined }, rules([{ kind: 'User', user: { name: '*' } }]))).toBe(true);
  });

  it.each([
    [['/healthz'], '/healthz', true],
    [['/healthz'], '/healthz/etcd', true],
    [['/healthz/*'], '/healthz/etcd', true],
    [['/healthz/*'], '/healthz', false],
    [['/apis/*'], '/apis/apps/v1', true],
    [['/apis'], '/apisx', false],
    [['*'], '/anything', true],
  ])('non-resource URLs %j match %s: %s', (urls, path, want) => {
    expect(matchesNonResourceUrl(urls, path)).toBe(want);
  });

  it('sorts by matchingPrecedence, then name', () => {
    const named = (name: string, p: number): FlowSchema => ({ ...schema([], { matchingPrecedence: p }), metadata: { name } });
    expect(byPrecedence([named('b', 10), named('a', 10), named('c', 5)]).map((s) => s.metadata.name)).toEqual(['c', 'a', 'b']);
  });

  it('distinguishes flows by user or by namespace', () => {
    const d: RequestDigest = { info: resource('get', '', 'pods', 'team'), user: user('jane') };
    expect(flowDistinguisher(d, { type: 'ByUser' })).toBe('jane');
    expect(flowDistinguisher(d, { type: 'ByNamespace' })).toBe('team');
    expect(flowDistinguisher(d, undefined)).toBe('');
  });
});
