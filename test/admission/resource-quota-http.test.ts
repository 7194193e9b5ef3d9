/**
 * ResourceQuota over HTTP: the controller fills a quota's status, admission refuses what would pass
 * it with Kubernetes' messages and charges what it admits, concurrent creates never overshoot, a
 * deletion gives usage back, and `kubectl create quota` (1.27 and newest) works under k8s.io.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlPicks, kubectlSandbox, type KubectlSandbox } from '../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { created, forbidden, namespace, pod } from './helpers.js';

const NS = '/api/v1/namespaces/quota';
const until = async <T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('ResourceQuota', () => {
  let s: TestServer;
  const quota = async (name: string) => (await s.get(`${NS}/resourcequotas/${name}`)).body;
  const filled = (name: string) => until(() => quota(name), (q) => q.status?.hard !== undefined && q.status?.used !== undefined);
  beforeAll(async () => {
    s = await startTestServer();
    await namespace(s, 'quota');
  });
  afterAll(() => s.close());

  it('fills status, refuses past the limit and gives usage back on delete', async () => {
    await created(s.post(`${NS}/resourcequotas`, { metadata: { name: 'objects' }, spec: { hard: { configmaps: '2', 'count/secrets': '5', services: '3', 'services.nodeports': '1' } } }));
    const q = await filled('objects');
    expect(q.status).toEqual({ hard: { configmaps: '2', 'count/secrets': '5', services: '3', 'services.nodeports': '1' }, used: { configmaps: '0', 'count/secrets': '0', services: '0', 'services.nodeports': '0' } });
    await created(s.post(`${NS}/configmaps`, { metadata: { name: 'a' } }));
    await created(s.post(`${NS}/configmaps`, { metadata: { name: 'b' } }));
    expect((await quota('objects')).status.used.configmaps).toBe('2');
    await forbidden(s.post(`${NS}/configmaps`, { metadata: { name: 'c' } }), 'configmaps "c" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=2, limited: configmaps=2');
    // A dry run is checked but charges nothing.
    await created(s.post(`${NS}/secrets?dryRun=All`, { metadata: { name: 's' } }));
    expect((await quota('objects')).status.used['count/secrets']).toBe('0');
    await forbidden(
      s.post(`${NS}/services`, { metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] } }),
      'services "np" is forbidden: exceeded quota: objects, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1',
    );
    expect((await s.del(`${NS}/configmaps/a`)).status).toBe(200);
    await until(() => quota('objects'), (x) => x.status.used.configmaps === '1');
    await created(s.post(`${NS}/configmaps`, { metadata: { name: 'c' } }));
  });

  it('asks pods under a compute quota to name their requests, and counts them', async () => {
    await created(s.post(`${NS}/resourcequotas`, { metadata: { name: 'compute' }, spec: { hard: { 'requests.cpu': '1', 'limits.memory': '1Gi' } } }));
    await filled('compute');
    await forbidden(s.post(`${NS}/pods`, pod('bare')), 'pods "bare" is forbidden: failed quota: compute: must specify limits.memory for: app; requests.cpu for: app');
    const sized = (name: string, cpu: string) => pod(name, { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu }, limits: { memory: '256Mi' } } }] });
    await created(s.post(`${NS}/pods`, sized('p1', '600m')));
    await forbidden(s.post(`${NS}/pods`, sized('p2', '500m')), 'pods "p2" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1');
    expect((await quota('compute')).status.used).toEqual({ 'limits.memory': '256Mi', 'requests.cpu': '600m' });
  });

  it('lets no more than the limit through when creates race', async () => {
    await created(s.post('/api/v1/namespaces', { metadata: { name: 'race' } }));
    await created(s.post('/api/v1/namespaces/race/resourcequotas', { metadata: { name: 'few' }, spec: { hard: { pods: '3' } } }));
    await until(async () => (await s.get('/api/v1/namespaces/race/resourcequotas/few')).body, (q) => q.status?.used?.pods === '0');
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => s.post('/api/v1/namespaces/race/pods', pod(`p${i}`))));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(3);
    expect(replies.filter((r) => r.status === 403).map((r) => r.body.message)).toContainEqual(expect.stringMatching(/exceeded quota: few, requested: pods=1, used: pods=3, limited: pods=3$/));
    expect((await s.get('/api/v1/namespaces/race/resourcequotas/few')).body.status.used).toEqual({ pods: '3' });
  });

  it('counts only pods in its scopes', async () => {
    await created(s.post('/api/v1/namespaces', { metadata: { name: 'scoped' } }));
    await created(s.post('/api/v1/namespaces/scoped/resourcequotas', { metadata: { name: 'be' }, spec: { hard: { pods: '1' }, scopes: ['BestEffort'] } }));
    await until(async () => (await s.get('/api/v1/namespaces/scoped/resourcequotas/be')).body, (q) => q.status?.used?.pods === '0');
    await created(s.post('/api/v1/namespaces/scoped/pods', pod('be1')));
    await forbidden(s.post('/api/v1/namespaces/scoped/pods', pod('be2')), 'pods "be2" is forbidden: exceeded quota: be, requested: pods=1, used: pods=1, limited: pods=1');
    // Not best-effort: outside the quota's scope.
    await created(s.post('/api/v1/namespaces/scoped/pods', pod('sized', { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '10m' } } }] })));
  });
});

const kubectls = kubectlPicks();
describe.skipIf(kubectls.length === 0)('kubectl create quota (k8s.io)', () => {
  let s: TestServer;
  let box: KubectlSandbox;
  beforeAll(async () => {
    s = await startTestServer({ tls: true, apiDomain: 'k8s.io' });
    box = kubectlSandbox(s.server.kubeconfig(), 'kubectl-quota-');
  });
  afterAll(async () => {
    await s.close();
    box.remove();
  });

  it.each(kubectls.map((k) => [k.label, k.bin, k.minor] as const))('%s creates a quota and shows its refusal', async (_label, bin, minor) => {
    const ns = `q${minor < 0 ? 'path' : minor}`;
    expect((await box.run(bin, ['create', 'namespace', ns])).code).toBe(0);
    const made = await box.run(bin, ['create', 'quota', 'small', '-n', ns, '--hard=configmaps=2,pods=4']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('resourcequota/small created');
    // The namespace's root CA configmap may or may not exist here: fill the quota up to its limit first.
    await until(async () => (await s.get(`/api/v1/namespaces/${ns}/resourcequotas/small`)).body, (q) => q.status?.used?.configmaps !== undefined);
    for (let i = 0; ; i++) {
      const r = await box.run(bin, ['create', 'configmap', `c${i}`, '-n', ns]);
      if (r.code !== 0) {
        expect(r.stderr).toMatch(new RegExp(`^error: failed to create configmap: configmaps "c${i}" is forbidden: exceeded quota: small, requested: configmaps=1, used: configmaps=2, limited: configmaps=2`));
        break;
      }
      expect(i).toBeLessThan(2);
    }
    const got = await box.run(bin, ['get', 'quota', 'small', '-n', ns]);
    expect(got.stdout).toMatch(/small\s+\S+\s+configmaps: 2\/2, pods: 0\/4/);
  });
});
