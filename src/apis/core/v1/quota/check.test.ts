import { describe, expect, it } from 'vitest';
import { evaluateQuotas, type QuotaInfo } from './check.js';
import { objectUsage, podInScope, usageToList, type QuotaPod } from './usage.js';

const SG = 'storage.k8s.io';
const q = (name: string, hard: Record<string, string>, used: Record<string, string>, spec: QuotaInfo['spec'] = {}): QuotaInfo => ({ metadata: { name }, spec: { hard, ...spec }, status: { hard, used } });
const container = (name: string, requests?: Record<string, string>, limits?: Record<string, string>) => ({ name, resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } });
const pod = (spec: QuotaPod['spec'] = {}): QuotaPod => ({ metadata: {}, spec: { containers: [container('app')], ...spec } });
const check = (quotas: QuotaInfo[], resource: string, obj: unknown, old?: unknown, group = '') =>
  evaluateQuotas(quotas, { group, resource, object: obj, usage: objectUsage(group, resource, obj, SG), ...(old ? { oldUsage: objectUsage(group, resource, old, SG) } : {}), storageGroup: SG });

describe('quota usage', () => {
  it.each([
    ['a best-effort pod', pod(), { 'count/pods': '1', pods: '1' }],
    [
      'containers summed, init raised, overhead added',
      pod({
        containers: [container('a', { cpu: '100m', memory: '1Gi', 'hugepages-2Mi': '2Mi', 'example.com/gpu': '1' }, { cpu: '1' }), container('b', { cpu: '200m' }, { cpu: '1' })],
        initContainers: [container('i', { cpu: '1' })],
        overhead: { cpu: '10m' },
      }),
      { 'count/pods': '1', cpu: '1010m', 'hugepages-2Mi': '2Mi', 'limits.cpu': '2010m', memory: '1Gi', pods: '1', 'requests.cpu': '1010m', 'requests.example.com/gpu': '1', 'requests.hugepages-2Mi': '2Mi', 'requests.memory': '1Gi' },
    ],
  ])('of %s', (_what, p, want) => {
    expect(usageToList(objectUsage('', 'pods', p, SG))).toEqual(want);
  });

  it.each([
    ['ClusterIP', { type: 'ClusterIP', ports: [{}] }, { 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '0' }],
    ['NodePort', { type: 'NodePort', ports: [{}, {}] }, { 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '2' }],
    ['LoadBalancer without node ports', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ nodePort: 30000 }, {}] }, { 'count/services': '1', services: '1', 'services.loadbalancers': '1', 'services.nodeports': '1' }],
  ])('of a %s service', (_what, spec, want) => {
    expect(usageToList(objectUsage('', 'services', { spec }, SG))).toEqual(want);
  });

  it('of a claim, per storage class', () => {
    expect(usageToList(objectUsage('', 'persistentvolumeclaims', { metadata: {}, spec: { storageClassName: 'gold', resources: { requests: { storage: '5Gi' } } } }, SG))).toEqual({
      'count/persistentvolumeclaims': '1',
      'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
      'gold.storageclass.storage.k8s.io/requests.storage': '5Gi',
      persistentvolumeclaims: '1',
      'requests.storage': '5Gi',
    });
  });

  it('of other objects: their count, with the legacy name where there is one', () => {
    expect(usageToList(objectUsage('', 'secrets', {}, SG))).toEqual({ 'count/secrets': '1', secrets: '1' });
    expect(usageToList(objectUsage('apps', 'deployments', {}, SG))).toEqual({ 'count/deployments.apps': '1' });
  });

  it.each([
    ['Terminating', 'Exists', undefined, pod({ activeDeadlineSeconds: 10 }), true],
    ['Terminating', 'Exists', undefined, pod(), false],
    ['NotTerminating', 'Exists', undefined, pod(), true],
    ['BestEffort', 'Exists', undefined, pod(), true],
    ['NotBestEffort', 'Exists', undefined, pod({ containers: [container('a', undefined, { memory: '1Gi' })] }), true],
    ['PriorityClass', 'In', ['high'], pod({ priorityClassName: 'high' }), true],
    ['PriorityClass', 'NotIn', ['high'], pod({ priorityClassName: 'high' }), false],
    ['PriorityClass', 'Exists', undefined, pod(), false],
    ['CrossNamespacePodAffinity', 'Exists', undefined, pod({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ namespaces: ['other'] }] } } }), true],
    ['CrossNamespacePodAffinity', 'Exists', undefined, pod(), false],
  ])('scope %s %s %j', (scopeName, operator, values, p, want) => {
    expect(podInScope(p, { scopeName, operator, ...(values ? { values } : {}) })).toBe(want);
  });
});

describe('evaluateQuotas', () => {
  it.each([
    ['exceeded', [q('pods', { pods: '1' }, { pods: '1' })], pod(), 'exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1'],
    ['status not yet filled', [{ metadata: { name: 'new' }, spec: { hard: { pods: '1' } }, status: { hard: { pods: '1' } } }], pod(), 'status unknown for quota: new, resources: pods'],
    ['requests missing', [q('c', { cpu: '1', 'limits.memory': '1Gi' }, { cpu: '0', 'limits.memory': '0' })], pod({ containers: [container('b'), container('a', { cpu: '1' })] }), 'failed quota: c: must specify cpu for: b; limits.memory for: a,b'],
    ['the first quota exceeded', [q('a', { 'requests.memory': '1Gi' }, { 'requests.memory': '512Mi' }), q('b', { 'requests.memory': '10Gi' }, { 'requests.memory': '0' })], pod({ containers: [container('a', { memory: '1Gi' })] }), 'exceeded quota: a, requested: requests.memory=1Gi, used: requests.memory=512Mi, limited: requests.memory=1Gi'],
  ])('refuses: %s', (_what, quotas, p, message) => {
    expect(check(quotas, 'pods', p)).toEqual({ allowed: false, message });
  });

  it('charges each quota the object falls under, only what it limits', () => {
    const v = check([q('all', { pods: '5', 'requests.cpu': '2' }, { pods: '1', 'requests.cpu': '0' }), q('be', { pods: '1' }, { pods: '0' }, { scopes: ['BestEffort'] })], 'pods', pod({ containers: [container('a', { cpu: '1' })] }));
    expect(v.allowed && [...v.charges].map(([n, u]) => [n, usageToList(u)])).toEqual([['all', { pods: '1', 'requests.cpu': '1' }]]);
  });

  it('counts the growth of a claim on update, and nothing for a scoped quota of another kind', () => {
    const claim = (size: string) => ({ metadata: {}, spec: { resources: { requests: { storage: size } } } });
    const quotas = [q('st', { 'requests.storage': '10Gi' }, { 'requests.storage': '8Gi' })];
    expect(check(quotas, 'persistentvolumeclaims', claim('5Gi'), claim('4Gi'))).toMatchObject({ allowed: true });
    expect(check(quotas, 'persistentvolumeclaims', claim('7Gi'), claim('4Gi'))).toEqual({ allowed: false, message: 'exceeded quota: st, requested: requests.storage=3Gi, used: requests.storage=8Gi, limited: requests.storage=10Gi' });
    expect(check([q('be', { pods: '0' }, { pods: '0' }, { scopes: ['BestEffort'] })], 'configmaps', {})).toEqual({ allowed: true, charges: new Map() });
  });
});
