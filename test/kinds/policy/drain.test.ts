/**
 * `kubectl drain` against PodDisruptionBudgets (k8s.io, kubectl 1.27 and the newest installed), the
 * disruption controller keeping the budgets' status: a drain the budget allows cordons the node and
 * evicts its pods; one the budget forbids keeps the pod and shows Kubernetes' 429 message. Nodes,
 * workloads and pods are made by the test (no node agent runs: pods are marked running and ready
 * through their status). Skips, saying why, when kubectl is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlPicks, kubectlSandbox, type KubectlSandbox } from '../../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { eventually } from '../../rest/fixtures.js';

const KUBECTLS = kubectlPicks();
if (KUBECTLS.length === 0) console.log('kubectl drain tests skipped: no kubectl found on PATH');

describe.each(KUBECTLS.map((k) => [k.label, k] as const))('kubectl drain with disruption budgets (%s, k8s.io)', (_label, k) => {
  let s: TestServer;
  let box: KubectlSandbox;
  const NS = '/api/v1/namespaces/default';
  const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
    box = kubectlSandbox(s.server.kubeconfig(), 'kubectl-drain-');
  });
  afterAll(async () => {
    await s.close();
    box.remove();
  });
  const kubectl = (...args: string[]) => box.run(k.bin, args, 60_000);

  /** A ReplicaSet of `replicas` and its pods on the nodes given, running and ready. */
  const workload = async (app: string, nodes: string[]) => {
    const rs = await s.post('/apis/apps/v1/namespaces/default/replicasets', {
      metadata: { name: app },
      spec: { replicas: nodes.length, selector: { matchLabels: { app } }, template: { metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    expect(rs.status, rs.text).toBe(201);
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: app, uid: rs.body.metadata.uid, controller: true, blockOwnerDeletion: true };
    for (const [i, node] of nodes.entries()) {
      const made = await s.post(`${NS}/pods`, { metadata: { name: `${app}-${i}`, labels: { app }, ownerReferences: [owner] }, spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx' }] } });
      expect(made.status, made.text).toBe(201);
      const ready = await s.put(`${NS}/pods/${app}-${i}/status`, { ...made.body, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
      expect(ready.status, ready.text).toBe(200);
    }
  };
  const node = async (name: string) => expect((await s.post('/api/v1/nodes', { metadata: { name } })).status).toBe(201);
  const budget = async (name: string, app: string, minAvailable: number, allowed: number) => {
    expect((await s.post(PDBS, { metadata: { name }, spec: { minAvailable, selector: { matchLabels: { app } } } })).status).toBe(201);
    await eventually(async () => {
      const b = (await s.get(`${PDBS}/${name}`)).body;
      return b.status?.observedGeneration === 1 && b.status.expectedPods > 0 && b.status.disruptionsAllowed === allowed ? b : undefined;
    }, `budget ${name} allowing ${allowed}`);
  };

  it('cordons the node and evicts its pods when the budget allows it', async () => {
    await node('n1');
    await node('n2');
    await workload('web', ['n1', 'n1', 'n2']);
    await budget('web', 'web', 1, 2);
    const drained = await kubectl('drain', 'n1', '--timeout=30s');
    expect(drained.code, drained.stderr).toBe(0);
    expect(drained.stdout).toContain('node/n1 cordoned');
    expect(drained.stdout).toMatch(/pod\/web-0 evicted/);
    expect(drained.stdout).toMatch(/pod\/web-1 evicted/);
    expect(drained.stdout).toContain('node/n1 drained');
    expect((await s.get('/api/v1/nodes/n1')).body.spec.unschedulable).toBe(true);
    const left = (await s.get(`${NS}/pods?labelSelector=app%3Dweb`)).body.items.map((p: { metadata: { name: string } }) => p.metadata.name);
    expect(left).toEqual(['web-2']);
  });

  it('keeps the pod and reports the budget when it allows no disruption', async () => {
    await node('n3');
    await workload('db', ['n3']);
    await budget('db', 'db', 1, 0);
    const refused = await kubectl('drain', 'n3', '--timeout=2s');
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain("Cannot evict pod as it would violate the pod's disruption budget.");
    expect((await s.get(`${NS}/pods/db-0`)).status).toBe(200);
    expect((await s.get('/api/v1/nodes/n3')).body.spec.unschedulable).toBe(true);
  });
});
