/**
 * pods/eviction over HTTP with the disruption controller running: budgets' status follows their
 * pods, an eviction the budget allows deletes the pod and spends the allowance (recorded in
 * disruptedPods), one it forbids answers 429 with Kubernetes' message and DisruptionBudget cause.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { eventually, expectStatus } from '../../rest/fixtures.js';

const NS = '/api/v1/namespaces/default';
const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const eviction = (name: string, apiVersion = 'policy/v1', extra: Record<string, unknown> = {}) => ({ apiVersion, kind: 'Eviction', metadata: { name }, ...extra });

describe('pods/eviction and the disruption controller', () => {
  let s: TestServer;
  /** A running, ready pod (or not ready) with the labels given. */
  const runningPod = async (name: string, labels: Record<string, string>, ready = true) => {
    const made = await s.post(`${NS}/pods`, { metadata: { name, labels }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] } });
    expect(made.status, made.text).toBe(201);
    const status = { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] };
    const put = await s.put(`${NS}/pods/${name}/status`, { ...made.body, status });
    expect(put.status, put.text).toBe(200);
  };
  const budget = async (name: string) => (await s.get(`${PDBS}/${name}`)).body;
  const settled = (name: string, want: Record<string, number>) =>
    eventually(async () => {
      const b = await budget(name);
      return b.status?.observedGeneration === b.metadata.generation && Object.entries(want).every(([k, v]) => b.status?.[k] === v) ? b : undefined;
    }, `budget ${name} status ${JSON.stringify(want)}`);

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is listed in discovery as a create of policy/v1 Eviction', async () => {
    const entry = (await s.get('/api/v1')).body.resources.find((r: { name: string }) => r.name === 'pods/eviction');
    expect(entry).toMatchObject({ group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'], namespaced: true });
  });

  it('keeps the budget status: expected, healthy, desired, allowed, the condition and the generation', async () => {
    await runningPod('web-1', { app: 'web' });
    await runningPod('web-2', { app: 'web' });
    await runningPod('web-3', { app: 'web' }, false);
    expect((await s.post(PDBS, { metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } })).status).toBe(201);
    const b = await settled('web', { expectedPods: 3, currentHealthy: 2, desiredHealthy: 1, disruptionsAllowed: 1 });
    expect(b.status.conditions).toEqual([expect.objectContaining({ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', observedGeneration: b.metadata.generation })]);
  });

  it('evicts an unready pod without spending the allowance while the budget is met', async () => {
    const r = await s.post(`${NS}/pods/web-3/eviction`, eviction('web-3'));
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ kind: 'Status', status: 'Success', code: 201 });
    expect((await s.get(`${NS}/pods/web-3`)).status).toBe(404);
    expect((await budget('web')).status.disruptionsAllowed).toBe(1);
  });

  it('evicts within the budget (v1beta1 body), then refuses with 429 and the DisruptionBudget cause', async () => {
    const dry = await s.post(`${NS}/pods/web-1/eviction`, eviction('web-1', 'policy/v1beta1', { deleteOptions: { dryRun: ['All'] } }));
    expect(dry.status, dry.text).toBe(201);
    expect((await s.get(`${NS}/pods/web-1`)).status).toBe(200);
    expect((await budget('web')).status.disruptionsAllowed).toBe(1);

    const ok = await s.post(`${NS}/pods/web-1/eviction`, eviction('web-1', 'policy/v1beta1'));
    expect(ok.status, ok.text).toBe(201);
    expect((await s.get(`${NS}/pods/web-1`)).status).toBe(404);

    const refused = await s.post(`${NS}/pods/web-2/eviction`, eviction('web-2'));
    const st = expectStatus(refused, 429, 'TooManyRequests');
    expect(st.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(st.details.causes).toEqual([{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 1 currently' }]);
    expect(refused.headers['retry-after']).toBeUndefined();
    expect((await s.get(`${NS}/pods/web-2`)).status).toBe(200);
    const b = await settled('web', { expectedPods: 1, currentHealthy: 1, disruptionsAllowed: 0 });
    expect(b.status.disruptedPods).toBeUndefined();
    expect(b.status.conditions).toEqual([expect.objectContaining({ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' })]);
  });

  it('fails safe (SyncFailed, 429) when a maxUnavailable budget cannot find its pods\' controller', async () => {
    await runningPod('api-1', { app: 'api' });
    expect((await s.post(PDBS, { metadata: { name: 'api' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'api' } } } })).status).toBe(201);
    // maxUnavailable counts by controllers: a pod without one makes the budget fail safe.
    const failed = await eventually(async () => {
      const b = await budget('api');
      return b.status?.conditions?.[0]?.reason === 'SyncFailed' ? b : undefined;
    }, 'SyncFailed');
    expect(failed.status.conditions[0]).toMatchObject({ status: 'False', message: 'found no controller ref for pod "api-1"' });
    expectStatus(await s.post(`${NS}/pods/api-1/eviction`, eviction('api-1')), 429, 'TooManyRequests');
  });

  it('counts by the controller\'s scale for maxUnavailable, and refuses two budgets for one pod', async () => {
    const rs = await s.post('/apis/apps/v1/namespaces/default/replicasets', {
      metadata: { name: 'db' },
      spec: { replicas: 4, selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'pg' }] } } },
    });
    expect(rs.status, rs.text).toBe(201);
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'db', uid: rs.body.metadata.uid, controller: true };
    for (const name of ['db-1', 'db-2']) {
      const made = await s.post(`${NS}/pods`, { metadata: { name, labels: { app: 'db' }, ownerReferences: [owner] }, spec: { containers: [{ name: 'c', image: 'pg' }] } });
      expect(made.status, made.text).toBe(201);
      expect((await s.put(`${NS}/pods/${name}/status`, { ...made.body, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } })).status).toBe(200);
    }
    expect((await s.post(PDBS, { metadata: { name: 'db' }, spec: { maxUnavailable: '50%', selector: { matchLabels: { app: 'db' } } } })).status).toBe(201);
    await settled('db', { expectedPods: 4, desiredHealthy: 2, currentHealthy: 2, disruptionsAllowed: 0 });

    expect((await s.post(PDBS, { metadata: { name: 'db-too' }, spec: { minAvailable: 0, selector: { matchLabels: { app: 'db' } } } })).status).toBe(201);
    const two = await s.post(`${NS}/pods/db-1/eviction`, eviction('db-1'));
    expect(expectStatus(two, 500, 'InternalError').message).toContain('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  });

  it('deletes a pending pod whatever the budget, and refuses bad requests clearly', async () => {
    expect((await s.post(`${NS}/pods`, { metadata: { name: 'pending', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })).status).toBe(201);
    expect((await s.post(`${NS}/pods/pending/eviction`, eviction('pending'))).status).toBe(201);
    expect((await s.get(`${NS}/pods/pending`)).status).toBe(404);
    expectStatus(await s.post(`${NS}/pods/web-2/eviction`, eviction('other')), 400, 'BadRequest');
    expectStatus(await s.post(`${NS}/pods/absent/eviction`, eviction('absent')), 404, 'NotFound');
    expectStatus(await s.post(`${NS}/pods/web-2/eviction`, eviction('web-2', 'policy/v2')), 400, 'BadRequest');
  });
});
