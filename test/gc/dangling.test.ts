import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY_PREFIX } from '../../src/server/create-server.js';
import { createSqliteKV } from '../../src/storage/sqlite/sqlite-kv.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { create, eventually, gone, ownerOf, path } from './helpers.js';

describe('garbage collector: references to owners that do not exist', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('collects a dependent whose owner uid matches nothing, and keeps one created right after its owner', async () => {
    const owner = await create(s, 'configmaps', 'default', 'fresh-owner');
    // Created at once: the collector may see the dependent before the owner and must not take it.
    await create(s, 'secrets', 'default', 'fresh-child', { ownerReferences: [ownerOf(owner)] });
    await create(s, 'secrets', 'default', 'ghost-child', {
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '5c4d9c2e-0000-4000-8000-000000000001' }],
    });
    await gone(s, path('secrets', 'default', 'ghost-child'));
    expect((await s.get(path('secrets', 'default', 'fresh-child'))).status).toBe(200);
  });

  it('a reference with the right name but another uid is dangling', async () => {
    await create(s, 'configmaps', 'default', 'renamed-owner');
    await create(s, 'configmaps', 'default', 'wrong-uid-child', {
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'renamed-owner', uid: '5c4d9c2e-0000-4000-8000-000000000002' }],
    });
    await gone(s, path('configmaps', 'default', 'wrong-uid-child'));
    expect((await s.get(path('configmaps', 'default', 'renamed-owner'))).status).toBe(200);
  });

  it('a namespaced owner is looked up in the dependent namespace, a cluster-scoped one cluster-wide', async () => {
    expect((await s.post('/api/v1/namespaces', { metadata: { name: 'gc-other' } })).status).toBe(201);
    const elsewhere = await create(s, 'configmaps', 'gc-other', 'owner-elsewhere');
    const ns = (await s.get('/api/v1/namespaces/default')).body;
    // The owner exists, but in another namespace: this reference cannot name it.
    await create(s, 'configmaps', 'default', 'cross-namespace-child', { ownerReferences: [ownerOf(elsewhere)] });
    // A namespace owns objects from anywhere.
    await create(s, 'configmaps', 'gc-other', 'namespace-child', { ownerReferences: [ownerOf(ns)] });
    await gone(s, path('configmaps', 'default', 'cross-namespace-child'));
    expect((await s.get(path('configmaps', 'gc-other', 'namespace-child'))).status).toBe(200);
  });

  it('a cluster-scoped object cannot be owned by a namespaced one', async () => {
    const cm = await create(s, 'configmaps', 'default', 'ns-owner-cm');
    expect((await s.post('/api/v1/namespaces', { metadata: { name: 'gc-owned-ns', ownerReferences: [ownerOf(cm)] } })).status).toBe(201);
    await gone(s, '/api/v1/namespaces/gc-owned-ns');
    expect((await s.get(path('configmaps', 'default', 'ns-owner-cm'))).status).toBe(200);
  });

  it('an owner kind the server does not serve keeps the dependent', async () => {
    await create(s, 'configmaps', 'default', 'unserved-owner-child', {
      ownerReferences: [
        { apiVersion: 'widgets.example.com/v1', kind: 'Widget', name: 'web', uid: '5c4d9c2e-0000-4000-8000-000000000003' },
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '5c4d9c2e-0000-4000-8000-000000000004' },
      ],
    });
    // The dangling ConfigMap reference is removed, the unknown one stays, and so does the object.
    const r = await eventually(
      () => s.get(path('configmaps', 'default', 'unserved-owner-child')),
      (x) => x.status !== 200 || x.body.metadata.ownerReferences.length === 1,
      'the dangling reference is dropped',
    );
    expect(r.status).toBe(200);
    expect(r.body.metadata.ownerReferences.map((o: any) => o.kind)).toEqual(['Widget']);
  });
});

describe('garbage collector: owners that vanished while no server ran', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-gc-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('collects what the stored state says is dangling when the server starts', async () => {
    const first = await startTestServer({ dataDir: dir });
    const owner = await create(first, 'configmaps', 'default', 'gone-owner');
    const other = await create(first, 'secrets', 'default', 'live-owner');
    await create(first, 'secrets', 'default', 'only-child', { ownerReferences: [ownerOf(owner)] });
    await create(first, 'configmaps', 'default', 'shared-child', { ownerReferences: [ownerOf(owner), ownerOf(other)] });
    await first.close();

    // The owner disappears from the SQLite file behind the server's back (no DELETED event is ever seen).
    const kv = createSqliteKV({ path: join(dir, 'state.db') });
    await kv.delete(`${REGISTRY_PREFIX}core/configmaps/default/gone-owner`);
    await kv.close();

    const second = await startTestServer({ dataDir: dir });
    try {
      await gone(second, path('secrets', 'default', 'only-child'));
      const shared = await eventually(
        () => second.get(path('configmaps', 'default', 'shared-child')),
        (r) => r.status !== 200 || r.body.metadata.ownerReferences?.length === 1,
        'the dangling reference is dropped',
      );
      expect(shared.status).toBe(200);
      expect(shared.body.metadata.ownerReferences).toEqual([ownerOf(other)]);
    } finally {
      await second.close();
    }
  });
});
