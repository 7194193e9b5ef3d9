/**
 * Concurrent writers, on both backends: optimistic concurrency lets exactly one conditional writer
 * win, unconditional patches all land (the store re-applies them on a newer object), and a name
 * is taken once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CM, eventually, expectStatus, NAMESPACES, TEST_RESOURCES } from './fixtures.js';

for (const backend of ['memory', 'sqlite'] as const) {
  describe(`concurrent writes (${backend})`, () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer({ resources: TEST_RESOURCES, ...(backend === 'sqlite' ? { dataDir: true } : {}) });
      expect(s.server.storageBackend).toBe(backend);
    });
    afterAll(() => s.close());

    it('let exactly one of many PUTs with the same resourceVersion win', async () => {
      const cm = (await s.post(CM, { metadata: { name: 'race-put' }, data: { v: '0' } })).body;
      const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => s.put(`${CM}/race-put`, { ...cm, data: { v: String(i + 1) } })));
      const codes = replies.map((r) => r.status).sort();
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(11);
      for (const r of replies.filter((x) => x.status === 409)) expectStatus(r, 409, 'Conflict');
      const winner = replies.find((r) => r.status === 200)?.body;
      expect((await s.get(`${CM}/race-put`)).body).toEqual(winner);
    });

    it('apply every one of many concurrent JSON patches without a resourceVersion', async () => {
      expect((await s.post(CM, { metadata: { name: 'race-patch', annotations: { seed: 'x' } } })).status).toBe(201);
      const replies = await Promise.all(
        Array.from({ length: 12 }, (_, i) => s.patch(`${CM}/race-patch`, [{ op: 'add', path: `/metadata/annotations/k${i}`, value: 'v' }], 'application/json-patch+json')),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200));
      const annotations = (await s.get(`${CM}/race-patch`)).body.metadata.annotations;
      expect(Object.keys(annotations)).toHaveLength(13);
    });

    it('merge concurrent merge patches on one object', async () => {
      expect((await s.post(CM, { metadata: { name: 'race-merge' } })).status).toBe(201);
      const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => s.patch(`${CM}/race-merge`, { data: { [`k${i}`]: String(i) } }, 'application/merge-patch+json')));
      expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200));
      const data = (await s.get(`${CM}/race-merge`)).body.data;
      expect(Object.keys(data).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `k${i}`).sort());
    });

    it('create a name once', async () => {
      const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => s.post(CM, { metadata: { name: 'race-create' }, data: { by: String(i) } })));
      const codes = replies.map((r) => r.status);
      expect(codes.filter((c) => c === 201)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(7);
      for (const r of replies.filter((x) => x.status === 409)) expect(r.body.reason).toBe('AlreadyExists');
    });

    it('delete once: one 200 Success, the rest 404', async () => {
      expect((await s.post(CM, { metadata: { name: 'race-delete' } })).status).toBe(201);
      const replies = await Promise.all(Array.from({ length: 6 }, () => s.del(`${CM}/race-delete`)));
      const codes = replies.map((r) => r.status).sort();
      expect(codes).toEqual([200, 404, 404, 404, 404, 404]);
    });

    it('keep the namespace controller working (cascade on this backend)', async () => {
      expect((await s.post(NAMESPACES, { metadata: { name: 'cascade' } })).status).toBe(201);
      for (let i = 0; i < 5; i++) expect((await s.post('/api/v1/namespaces/cascade/configmaps', { metadata: { name: `c${i}` } })).status).toBe(201);
      expect((await s.del(`${NAMESPACES}/cascade`)).status).toBe(200);
      await eventually(async () => ((await s.get(`${NAMESPACES}/cascade`)).status === 404 ? true : undefined), 'namespace cascade to go');
      expect((await s.get('/api/v1/namespaces/cascade/configmaps')).body.items).toEqual([]);
    });
  });
}
