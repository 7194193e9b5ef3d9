/**
 * TaintNodesByCondition and StorageObjectInUseProtection over HTTP, under both API domains; the
 * protection finalizers are released by the storage protection controllers once nothing uses the
 * object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { created, MERGE, namespace, pod } from './helpers.js';

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe.each([
  ['orch.io', 'orch.io', 'node.orch.io'],
  ['k8s.io', 'kubernetes.io', 'node.kubernetes.io'],
])('under %s', (apiDomain, labelDomain, nodeDomain) => {
  let s: TestServer;
  const PVCS = '/api/v1/namespaces/st/persistentvolumeclaims';
  beforeAll(async () => {
    s = await startTestServer({ apiDomain });
    await namespace(s, 'st');
  });
  afterAll(() => s.close());

  it('TaintNodesByCondition: a new node is not ready for scheduling until told so', async () => {
    const node = await created(s.post('/api/v1/nodes', { metadata: { name: 'n1' }, spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } }));
    expect(node.spec.taints).toEqual([
      { key: 'dedicated', value: 'db', effect: 'NoSchedule' },
      { key: `${nodeDomain}/not-ready`, effect: 'NoSchedule' },
    ]);
    // Only on create: the node lifecycle controller (or anyone) may remove it.
    const updated = await s.patch('/api/v1/nodes/n1', { spec: { taints: null } }, MERGE);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.spec.taints).toBeUndefined();
  });

  it('StorageObjectInUseProtection: claims and volumes are protected while in use', async () => {
    const claim = await created(s.post(PVCS, { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }));
    expect(claim.metadata.finalizers).toEqual([`${labelDomain}/pvc-protection`]);
    // A scheduled pod mounts it: deleting the claim waits.
    await created(s.post('/api/v1/namespaces/st/pods', pod('user', { nodeName: 'n1', volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }] })));
    const deleting = await s.del(`${PVCS}/data`);
    expect(deleting.status, deleting.text).toBe(200);
    expect(deleting.body.metadata.deletionTimestamp).toBeTruthy();
    await new Promise((r) => setTimeout(r, 100));
    expect((await s.get(`${PVCS}/data`)).status).toBe(200);
    // The pod goes: the claim goes.
    expect((await s.del('/api/v1/namespaces/st/pods/user')).status).toBe(200);
    await eventually(async () => (await s.get(`${PVCS}/data`)).status === 404, 'the claim is gone');

    const volume = await created(
      s.post('/api/v1/persistentvolumes', { metadata: { name: 'pv1' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv1' } } }),
    );
    expect(volume.metadata.finalizers).toEqual([`${labelDomain}/pv-protection`]);
    // Bound: deletion waits until it is released.
    expect((await s.patch('/api/v1/persistentvolumes/pv1/status', { status: { phase: 'Bound' } }, MERGE)).status).toBe(200);
    expect((await s.del('/api/v1/persistentvolumes/pv1')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect((await s.get('/api/v1/persistentvolumes/pv1')).status).toBe(200);
    expect((await s.patch('/api/v1/persistentvolumes/pv1/status', { status: { phase: 'Released' } }, MERGE)).status).toBe(200);
    await eventually(async () => (await s.get('/api/v1/persistentvolumes/pv1')).status === 404, 'the volume is gone');
  });

  it('StorageObjectInUseProtection: a claim no pod uses is deleted at once (the controller releases it)', async () => {
    await created(s.post(PVCS, { metadata: { name: 'free' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }));
    expect((await s.del(`${PVCS}/free`)).status).toBe(200);
    await eventually(async () => (await s.get(`${PVCS}/free`)).status === 404, 'the free claim is gone');
  });
});
