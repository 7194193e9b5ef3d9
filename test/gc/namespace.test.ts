import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { create, gone, ownerOf, path } from './helpers.js';

describe('garbage collector and namespace deletion', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('a namespace holding owners and dependents, some deleted in the foreground or orphaning, is removed completely', async () => {
    expect((await s.post('/api/v1/namespaces', { metadata: { name: 'gc-ns' } })).status).toBe(201);
    const owners = [];
    for (let i = 0; i < 3; i++) {
      const owner = await create(s, 'configmaps', 'gc-ns', `owner-${i}`);
      owners.push(owner);
      const child = await create(s, 'secrets', 'gc-ns', `child-${i}`, { ownerReferences: [ownerOf(owner, true)] });
      await create(s, 'configmaps', 'gc-ns', `grandchild-${i}`, { ownerReferences: [ownerOf(child, true)] });
    }
    // Deletions already in progress when the namespace goes.
    expect((await s.del(`${path('configmaps', 'gc-ns', 'owner-0')}?propagationPolicy=Foreground`)).status).toBe(200);
    expect((await s.del(`${path('configmaps', 'gc-ns', 'owner-1')}?propagationPolicy=Orphan`)).status).toBe(200);

    expect((await s.del('/api/v1/namespaces/gc-ns')).status).toBe(200);
    await gone(s, '/api/v1/namespaces/gc-ns');
    expect((await s.get('/api/v1/namespaces/gc-ns/configmaps')).body.items ?? []).toEqual([]);
    expect((await s.get('/api/v1/namespaces/gc-ns/secrets')).body.items ?? []).toEqual([]);
  });
});
