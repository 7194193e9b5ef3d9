/**
 * The life of allocations: many creates at once get distinct addresses, allocations survive a
 * restart on a SQLite data directory, deletes and failed writes give values back, dry runs take
 * nothing, and a full range says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { created as createdAt, invalidCauses, svc } from './service-helpers.js';

/**
 * The Services under test live in a namespace of their own: `default` holds the kubernetes Service,
 * which takes the first address of every range (as in Kubernetes) and must survive deletecollection.
 */
const SVC = '/api/v1/namespaces/alloc/services';
const created = (s: TestServer, body: Record<string, unknown>, path = SVC): Promise<any> => createdAt(s, body, path);
async function withNamespaces(s: TestServer, ...names: string[]): Promise<TestServer> {
  for (const name of names) {
    const r = await s.post('/api/v1/namespaces', { metadata: { name } });
    if (r.status !== 201 && r.status !== 409) throw new Error(`namespace ${name}: ${r.status} ${r.text}`);
  }
  return s;
}

describe.each([
  ['memory', {}],
  ['sqlite', { dataDir: true as const }],
])('200 concurrent creates (%s store)', (_label, opts) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await withNamespaces(await startTestServer({ ...opts, serviceClusterIPRange: '10.100.0.0/24', serviceNodePortRange: '30000-30299' }), 'alloc');
  });
  afterAll(() => s.close());

  it('get 200 distinct cluster IPs and node ports', async () => {
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => s.post(SVC, svc(`burst-${i}`, { type: 'NodePort' }))));
    for (const r of replies) expect(r.status, r.text).toBe(201);
    const ips = replies.map((r) => r.body.spec.clusterIP as string);
    expect(new Set(ips).size).toBe(200);
    for (const ip of ips) expect(ip).toMatch(/^10\.100\.0\.(\d+)$/);
    const ports = replies.map((r) => r.body.spec.ports[0].nodePort as number);
    expect(new Set(ports).size).toBe(200);
    // What the store holds agrees with what was answered.
    const listed = await s.get(SVC);
    expect(new Set(listed.body.items.map((i: any) => i.spec.clusterIP)).size).toBe(200);
  });
});

describe('allocations survive a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-svc-restart-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const opts = { dataDir: dir, serviceClusterIPRange: '10.101.0.0/28', serviceNodePortRange: '30000-30013' };

  it('a new server on the same data directory never hands out what the old one did', async () => {
    const first = await withNamespaces(await startTestServer(opts), 'alloc');
    const before = await Promise.all(Array.from({ length: 7 }, (_, i) => created(first, svc(`r1-${i}`, { type: 'NodePort' }))));
    await first.close();
    const second = await startTestServer(opts);
    try {
      const after = await Promise.all(Array.from({ length: 6 }, (_, i) => created(second, svc(`r2-${i}`, { type: 'NodePort' }))));
      const all = [...before, ...after];
      // A /28 holds 14 addresses: the kubernetes Service's and these 13 are all in use, each once.
      expect(new Set(all.map((x) => x.spec.clusterIP)).size).toBe(13);
      expect(all.map((x) => x.spec.clusterIP)).not.toContain('10.101.0.1');
      expect(new Set(all.map((x) => x.spec.ports[0].nodePort)).size).toBe(13);
      const full = await second.post(SVC, svc('r2-full'));
      expect(full.status).toBe(500);
      expect(full.body.message).toBe('Internal error occurred: failed to allocate a serviceIP: range is full');
    } finally {
      await second.close();
    }
  });
});

describe('giving values back', () => {
  let s: TestServer;
  beforeAll(async () => {
    // Six addresses, four of them taken (the kubernetes Service's .1 and three elsewhere), and two node ports.
    s = await withNamespaces(await startTestServer({ serviceClusterIPRange: '10.102.0.0/29', serviceNodePortRange: '30000-30001' }), 'alloc', 'elsewhere');
    for (const ip of ['10.102.0.2', '10.102.0.3', '10.102.0.4']) await created(s, svc(`filler-${ip.split('.')[3]}`, { clusterIP: ip }), '/api/v1/namespaces/elsewhere/services');
  });
  afterAll(() => s.close());

  it('a deleted Service frees its IP and node port for the next one', async () => {
    const a = await created(s, svc('a', { type: 'NodePort' }));
    await created(s, svc('b', { type: 'NodePort' }));
    const third = await s.post(SVC, svc('c', { type: 'NodePort' }));
    expect(third.status).toBe(500);
    expect(third.body.message).toBe('Internal error occurred: failed to allocate a serviceIP: range is full');
    expect((await s.del(`${SVC}/a`)).status).toBe(200);
    const c = await created(s, svc('c', { type: 'NodePort' }));
    expect(c.spec.clusterIP).toBe(a.spec.clusterIP);
    expect(c.spec.ports[0].nodePort).toBe(a.spec.ports[0].nodePort);
    // One node port is left (b holds the other): a Service needing two finds the range full.
    await s.del(`${SVC}/c`);
    const ports = await s.post(SVC, svc('f', { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] }));
    expect(ports.status).toBe(500);
    expect(ports.body.message).toBe('Internal error occurred: failed to allocate a nodePort: range is full');
    // The address taken before the node ports failed went back too.
    await created(s, svc('g', { type: 'ClusterIP' }));
  });

  it('a create refused after allocation gives its values back', async () => {
    await s.request('DELETE', SVC);
    const refused = await s.post(SVC, svc('bad-name', { type: 'NodePort', clusterIP: '10.102.0.5', ports: [{ name: 'Bad', port: 80, nodePort: 30000 }] }));
    expect(refused.status).toBe(422);
    const ok = await created(s, svc('good', { type: 'NodePort', clusterIP: '10.102.0.5', ports: [{ port: 80, nodePort: 30000 }] }));
    expect(ok.spec.clusterIP).toBe('10.102.0.5');
  });

  it('an update refused after allocation gives its values back', async () => {
    await s.request('DELETE', SVC);
    await created(s, svc('upd'));
    const refused = await s.patch(`${SVC}/upd`, { spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30001, name: 'UPPER' }] } }, 'application/merge-patch+json');
    expect(refused.status).toBe(422);
    await created(s, svc('takes-port', { type: 'NodePort', ports: [{ port: 80, nodePort: 30001 }] }));
  });

  it('a dry run shows what would be allocated and takes nothing', async () => {
    await s.request('DELETE', SVC);
    const dry = await s.post(`${SVC}?dryRun=All`, svc('dry', { type: 'NodePort', clusterIP: '10.102.0.6', ports: [{ port: 80, nodePort: 30001 }] }));
    expect(dry.status, dry.text).toBe(201);
    expect(dry.body.spec).toMatchObject({ clusterIP: '10.102.0.6', ports: [{ nodePort: 30001 }] });
    const dryAuto = await s.post(`${SVC}?dryRun=All`, svc('dry-auto', { type: 'NodePort' }));
    expect(dryAuto.body.spec.clusterIP).toMatch(/^10\.102\.0\.[56]$/);
    expect(dryAuto.body.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    const real = await created(s, svc('real', { type: 'NodePort', clusterIP: '10.102.0.6', ports: [{ port: 80, nodePort: 30001 }] }));
    expect(real.spec.clusterIP).toBe('10.102.0.6');
    // A dry run still refuses what is taken.
    expect(invalidCauses(await s.post(`${SVC}?dryRun=All`, svc('dry-taken', { clusterIP: '10.102.0.6' })))[0]).toContain('provided IP is already allocated');
    // A dry-run delete keeps the allocation.
    expect((await s.request('DELETE', `${SVC}/real?dryRun=All`)).status).toBe(200);
    expect(invalidCauses(await s.post(SVC, svc('after-dry-delete', { clusterIP: '10.102.0.6' })))[0]).toContain('provided IP is already allocated');
  });

  it('deletecollection and namespace deletion free what their Services held', async () => {
    await s.request('DELETE', SVC);
    await created(s, svc('coll', { clusterIP: '10.102.0.5' }));
    await s.request('DELETE', SVC);
    await created(s, svc('coll-again', { clusterIP: '10.102.0.5' }));
    await s.request('DELETE', SVC);

    expect((await s.post('/api/v1/namespaces', { metadata: { name: 'doomed' } })).status).toBe(201);
    await created(s, svc('in-ns', { clusterIP: '10.102.0.6' }), '/api/v1/namespaces/doomed/services');
    expect((await s.del('/api/v1/namespaces/doomed')).status).toBe(200);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = await s.post(SVC, svc('after-ns', { clusterIP: '10.102.0.6' }));
      if (r.status === 201) break;
      if (Date.now() > deadline) throw new Error(`address not released after namespace deletion: ${r.text}`);
      await new Promise((res) => setTimeout(res, 50));
    }
  });
});
