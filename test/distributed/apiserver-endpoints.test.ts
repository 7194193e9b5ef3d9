/**
 * The `kubernetes` endpoints with two instances on one etcd: each puts its own address in through its
 * master lease, an expired lease's address is removed by the next instance that reconciles, and an
 * instance that stops takes its address out. The advertised addresses are documentation addresses
 * (TEST-NET-1), only written, never contacted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdSkipReason, startEtcd, uniquePrefix, type TestEtcd } from '../helpers/etcd.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const skip = etcdSkipReason();
if (skip) console.warn(skip);

const LEASES = '/apis/coordination.orch.io/v1/namespaces/orch-system/leases';

async function eventually<T>(f: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never: ${what}`);
}

const addresses = (ep: any): string[] => (ep?.subsets ?? []).flatMap((s: any) => s.addresses.map((a: any) => `${a.ip}:${s.ports[0].port}`)).sort();

describe.skipIf(skip)('the kubernetes endpoints across instances', () => {
  let etcd: TestEtcd;
  let a: TestServer;
  let b: TestServer | undefined;

  beforeAll(async () => {
    etcd = await startEtcd();
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await etcd?.close();
  });

  it('hold every live instance, lose an expired one, and lose an instance that stops', async () => {
    const common = { storageBackend: 'etcd' as const, etcdServers: [etcd.endpoint], etcdPrefix: uniquePrefix('endpoints') };
    a = await startTestServer({ ...common, advertiseAddress: '192.0.2.10' });
    const own = `192.0.2.10:${a.server.port}`;
    await eventually(async () => (addresses((await a.get('/api/v1/namespaces/default/endpoints/kubernetes')).body).includes(own) ? true : undefined), 'A in the endpoints');

    // A lease whose holder stopped renewing long ago, as a crashed instance leaves it.
    const stale = {
      metadata: { name: 'orch-apiserver-192-0-2-99-6443', labels: { 'apiserver.orch.io/master-lease': 'true' } },
      spec: { holderIdentity: '192.0.2.99:6443', leaseDurationSeconds: 15, renewTime: '2020-01-01T00:00:00.000000Z' },
    };
    expect((await a.post(LEASES, stale)).status).toBe(201);

    b = await startTestServer({ ...common, advertiseAddress: '192.0.2.11' });
    const other = `192.0.2.11:${b.server.port}`;
    const both = [own, other].sort();
    await eventually(async () => (JSON.stringify(addresses((await a.get('/api/v1/namespaces/default/endpoints/kubernetes')).body)) === JSON.stringify(both) ? true : undefined), 'both in the endpoints, the stale one gone');
    expect((await a.get(`${LEASES}/orch-apiserver-192-0-2-99-6443`)).status).toBe(404);
    const slices = (await a.get('/apis/discovery.orch.io/v1/namespaces/default/endpointslices?labelSelector=orch.io/service-name%3Dkubernetes')).body.items as any[];
    expect(slices.flatMap((s) => s.endpoints.map((e: any) => `${e.addresses[0]}:${s.ports[0].port}`)).sort()).toEqual(both);

    await b.close();
    b = undefined;
    await eventually(async () => (JSON.stringify(addresses((await a.get('/api/v1/namespaces/default/endpoints/kubernetes')).body)) === JSON.stringify([own]) ? true : undefined), 'B out of the endpoints');
  }, 60_000);
});
