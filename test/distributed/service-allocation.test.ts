/**
 * Two server instances on one etcd allocate Service cluster IPs and node ports at the same time:
 * the shared bitmaps, changed by compare-and-swap, never let both hand out the same value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdSkipReason, startEtcd, uniquePrefix, type TestEtcd } from '../helpers/etcd.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const skip = etcdSkipReason();
if (skip) console.warn(skip);

const SVC = '/api/v1/namespaces/default/services';
const nodePortSvc = (name: string) => ({ metadata: { name }, spec: { type: 'NodePort', selector: { app: name }, ports: [{ port: 80 }] } });

describe.skipIf(skip)('Service allocation across two instances on one etcd', () => {
  let etcd: TestEtcd;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    etcd = await startEtcd();
    // Room for exactly what the test creates, so any double allocation leaves someone without.
    const common = {
      storageBackend: 'etcd' as const,
      etcdServers: [etcd.endpoint],
      etcdPrefix: uniquePrefix('svc'),
      serviceClusterIPRange: '10.110.0.0/25',
      serviceNodePortRange: '30000-30124',
    };
    [a, b] = await Promise.all([startTestServer(common), startTestServer(common)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await etcd?.close();
  });

  it('never hands out the same cluster IP or node port twice', async () => {
    // A /25 holds 126 addresses, one of them the kubernetes Service's; the node port range 125 ports.
    const replies = await Promise.all(Array.from({ length: 125 }, (_, i) => (i % 2 ? a : b).post(SVC, nodePortSvc(`dist-${i}`))));
    for (const r of replies) expect(r.status, r.text).toBe(201);
    expect(new Set(replies.map((r) => r.body.spec.clusterIP)).size).toBe(125);
    expect(new Set(replies.map((r) => r.body.spec.ports[0].nodePort)).size).toBe(125);
    // Both instances now see a full range.
    for (const s of [a, b]) {
      const full = await s.post(SVC, nodePortSvc(`dist-full-${s === a ? 'a' : 'b'}`));
      expect(full.status).toBe(500);
      expect(full.body.message).toContain('range is full');
    }
  });

  it('what one instance releases, the other can take', async () => {
    const freed = (await a.get(`${SVC}/dist-0`)).body.spec.clusterIP as string;
    expect((await a.del(`${SVC}/dist-0`)).status).toBe(200);
    const r = await b.post(SVC, { metadata: { name: 'dist-reuse' }, spec: { selector: { app: 'x' }, ports: [{ port: 80 }], clusterIP: freed } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.clusterIP).toBe(freed);
  });
});
