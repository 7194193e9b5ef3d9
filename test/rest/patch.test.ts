import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CM, expectStatus, TEST_RESOURCES, warningsOf, WIDGETS } from './fixtures.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';

describe('patch', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ resources: TEST_RESOURCES });
  });
  afterAll(() => s.close());

  const create = async (name: string, extra: Record<string, unknown> = {}): Promise<any> => {
    const r = await s.post(CM, { metadata: { name, labels: { app: 'demo' } }, data: { a: '1', b: '2' }, ...extra });
    expect(r.status, r.text).toBe(201);
    return r.body;
  };

  describe('JSON patch', () => {
    it('applies add, remove, replace, move, copy and test', async () => {
      const cm = await create('jp-ops');
      const ops = [
        { op: 'test', path: '/data/a', value: '1' },
        { op: 'add', path: '/data/c', value: '3' },
        { op: 'remove', path: '/data/b' },
        { op: 'replace', path: '/data/a', value: 'one' },
        { op: 'copy', from: '/data/c', path: '/data/d' },
        { op: 'move', from: '/data/c', path: '/data/e' },
        { op: 'add', path: '/metadata/labels/example.com~1tier', value: 'web' },
      ];
      const r = await s.patch(`${CM}/jp-ops`, ops, JSON_PATCH);
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toEqual({ a: 'one', d: '3', e: '3' });
      expect(r.body.metadata.labels).toEqual({ app: 'demo', 'example.com/tier': 'web' });
      expect(r.body.metadata.resourceVersion).not.toBe(cm.metadata.resourceVersion);
      expect((await s.get(`${CM}/jp-ops`)).body).toEqual(r.body);
    });

    it('answers 422 when a test operation fails, and changes nothing', async () => {
      const cm = await create('jp-test');
      const r = await s.patch(`${CM}/jp-test`, [{ op: 'replace', path: '/data/a', value: 'x' }, { op: 'test', path: '/data/b', value: 'nope' }], JSON_PATCH);
      const st = expectStatus(r, 422, 'Invalid');
      expect(st.message).toContain('/data/b');
      expect((await s.get(`${CM}/jp-test`)).body).toEqual(cm);
    });

    it('answers 422 when an operation cannot apply', async () => {
      await create('jp-missing');
      expectStatus(await s.patch(`${CM}/jp-missing`, [{ op: 'remove', path: '/data/zzz' }], JSON_PATCH), 422, 'Invalid');
      expectStatus(await s.patch(`${CM}/jp-missing`, [{ op: 'replace', path: '/spec/x', value: 1 }], JSON_PATCH), 422, 'Invalid');
    });

    it('answers 400 for a patch that is not a list of operation objects', async () => {
      const cm = await create('jp-bad');
      for (const bad of [{ op: 'add' }, ['text'], [[]], 'x']) {
        expectStatus(await s.patch(`${CM}/jp-bad`, bad, JSON_PATCH), 400, 'BadRequest');
      }
      expectStatus(await s.patch(`${CM}/jp-bad`, '[{"op": ', JSON_PATCH), 400, 'BadRequest');
      expect((await s.get(`${CM}/jp-bad`)).body).toEqual(cm);
    });

    it('answers 422 for operations that are wrong in themselves, as Kubernetes does', async () => {
      const cm = await create('jp-wrong');
      for (const bad of [[{ op: 'frobnicate', path: '/data/a' }], [{ op: 'add', value: 1 }], [{ op: 'add', path: '/data/x' }], [{ op: 'move', path: '/data/x' }]]) {
        expectStatus(await s.patch(`${CM}/jp-wrong`, bad, JSON_PATCH), 422, 'Invalid');
      }
      expect((await s.get(`${CM}/jp-wrong`)).body).toEqual(cm);
    });

    it('answers 413 for more than 10000 operations', async () => {
      await create('jp-many');
      const ops = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/data/a', value: '1' }));
      const st = expectStatus(await s.patch(`${CM}/jp-many`, ops, JSON_PATCH), 413, 'RequestEntityTooLarge');
      expect(st.message).toBe('Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    });
  });

  describe('merge patch', () => {
    it('merges objects and deletes keys set to null', async () => {
      await create('mp');
      const r = await s.patch(`${CM}/mp`, { metadata: { labels: { app: null, tier: 'db' } }, data: { a: null, c: '3' } }, MERGE_PATCH);
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toEqual({ b: '2', c: '3' });
      expect(r.body.metadata.labels).toEqual({ tier: 'db' });
    });

    it('accepts a charset parameter on the media type', async () => {
      await create('mp-charset');
      const r = await s.patch(`${CM}/mp-charset`, { data: { a: 'x' } }, `${MERGE_PATCH}; charset=utf-8`);
      expect(r.status).toBe(200);
    });

    it('answers 400 for a patch that is not an object or not JSON', async () => {
      await create('mp-bad');
      expectStatus(await s.patch(`${CM}/mp-bad`, [1], MERGE_PATCH), 400, 'BadRequest');
      expectStatus(await s.patch(`${CM}/mp-bad`, '{', MERGE_PATCH), 400, 'BadRequest');
    });

    it('keeps the resourceVersion when the patch changes nothing', async () => {
      const cm = await create('mp-noop');
      const r = await s.patch(`${CM}/mp-noop`, { data: { a: '1' } }, MERGE_PATCH);
      expect(r.status).toBe(200);
      expect(r.body.metadata.resourceVersion).toBe(cm.metadata.resourceVersion);
    });
  });

  describe('preconditions', () => {
    it('uses a resourceVersion in the patch as a precondition', async () => {
      const cm = await create('pre-rv');
      await s.patch(`${CM}/pre-rv`, { data: { a: '2' } }, MERGE_PATCH);
      const stale = await s.patch(`${CM}/pre-rv`, { metadata: { resourceVersion: cm.metadata.resourceVersion }, data: { a: '3' } }, MERGE_PATCH);
      const st = expectStatus(stale, 409, 'Conflict');
      expect(st.message).toBe('Operation cannot be fulfilled on configmaps "pre-rv": the object has been modified; please apply your changes to the latest version and try again');
      const cur = (await s.get(`${CM}/pre-rv`)).body;
      expect(cur.data.a).toBe('2');
      const fresh = await s.patch(`${CM}/pre-rv`, { metadata: { resourceVersion: cur.metadata.resourceVersion }, data: { a: '3' } }, MERGE_PATCH);
      expect(fresh.status).toBe(200);
      const jp = await s.patch(`${CM}/pre-rv`, [{ op: 'replace', path: '/metadata/resourceVersion', value: cm.metadata.resourceVersion }, { op: 'replace', path: '/data/a', value: '4' }], JSON_PATCH);
      expectStatus(jp, 409, 'Conflict');
    });

    it('answers 404 for a missing object and never creates it', async () => {
      const st = expectStatus(await s.patch(`${CM}/nobody`, { data: { a: '1' } }, MERGE_PATCH), 404, 'NotFound');
      expect(st.message).toBe('configmaps "nobody" not found');
      // Not even for a kind that creates on PUT.
      expectStatus(await s.patch(`${WIDGETS}/nobody`, { spec: { size: 1 } }, MERGE_PATCH), 404, 'NotFound');
      expect((await s.get(`${WIDGETS}/nobody`)).status).toBe(404);
    });
  });

  describe('content types and options', () => {
    it('answers 415 for other patch types, naming what is supported', async () => {
      await create('ct');
      for (const type of ['application/json', 'text/plain']) {
        const st = expectStatus(await s.patch(`${CM}/ct`, { data: { a: 'x' } }, type), 415, 'UnsupportedMediaType');
        expect(st.message).toBe(
          'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
        );
      }
      expect((await s.get(`${CM}/ct`)).body.data.a).toBe('1');
    });

    it('refuses force on a non-apply patch', async () => {
      await create('force');
      for (const q of ['force=true', 'force=false']) {
        const st = expectStatus(await s.patch(`${CM}/force?${q}`, { data: { a: 'x' } }, MERGE_PATCH), 422, 'Invalid');
        expect(st.message).toBe('PatchOptions.meta.orch.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
      }
      expect((await s.get(`${CM}/force`)).body.data.a).toBe('1');
    });

    it('supports dryRun', async () => {
      const cm = await create('patch-dry');
      const r = await s.patch(`${CM}/patch-dry?dryRun=All`, { data: { a: 'dry' } }, MERGE_PATCH);
      expect(r.status).toBe(200);
      expect(r.body.data.a).toBe('dry');
      expect((await s.get(`${CM}/patch-dry`)).body).toEqual(cm);
    });

    it('applies fieldValidation to the patched object', async () => {
      await create('patch-fv');
      const warn = await s.patch(`${CM}/patch-fv`, { data: { a: 'w' }, extra: 1 }, MERGE_PATCH);
      expect(warn.status).toBe(200);
      expect(warningsOf(warn)).toEqual(['unknown field "extra"']);
      const strict = await s.patch(`${CM}/patch-fv?fieldValidation=Strict`, { data: { a: 's' }, extra: 1 }, MERGE_PATCH);
      // As Kubernetes: 422 naming the patch, with the patched object (keys sorted) as the value.
      const st = expectStatus(strict, 422, 'Invalid');
      expect(st.message).toMatch(/^ "" is invalid: patch: Invalid value: "\{.*\\"extra\\":1.*\}": strict decoding error: unknown field "extra"$/);
      expect(st.details.causes).toEqual([expect.objectContaining({ reason: 'FieldValueInvalid', field: 'patch' })]);
      expect((await s.get(`${CM}/patch-fv`)).body.data.a).toBe('w');
    });
  });

  describe('invalid results', () => {
    it('answers 422 and changes nothing when the result is invalid', async () => {
      const cm = await create('pi');
      const st = expectStatus(await s.patch(`${CM}/pi`, { data: { 'bad key': 'x' } }, MERGE_PATCH), 422, 'Invalid');
      expect(st.details.causes).toEqual([expect.objectContaining({ field: 'data[bad key]' })]);
      expect((await s.get(`${CM}/pi`)).body).toEqual(cm);
    });

    it('answers 400 when the result has a wrong type', async () => {
      await create('pi-type');
      expectStatus(await s.patch(`${CM}/pi-type`, { data: { a: 5 } }, MERGE_PATCH), 400, 'BadRequest');
      expectStatus(await s.patch(`${CM}/pi-type`, [{ op: 'replace', path: '/metadata', value: 'x' }], JSON_PATCH), 400, 'BadRequest');
    });

    it('refuses a changed name or namespace as Kubernetes does (400)', async () => {
      await create('pi-name');
      const name = expectStatus(await s.patch(`${CM}/pi-name`, { metadata: { name: 'renamed' } }, MERGE_PATCH), 400, 'BadRequest');
      expect(name.message).toBe('the name of the object (renamed) does not match the name on the URL (pi-name)');
      const ns = expectStatus(await s.patch(`${CM}/pi-name`, { metadata: { namespace: 'orch-system' } }, MERGE_PATCH), 400, 'BadRequest');
      expect(ns.message).toBe('the namespace of the object (orch-system) does not match the namespace on the request (default)');
      expect((await s.get(`${CM}/renamed`)).status).toBe(404);
    });

    it('refuses a changed uid as an immutable field (422)', async () => {
      const cm = await create('pi-uid');
      const st = expectStatus(await s.patch(`${CM}/pi-uid`, [{ op: 'replace', path: '/metadata/uid', value: 'other-uid' }], JSON_PATCH), 422, 'Invalid');
      expect(st.message).toBe('ConfigMap "pi-uid" is invalid: metadata.uid: Invalid value: "other-uid": field is immutable');
      expect((await s.get(`${CM}/pi-uid`)).body.metadata.uid).toBe(cm.metadata.uid);
    });

    it('ignores a changed creationTimestamp', async () => {
      const cm = await create('pi-ts');
      const r = await s.patch(`${CM}/pi-ts`, { metadata: { creationTimestamp: '2001-01-01T00:00:00Z' } }, MERGE_PATCH);
      expect(r.status).toBe(200);
      expect(r.body.metadata.creationTimestamp).toBe(cm.metadata.creationTimestamp);
      expect(r.body.metadata.resourceVersion).toBe(cm.metadata.resourceVersion);
    });
  });

  describe('subresources', () => {
    it('patches status through /status only', async () => {
      expect((await s.post(WIDGETS, { metadata: { name: 'pw' }, spec: { size: 1 } })).status).toBe(201);
      const st = await s.patch(`${WIDGETS}/pw/status`, { spec: { size: 5 }, status: { ready: true } }, MERGE_PATCH);
      expect(st.status, st.text).toBe(200);
      expect(st.body.spec).toEqual({ size: 1 });
      expect(st.body.status).toEqual({ ready: true });
      const main = await s.patch(`${WIDGETS}/pw`, { spec: { size: 2 }, status: { ready: false, observedGeneration: 9 } }, MERGE_PATCH);
      expect(main.body.spec).toEqual({ size: 2 });
      expect(main.body.status).toEqual({ ready: true });
      expect(main.body.metadata.generation).toBe(2);
    });
  });
});
