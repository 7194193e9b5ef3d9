/**
 * A Service write that is refused changes nothing in the store, not even the global resourceVersion:
 * the addresses and ports it would take are checked by a rehearsal before any pool is written, so a
 * refusal (missing namespace, invalid object, existing name) never takes and gives back a value.
 * Found by the fuzz suite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { created, svc, SVC } from './service-helpers.js';

describe.each([
  ['memory', {}],
  ['sqlite', { dataDir: true as const }],
])('refused Service writes leave the resourceVersion alone (%s store)', (_label, opts) => {
  let s: TestServer;
  const revision = async (): Promise<string> => (await s.get('/api/v1/namespaces?limit=1')).body.metadata.resourceVersion;
  /** Sends a write, expects `status`, and checks the store's revision did not move. */
  const refused = async (status: number, send: () => Promise<{ status: number; text: string }>): Promise<void> => {
    const before = await revision();
    const r = await send();
    expect(r.status, r.text).toBe(status);
    expect(await revision()).toBe(before);
  };

  beforeAll(async () => {
    s = await startTestServer({ ...opts, serviceNodePortRange: '30000-30099' });
    await created(s, svc('existing', { type: 'NodePort' }));
  });
  afterAll(() => s.close());

  it('a create in a namespace that does not exist', async () => {
    await refused(404, () => s.post('/api/v1/namespaces/missing/services', svc('a', { type: 'NodePort' })));
  });

  it('a create the validation refuses', async () => {
    await refused(422, () => s.post(SVC, svc('Bad_Name')));
    await refused(422, () => s.post(SVC, svc('bad-port', { type: 'NodePort', ports: [{ name: 'UPPER', port: 80 }] })));
  });

  it('a create of a name that exists', async () => {
    await refused(409, () => s.post(SVC, svc('existing', { type: 'NodePort' })));
  });

  it('an update the validation refuses after asking for a node port', async () => {
    await created(s, svc('plain'));
    await refused(422, () => s.patch(`${SVC}/plain`, { spec: { type: 'NodePort', ports: [{ port: 80, name: 'UPPER' }] } }, 'application/merge-patch+json'));
  });

  it('the same writes, once valid, are stored and allocate', async () => {
    const before = await revision();
    const made = await created(s, svc('now-valid', { type: 'NodePort' }));
    expect(made.spec.clusterIP).toMatch(/^10\./);
    expect(made.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect(BigInt(await revision())).toBeGreaterThan(BigInt(before));
  });
});
