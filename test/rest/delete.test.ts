import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CM, expectStatus, makeNamespace, TEST_RESOURCES, WIDGETS } from './fixtures.js';

describe('delete', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ resources: TEST_RESOURCES });
  });
  afterAll(() => s.close());

  const create = async (name: string, extra: Record<string, unknown> = {}, path = CM): Promise<any> => {
    const r = await s.post(path, { metadata: { name, ...extra } });
    expect(r.status, r.text).toBe(201);
    return r.body;
  };

  it('answers 200 with a Success Status naming the object', async () => {
    const cm = await create('gone');
    const r = await s.del(`${CM}/gone`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'gone', kind: 'configmaps', uid: cm.metadata.uid } });
    expect((await s.get(`${CM}/gone`)).status).toBe(404);
  });

  it('names the group of a named-group kind in the Status', async () => {
    const w = await create('w-gone', {}, WIDGETS);
    const r = await s.del(`${WIDGETS}/w-gone`);
    expect(r.body.details).toEqual({ name: 'w-gone', group: 'widgets.example.com', kind: 'widgets', uid: w.metadata.uid });
  });

  it('answers 404 for a missing object', async () => {
    const st = expectStatus(await s.del(`${CM}/never-was`), 404, 'NotFound');
    expect(st.message).toBe('configmaps "never-was" not found');
  });

  it('sends DELETED to watchers with the last state', async () => {
    const cm = await create('watched-delete');
    const w = await s.watch(`${CM}?watch=1&resourceVersion=${cm.metadata.resourceVersion}`);
    await s.del(`${CM}/watched-delete`);
    const [ev] = await w.next(1);
    expect(ev).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'watched-delete', uid: cm.metadata.uid } } });
    w.close();
  });

  describe('finalizers', () => {
    it('mark the object for deletion and keep it until the last one is removed', async () => {
      const cm = await create('fin', { finalizers: ['example.com/a', 'example.com/b'] });
      const w = await s.watch(`${CM}?watch=1&resourceVersion=${cm.metadata.resourceVersion}`);

      const r = await s.del(`${CM}/fin`);
      expect(r.status).toBe(200);
      expect(r.body.kind).toBe('ConfigMap');
      expect(r.body.metadata.deletionTimestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(r.body.metadata.deletionGracePeriodSeconds).toBe(0);
      expect(r.body.metadata.finalizers).toEqual(['example.com/a', 'example.com/b']);
      const marked = (await s.get(`${CM}/fin`)).body;
      expect(marked).toEqual(r.body);
      expect((await w.next(1))[0]).toMatchObject({ type: 'MODIFIED', object: { metadata: { deletionTimestamp: r.body.metadata.deletionTimestamp } } });

      // Deleting again answers the object as it is, without a change.
      const again = await s.del(`${CM}/fin`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(marked);

      // New finalizers may not join an object being deleted.
      const add = await s.put(`${CM}/fin`, { ...marked, metadata: { ...marked.metadata, finalizers: ['example.com/a', 'example.com/b', 'example.com/c'] } });
      expect(expectStatus(add, 422, 'Invalid').message).toBe(
        'ConfigMap "fin" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/c"}',
      );

      // An update cannot clear the deletion mark.
      const one = await s.put(`${CM}/fin`, { ...marked, metadata: { ...marked.metadata, finalizers: ['example.com/b'], deletionTimestamp: undefined } });
      expect(one.status).toBe(200);
      expect(one.body.metadata.deletionTimestamp).toBe(marked.metadata.deletionTimestamp);
      expect((await w.next(1))[0]).toMatchObject({ type: 'MODIFIED', object: { metadata: { finalizers: ['example.com/b'] } } });

      const last = await s.put(`${CM}/fin`, { ...one.body, metadata: { ...one.body.metadata, finalizers: [] } });
      expect(last.status).toBe(200);
      expect((await s.get(`${CM}/fin`)).status).toBe(404);
      expect((await w.next(1))[0]).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'fin' } } });
      w.close();
    });

    it('also go away through a patch that removes the last one', async () => {
      await create('fin-patch', { finalizers: ['example.com/a'] });
      await s.del(`${CM}/fin-patch`);
      const r = await s.patch(`${CM}/fin-patch`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
      expect(r.status).toBe(200);
      expect((await s.get(`${CM}/fin-patch`)).status).toBe(404);
    });

    it('bump the generation of a generation-tracking kind when it is marked', async () => {
      await create('w-fin', { finalizers: ['example.com/a'] }, WIDGETS);
      const r = await s.del(`${WIDGETS}/w-fin`);
      expect(r.body.metadata.deletionTimestamp).toBeTruthy();
      expect(r.body.metadata.generation).toBe(2);
      expect((await s.del(`${WIDGETS}/w-fin`)).body.metadata.generation).toBe(2);
    });

    it('answer 202 when the caller asked for cascading deletion with orphanDependents=false', async () => {
      await create('fin-202', { finalizers: ['example.com/a'] });
      const r = await s.request('DELETE', `${CM}/fin-202`, { body: { orphanDependents: false } });
      expect(r.status).toBe(202);
      expect(r.body.metadata.deletionTimestamp).toBeTruthy();
    });
  });

  describe('preconditions', () => {
    it('refuses a wrong uid with 409 and deletes nothing', async () => {
      const cm = await create('pre-uid');
      const r = await s.del(`${CM}/pre-uid`, { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'wrong' } });
      const st = expectStatus(r, 409, 'Conflict');
      expect(st.message).toBe(`Operation cannot be fulfilled on configmaps "pre-uid": Precondition failed: UID in precondition: wrong, UID in object meta: ${cm.metadata.uid}`);
      expect((await s.get(`${CM}/pre-uid`)).status).toBe(200);
      expect((await s.del(`${CM}/pre-uid`, { preconditions: { uid: cm.metadata.uid } })).status).toBe(200);
    });

    it('refuses a stale resourceVersion with 409 and deletes nothing', async () => {
      const cm = await create('pre-rv');
      await s.patch(`${CM}/pre-rv`, { data: { a: 'b' } }, 'application/merge-patch+json');
      const r = await s.del(`${CM}/pre-rv`, { preconditions: { resourceVersion: cm.metadata.resourceVersion } });
      const st = expectStatus(r, 409, 'Conflict');
      expect(st.message).toMatch(/^Operation cannot be fulfilled on configmaps "pre-rv": Precondition failed: ResourceVersion in precondition: \d+, ResourceVersion in object meta: \d+$/);
      expect((await s.get(`${CM}/pre-rv`)).status).toBe(200);
      const cur = (await s.get(`${CM}/pre-rv`)).body;
      expect((await s.del(`${CM}/pre-rv`, { preconditions: { resourceVersion: cur.metadata.resourceVersion } })).status).toBe(200);
    });
  });

  describe('options', () => {
    it('refuses an invalid propagationPolicy with 422 (query or body)', async () => {
      await create('bad-policy');
      const q = expectStatus(await s.del(`${CM}/bad-policy?propagationPolicy=Sideways`), 422, 'Invalid');
      expect(q.message).toBe('DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"');
      expect(q.details).toMatchObject({ group: 'meta.orch.io', kind: 'DeleteOptions' });
      expectStatus(await s.del(`${CM}/bad-policy`, { propagationPolicy: 'Sideways' }), 422, 'Invalid');
      expect((await s.get(`${CM}/bad-policy`)).status).toBe(200);
    });

    it('refuses conflicting orphan options', async () => {
      await create('bad-opts');
      const st = expectStatus(await s.del(`${CM}/bad-opts`, { orphanDependents: true, propagationPolicy: 'Orphan' }), 422, 'Invalid');
      expect(st.message).toBe('DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set');
      expect((await s.get(`${CM}/bad-opts`)).status).toBe(200);
    });

    it('accepts a negative grace period, as Kubernetes does', async () => {
      await create('neg-grace');
      expect((await s.del(`${CM}/neg-grace?gracePeriodSeconds=-1`)).status).toBe(200);
      expect((await s.get(`${CM}/neg-grace`)).status).toBe(404);
    });

    it('refuses a body that is not DeleteOptions', async () => {
      await create('bad-body');
      expectStatus(await s.del(`${CM}/bad-body`, { gracePeriodSeconds: 'soon' }), 400, 'BadRequest');
      expectStatus(await s.request('DELETE', `${CM}/bad-body`, { body: '{', contentType: 'application/json' }), 400, 'BadRequest');
      expect((await s.get(`${CM}/bad-body`)).status).toBe(200);
    });

    it('keeps the object under dryRun (query or body)', async () => {
      const cm = await create('dry-del', { finalizers: [] });
      const q = await s.del(`${CM}/dry-del?dryRun=All`);
      expect(q.status).toBe(200);
      expect(q.body.status).toBe('Success');
      const b = await s.del(`${CM}/dry-del`, { dryRun: ['All'] });
      expect(b.status).toBe(200);
      expect((await s.get(`${CM}/dry-del`)).body).toEqual(cm);
      expectStatus(await s.del(`${CM}/dry-del`, { dryRun: ['Some'] }), 422, 'Invalid');
      expectStatus(await s.del(`${CM}/dry-del?dryRun=Some`), 422, 'Invalid');
      expect((await s.get(`${CM}/dry-del`)).status).toBe(200);
    });

    it('sends no watch event for dry-run writes', async () => {
      const cm = await create('dry-quiet', { finalizers: ['example.com/a'] });
      const w = await s.watch(`${CM}?watch=1&resourceVersion=${cm.metadata.resourceVersion}`);
      expect((await s.del(`${CM}/dry-quiet?dryRun=All`)).status).toBe(200);
      expect((await s.put(`${CM}/dry-quiet?dryRun=All`, { ...cm, data: { x: 'y' } })).status).toBe(200);
      expect((await s.patch(`${CM}/dry-quiet?dryRun=All`, { data: { x: 'z' } }, 'application/merge-patch+json')).status).toBe(200);
      expect((await s.patch(`${CM}/dry-quiet`, { metadata: { labels: { real: 'yes' } } }, 'application/merge-patch+json')).status).toBe(200);
      const [ev] = await w.next(1);
      expect(ev).toMatchObject({ type: 'MODIFIED', object: { metadata: { labels: { real: 'yes' } } } });
      expect(ev?.object.data).toBeUndefined();
      expect(ev?.object.metadata.deletionTimestamp).toBeUndefined();
      w.close();
    });

    it('does not mark a finalized object under dryRun', async () => {
      const cm = await create('dry-fin', { finalizers: ['example.com/a'] });
      const r = await s.del(`${CM}/dry-fin?dryRun=All`);
      expect(r.status).toBe(200);
      expect(r.body.metadata.deletionTimestamp).toBeTruthy();
      expect((await s.get(`${CM}/dry-fin`)).body).toEqual(cm);
    });
  });

  describe('deletecollection', () => {
    it('deletes only what the label selector picks and answers the list', async () => {
      await makeNamespace(s, 'dc');
      const path = '/api/v1/namespaces/dc/configmaps';
      for (const [name, tier] of [['a', 'web'], ['b', 'web'], ['c', 'db']] as const) {
        expect((await s.post(path, { metadata: { name, labels: { tier } } })).status).toBe(201);
      }
      const r = await s.del(`${path}?labelSelector=tier%3Dweb`);
      expect(r.status).toBe(200);
      expect(r.body.kind).toBe('ConfigMapList');
      expect(r.body.apiVersion).toBe('v1');
      expect(r.body.items.map((i: any) => i.metadata.name).sort()).toEqual(['a', 'b']);
      const left = (await s.get(path)).body.items.map((i: any) => i.metadata.name);
      expect(left).toEqual(['c']);
    });

    it('deletes nothing under dryRun', async () => {
      await makeNamespace(s, 'dc-dry');
      const path = '/api/v1/namespaces/dc-dry/configmaps';
      expect((await s.post(path, { metadata: { name: 'a' } })).status).toBe(201);
      const r = await s.del(`${path}?dryRun=All`);
      expect(r.status).toBe(200);
      expect(r.body.items).toHaveLength(1);
      expect((await s.get(path)).body.items).toHaveLength(1);
    });

    it('keeps objects that finalizers hold, marked', async () => {
      await makeNamespace(s, 'dc-fin');
      const path = '/api/v1/namespaces/dc-fin/configmaps';
      expect((await s.post(path, { metadata: { name: 'held', finalizers: ['example.com/x'] } })).status).toBe(201);
      expect((await s.post(path, { metadata: { name: 'free' } })).status).toBe(201);
      const r = await s.del(path);
      expect(r.status).toBe(200);
      const items = (await s.get(path)).body.items;
      expect(items.map((i: any) => i.metadata.name)).toEqual(['held']);
      expect(items[0].metadata.deletionTimestamp).toBeTruthy();
    });

    it('refuses a bad selector with 400', async () => {
      expectStatus(await s.del(`${CM}?labelSelector=${encodeURIComponent('a in (')}`), 400, 'BadRequest');
      expectStatus(await s.del(`${CM}?fieldSelector=spec.x%3Dy`), 400, 'BadRequest');
    });
  });
});
