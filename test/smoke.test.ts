import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

describe('smoke: a server starts and serves the core kinds', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('lists the namespaces created at start', async () => {
    const r = await s.get('/api/v1/namespaces');
    expect(r.status).toBe(200);
    expect(r.body.items.map((n: any) => n.metadata.name)).toEqual(['default', 'orch-node-lease', 'orch-public', 'orch-system']);
  });

  it('creates a ConfigMap and watches it arrive', async () => {
    const w = await s.watch('/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=0');
    const c = await s.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'smoke' }, data: { a: 'b' } });
    expect(c.status).toBe(201);
    const [ev] = await w.next(1);
    expect(ev?.type).toBe('ADDED');
    expect(ev?.object.metadata.name).toBe('smoke');
    w.close();
  });
});
