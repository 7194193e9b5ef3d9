import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CM, expectStatus, NAMESPACES, TEST_RESOURCES, WIDGETS } from './fixtures.js';

const MODIFIED = 'the object has been modified; please apply your changes to the latest version and try again';

describe('update (PUT)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ resources: TEST_RESOURCES });
  });
  afterAll(() => s.close());

  const create = async (name: string, data: Record<string, string> = { a: '1' }): Promise<any> => {
    const r = await s.post(CM, { metadata: { name }, data });
    expect(r.status, r.text).toBe(201);
    return r.body;
  };

  it('replaces the object and answers 200 with a new resourceVersion', async () => {
    const cm = await create('replace');
    const r = await s.put(`${CM}/replace`, { ...cm, data: { b: '2' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ b: '2' });
    expect(r.body.metadata.resourceVersion).not.toBe(cm.metadata.resourceVersion);
    expect(r.body.metadata.uid).toBe(cm.metadata.uid);
    expect(r.body.metadata.creationTimestamp).toBe(cm.metadata.creationTimestamp);
    expect((await s.get(`${CM}/replace`)).body).toEqual(r.body);
  });

  it('refuses a stale resourceVersion with 409 Conflict and changes nothing', async () => {
    const cm = await create('stale');
    const first = await s.put(`${CM}/stale`, { ...cm, data: { a: '2' } });
    expect(first.status).toBe(200);
    const r = await s.put(`${CM}/stale`, { ...cm, data: { a: '3' } });
    const st = expectStatus(r, 409, 'Conflict');
    expect(st.message).toBe(`Operation cannot be fulfilled on configmaps "stale": ${MODIFIED}`);
    expect(st.details).toEqual({ name: 'stale', kind: 'configmaps' });
    expect((await s.get(`${CM}/stale`)).body.data).toEqual({ a: '2' });
  });

  it('updates unconditionally without a resourceVersion', async () => {
    await create('unconditional');
    await s.put(`${CM}/unconditional`, { metadata: { name: 'unconditional' }, data: { a: '2' } });
    const r = await s.put(`${CM}/unconditional`, { metadata: { name: 'unconditional' }, data: { a: '3' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ a: '3' });
  });

  it('refuses a body whose name differs from the URL', async () => {
    const cm = await create('url-name');
    const st = expectStatus(await s.put(`${CM}/url-name`, { ...cm, metadata: { ...cm.metadata, name: 'other' } }), 400, 'BadRequest');
    expect(st.message).toBe('the name of the object (other) does not match the name on the URL (url-name)');
    expectStatus(await s.put(`${CM}/url-name`, { data: {} }), 400, 'BadRequest');
  });

  it('refuses a body whose namespace differs from the URL', async () => {
    const cm = await create('url-ns');
    const st = expectStatus(await s.put(`${CM}/url-ns`, { ...cm, metadata: { ...cm.metadata, namespace: 'orch-system' } }), 400, 'BadRequest');
    expect(st.message).toBe('the namespace of the object (orch-system) does not match the namespace on the request (default)');
  });

  it('treats a different uid as a failed precondition (409)', async () => {
    const cm = await create('uid-pre');
    const r = await s.put(`${CM}/uid-pre`, { ...cm, metadata: { ...cm.metadata, uid: 'not-the-uid' } });
    const st = expectStatus(r, 409, 'Conflict');
    expect(st.message).toBe(`Operation cannot be fulfilled on configmaps "uid-pre": Precondition failed: UID in precondition: not-the-uid, UID in object meta: ${cm.metadata.uid}`);
    // The right uid passes.
    expect((await s.put(`${CM}/uid-pre`, { ...cm, data: { a: '2' } })).status).toBe(200);
  });

  it('keeps creationTimestamp, uid and deletionTimestamp whatever the body says', async () => {
    const cm = await create('system-kept');
    const { uid: _u, ...metaWithoutUid } = cm.metadata;
    const r = await s.put(`${CM}/system-kept`, {
      ...cm,
      metadata: { ...metaWithoutUid, creationTimestamp: '2001-01-01T00:00:00Z', deletionTimestamp: '2001-01-01T00:00:00Z', generation: 7 },
      data: { a: '2' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.metadata.uid).toBe(cm.metadata.uid);
    expect(r.body.metadata.creationTimestamp).toBe(cm.metadata.creationTimestamp);
    expect(r.body.metadata.deletionTimestamp).toBeUndefined();
    expect(r.body.metadata.generation).toBeUndefined();
  });

  it('validates the new object (422) and changes nothing', async () => {
    const cm = await create('update-invalid');
    const r = await s.put(`${CM}/update-invalid`, { ...cm, data: { 'no spaces': 'x' } });
    const st = expectStatus(r, 422, 'Invalid');
    expect(st.details.causes).toEqual([expect.objectContaining({ field: 'data[no spaces]', reason: 'FieldValueInvalid' })]);
    expect((await s.get(`${CM}/update-invalid`)).body).toEqual(cm);
  });

  it('applies dryRun=All without persisting', async () => {
    const cm = await create('update-dry');
    const r = await s.put(`${CM}/update-dry?dryRun=All`, { ...cm, data: { a: 'dry' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ a: 'dry' });
    expect((await s.get(`${CM}/update-dry`)).body).toEqual(cm);
    expectStatus(await s.put(`${CM}/update-dry?dryRun=Some`, cm), 422, 'Invalid');
  });

  describe('no-op updates', () => {
    it('keep the resourceVersion when the object is sent back unchanged', async () => {
      await create('noop', { z: '1', a: '2' });
      const got = (await s.get(`${CM}/noop`)).body;
      const r = await s.put(`${CM}/noop`, got);
      expect(r.status).toBe(200);
      expect(r.body.metadata.resourceVersion).toBe(got.metadata.resourceVersion);
      expect((await s.get(`${CM}/noop`)).body.metadata.resourceVersion).toBe(got.metadata.resourceVersion);
    });

    it('keep the resourceVersion when only map order or omitted system fields differ', async () => {
      const cm = await create('noop-order', { z: '1', a: '2' });
      const r = await s.put(`${CM}/noop-order`, { metadata: { name: 'noop-order' }, data: { a: '2', z: '1' } });
      expect(r.status).toBe(200);
      expect(r.body.metadata.resourceVersion).toBe(cm.metadata.resourceVersion);
    });

    it('send no watch event', async () => {
      const cm = await create('noop-watch');
      const w = await s.watch(`${CM}?watch=1&resourceVersion=${cm.metadata.resourceVersion}`);
      expect((await s.put(`${CM}/noop-watch`, cm)).status).toBe(200);
      expect((await s.put(`${CM}/noop-watch`, { ...cm, data: { a: 'changed' } })).status).toBe(200);
      const [ev] = await w.next(1);
      expect(ev).toMatchObject({ type: 'MODIFIED', object: { data: { a: 'changed' } } });
      w.close();
    });
  });

  describe('create on update', () => {
    it('is refused for ConfigMaps (404)', async () => {
      const st = expectStatus(await s.put(`${CM}/absent`, { metadata: { name: 'absent' } }), 404, 'NotFound');
      expect(st.message).toBe('configmaps "absent" not found');
      expect((await s.get(`${CM}/absent`)).status).toBe(404);
    });

    it('creates a Widget (201) and then updates it (200)', async () => {
      const r = await s.put(`${WIDGETS}/put-made`, { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'put-made' }, spec: { size: 1 } });
      expect(r.status, r.text).toBe(201);
      expect(r.body.metadata.uid).toBeTruthy();
      expect(r.body.metadata.generation).toBe(1);
      const again = await s.put(`${WIDGETS}/put-made`, { ...r.body, spec: { size: 2 } });
      expect(again.status).toBe(200);
      expect(again.body.metadata.uid).toBe(r.body.metadata.uid);
    });

    it('ignores a resourceVersion in the body, as Kubernetes does, but not a uid', async () => {
      const r = await s.put(`${WIDGETS}/put-rv`, { metadata: { name: 'put-rv', resourceVersion: '12345' } });
      expect(r.status, r.text).toBe(201);
      expect(r.body.metadata.resourceVersion).not.toBe('12345');
      const st = expectStatus(await s.put(`${WIDGETS}/put-uid`, { metadata: { name: 'put-uid', uid: 'abc' } }), 409, 'Conflict');
      expect(st.message).toBe('Operation cannot be fulfilled on widgets.widgets.example.com "put-uid": Precondition failed: UID in precondition: abc, UID in object meta: ');
      expect((await s.get(`${WIDGETS}/put-uid`)).status).toBe(404);
    });

    it('validates what it creates', async () => {
      expectStatus(await s.put(`${WIDGETS}/Bad`, { metadata: { name: 'Bad' } }), 422, 'Invalid');
      expectStatus(await s.put(`${WIDGETS}/neg`, { metadata: { name: 'neg' }, spec: { size: -1 } }), 422, 'Invalid');
      expect((await s.get(`${WIDGETS}/neg`)).status).toBe(404);
    });

    it('does not create through dry run', async () => {
      const r = await s.put(`${WIDGETS}/dry-made?dryRun=All`, { metadata: { name: 'dry-made' } });
      expect(r.status).toBe(201);
      expect((await s.get(`${WIDGETS}/dry-made`)).status).toBe(404);
    });

    it('never creates through a subresource', async () => {
      expectStatus(await s.put(`${WIDGETS}/via-status/status`, { metadata: { name: 'via-status' }, status: { ready: true } }), 404, 'NotFound');
    });
  });

  describe('generation', () => {
    const widget = async (name: string): Promise<any> => {
      const r = await s.post(WIDGETS, { metadata: { name, generation: 5 }, spec: { size: 1, tags: { a: '1', b: '2' } } });
      expect(r.status, r.text).toBe(201);
      return r.body;
    };

    it('starts at 1 whatever the client sends', async () => {
      expect((await widget('gen-start')).metadata.generation).toBe(1);
    });

    it('grows when the spec changes, not for metadata or status', async () => {
      let w = await widget('gen-bump');
      w = (await s.put(`${WIDGETS}/gen-bump`, { ...w, metadata: { ...w.metadata, labels: { x: 'y' }, generation: 40 } })).body;
      expect(w.metadata.generation).toBe(1);
      w = (await s.put(`${WIDGETS}/gen-bump/status`, { ...w, status: { ready: true } })).body;
      expect(w.status).toEqual({ ready: true });
      expect(w.metadata.generation).toBe(1);
      w = (await s.put(`${WIDGETS}/gen-bump`, { ...w, spec: { ...w.spec, size: 2 } })).body;
      expect(w.metadata.generation).toBe(2);
      w = (await s.put(`${WIDGETS}/gen-bump`, { ...w, spec: { ...w.spec, color: 'red' } })).body;
      expect(w.metadata.generation).toBe(3);
    });

    it('does not grow when only map order differs', async () => {
      const w = await widget('gen-order');
      const r = await s.put(`${WIDGETS}/gen-order`, { ...w, spec: { size: 1, tags: { b: '2', a: '1' } } });
      expect(r.body.metadata.generation).toBe(1);
      expect(r.body.metadata.resourceVersion).toBe(w.metadata.resourceVersion);
    });

    it('is absent on kinds that do not track it', async () => {
      const cm = await create('gen-none');
      expect(cm.metadata.generation).toBeUndefined();
    });
  });

  describe('status subresource', () => {
    it('keeps status on the main endpoint and spec on /status (Widget)', async () => {
      const created = await s.post(WIDGETS, { metadata: { name: 'split' }, spec: { size: 1 }, status: { ready: true } });
      expect(created.status).toBe(201);
      // A create does not set status either.
      expect(created.body.status).toEqual({});
      let w = (await s.put(`${WIDGETS}/split/status`, { ...created.body, status: { ready: true, observedGeneration: 1 } })).body;
      expect(w.status).toEqual({ ready: true, observedGeneration: 1 });

      const main = await s.put(`${WIDGETS}/split`, { ...w, spec: { size: 2 }, status: { ready: false } });
      expect(main.status).toBe(200);
      expect(main.body.spec).toEqual({ size: 2 });
      expect(main.body.status).toEqual({ ready: true, observedGeneration: 1 });
      w = main.body;

      // `ready: false` is Go's zero value and omitted, as encoding/json's omitempty does.
      const st = await s.put(`${WIDGETS}/split/status`, { ...w, spec: { size: 99 }, status: { ready: false, observedGeneration: 2 } });
      expect(st.status).toBe(200);
      expect(st.body.spec).toEqual({ size: 2 });
      expect(st.body.status).toEqual({ observedGeneration: 2 });

      const got = (await s.get(`${WIDGETS}/split`)).body;
      expect(got.spec).toEqual({ size: 2 });
      expect(got.status).toEqual({ observedGeneration: 2 });
      expect((await s.get(`${WIDGETS}/split/status`)).body).toEqual(got);
    });

    it('keeps status on the main endpoint and spec on /status (Namespace)', async () => {
      const ns = (await s.post(NAMESPACES, { metadata: { name: 'ns-split' }, spec: { finalizers: ['example.com/x'] }, status: { phase: 'Terminating' } })).body;
      expect(ns.status).toEqual({ phase: 'Active' });
      expect(ns.spec.finalizers).toEqual(['example.com/x', 'orch']);

      const main = await s.put(`${NAMESPACES}/ns-split`, { ...ns, spec: { finalizers: [] }, status: { phase: 'Terminating' }, metadata: { ...ns.metadata, labels: { ...ns.metadata.labels, team: 'a' } } });
      expect(main.status).toBe(200);
      expect(main.body.status).toEqual({ phase: 'Active' });
      expect(main.body.spec.finalizers).toEqual(['example.com/x', 'orch']);
      expect(main.body.metadata.labels.team).toBe('a');

      const cond = { type: 'Custom', status: 'True', reason: 'Test', message: 'hello', lastTransitionTime: '2024-01-01T00:00:00Z' };
      const st = await s.put(`${NAMESPACES}/ns-split/status`, { ...main.body, spec: { finalizers: [] }, status: { phase: 'Active', conditions: [cond] } });
      expect(st.status, st.text).toBe(200);
      expect(st.body.spec.finalizers).toEqual(['example.com/x', 'orch']);
      expect(st.body.status.conditions).toEqual([cond]);
    });

    it('validates status writes', async () => {
      const ns = (await s.post(NAMESPACES, { metadata: { name: 'ns-phase' } })).body;
      const r = await s.put(`${NAMESPACES}/ns-phase/status`, { ...ns, status: { phase: 'Sleeping' } });
      const st = expectStatus(r, 422, 'Invalid');
      expect(st.message).toBe('Namespace "ns-phase" is invalid: status.phase: Unsupported value: "Sleeping": supported values: "Active", "Terminating"');
    });

    it('answers 404 for a subresource the kind does not have', async () => {
      const cm = await create('no-status');
      expectStatus(await s.put(`${CM}/no-status/status`, cm), 404, 'NotFound');
    });
  });
});
