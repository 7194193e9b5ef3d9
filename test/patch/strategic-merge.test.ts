/**
 * Strategic merge patch over HTTP: on the main resource, the status subresource and a view
 * subresource (/scale), on ConfigMaps, and the refusals (malformed patches 400, patches that do not
 * fit 422, kinds without a schema 415), each leaving the object unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CM, expectStatus } from '../rest/fixtures.js';
import { BLOBS, GROUP, JSONPATCH, MERGE, PATCH_TEST_RESOURCES, RIGS, rig, SMP } from './fixtures.js';

describe('strategic merge patch over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ resources: PATCH_TEST_RESOURCES });
  });
  afterAll(() => s.close());

  const create = async (name: string): Promise<any> => {
    const r = await s.post(RIGS, rig(name));
    expect(r.status, r.text).toBe(201);
    return r.body;
  };

  it('merges containers by name, their ports and env by key, and replaces atomic lists', async () => {
    const before = await create('merge');
    const r = await s.patch(
      `${RIGS}/merge`,
      {
        spec: {
          containers: [
            { name: 'web', image: 'nginx:2', ports: [{ containerPort: 443, protocol: 'TCP' }], env: [{ name: 'B', value: '2' }] },
            { name: 'side', args: ['sleep', '9'] },
          ],
          tags: ['c'],
        },
      },
      SMP,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.containers).toEqual([
      {
        name: 'web',
        image: 'nginx:2',
        ports: [
          { containerPort: 443, protocol: 'TCP' },
          { containerPort: 80, protocol: 'TCP' },
        ],
        env: [
          { name: 'B', value: '2' },
          { name: 'A', value: '1' },
        ],
      },
      { name: 'side', image: 'busybox', args: ['sleep', '9'] },
    ]);
    expect(r.body.spec.tags).toEqual(['c', 'a', 'b']);
    expect(r.body.metadata.generation).toBe(before.metadata.generation + 1);
    expect((await s.get(`${RIGS}/merge`)).body).toEqual(r.body);
  });

  it('deletes a list item, orders the list, and removes values from a primitive list', async () => {
    await create('directives');
    const r = await s.patch(
      `${RIGS}/directives`,
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'new' }, { name: 'web' }],
          containers: [{ name: 'new', image: 'redis' }, { name: 'side', $patch: 'delete' }],
          '$deleteFromPrimitiveList/tags': ['a'],
          selector: { app: null, tier: 'x' },
        },
      },
      SMP,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.containers.map((c: any) => c.name)).toEqual(['new', 'web']);
    expect(r.body.spec.tags).toEqual(['b']);
    expect(r.body.spec.selector).toEqual({ tier: 'x' });
  });

  it('replaces a whole list with a $patch: replace item', async () => {
    await create('replace');
    const r = await s.patch(`${RIGS}/replace`, { spec: { containers: [{ $patch: 'replace' }, { name: 'only', image: 'x' }] } }, SMP);
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.containers).toEqual([{ name: 'only', image: 'x' }]);
  });

  it('clears the fields $retainKeys does not keep (a strategy switch)', async () => {
    const created = await create('retain');
    expect(created.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
    // A merge patch cannot switch: the defaulted rollingUpdate stays.
    const merged = await s.patch(`${RIGS}/retain`, { spec: { strategy: { type: 'Recreate' } } }, MERGE);
    expect(merged.body.spec.strategy).toEqual({ type: 'Recreate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
    const r = await s.patch(`${RIGS}/retain`, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, SMP);
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('patches the status subresource, merging conditions by type and leaving spec alone', async () => {
    await create('status');
    const first = await s.patch(`${RIGS}/status/status`, { status: { replicas: 2, conditions: [{ type: 'Ready', status: 'False' }, { type: 'Live', status: 'True' }] } }, SMP);
    expect(first.status, first.text).toBe(200);
    const r = await s.patch(`${RIGS}/status/status`, { spec: { replicas: 9 }, status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Up' }] } }, SMP);
    expect(r.status, r.text).toBe(200);
    expect(r.body.status).toEqual({
      replicas: 2,
      conditions: [
        { type: 'Ready', status: 'True', reason: 'Up' },
        { type: 'Live', status: 'True' },
      ],
    });
    expect(r.body.spec.replicas).toBe(2);
  });

  it('patches the scale view, and the parent follows', async () => {
    await create('scaled');
    const r = await s.patch(`${RIGS}/scaled/scale`, { spec: { replicas: 5 } }, SMP);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 5 } });
    expect((await s.get(`${RIGS}/scaled`)).body.spec.replicas).toBe(5);
  });

  it('merges ConfigMap data, null deleting a key', async () => {
    expect((await s.post(CM, { metadata: { name: 'smp-cm', labels: { a: '1' } }, data: { x: '1', y: '2' } })).status).toBe(201);
    const r = await s.patch(`${CM}/smp-cm`, { metadata: { labels: { b: '2' } }, data: { x: null, z: '3' } }, SMP);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual({ y: '2', z: '3' });
    expect(r.body.metadata.labels).toEqual({ a: '1', b: '2' });
  });

  it('supports dryRun', async () => {
    const before = await create('dry');
    const r = await s.patch(`${RIGS}/dry?dryRun=All`, { spec: { replicas: 7 } }, SMP);
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.replicas).toBe(7);
    expect((await s.get(`${RIGS}/dry`)).body).toEqual(before);
  });

  describe('refusals, each changing nothing', () => {
    const refusals: { name: string; body: unknown; code: number; reason: string; message: string | RegExp }[] = [
      { name: 'text that is not JSON', body: '{"spec":', code: 400, reason: 'BadRequest', message: /^the patch is not valid JSON/ },
      { name: 'a patch that is not an object', body: [{ op: 'add' }], code: 400, reason: 'BadRequest', message: 'invalid JSON document' },
      {
        name: 'a list item without its merge key',
        body: { spec: { containers: [{ image: 'x' }] } },
        code: 422,
        reason: 'Invalid',
        message: 'map: map[image:x] does not contain declared merge key: name',
      },
      { name: '$patch: merge on a list item', body: { spec: { containers: [{ $patch: 'merge' }] } }, code: 422, reason: 'Invalid', message: 'merging lists cannot yet be specified in the patch' },
      { name: 'an unknown $patch on an object', body: { spec: { strategy: { $patch: 'frob' } } }, code: 422, reason: 'Invalid', message: 'unknown patch type: frob in map: map[$patch:frob]' },
      { name: 'a key $retainKeys does not list', body: { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: {} } } }, code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
      { name: 'a malformed $setElementOrder key', body: { spec: { $setElementOrder: [] } }, code: 400, reason: 'BadRequest', message: 'invalid patch format of setElementOrder list' },
      { name: 'a malformed $deleteFromPrimitiveList key', body: { spec: { '$deleteFromPrimitiveList-tags': [] } }, code: 400, reason: 'BadRequest', message: 'invalid patch format of primitive list' },
      { name: 'a $setElementOrder against the patch order', body: { spec: { '$setElementOrder/tags': ['a', 'b'], tags: ['b', 'a'] } }, code: 422, reason: 'Invalid', message: /doesn't match \$setElementOrder list/ },
      { name: 'a result of the wrong type', body: { spec: { replicas: 'many' } }, code: 400, reason: 'BadRequest', message: /cannot unmarshal string into Go struct field RigSpec.spec.replicas of type int32/ },
      { name: 'a result that fails validation', body: { spec: { replicas: -1 } }, code: 422, reason: 'Invalid', message: /spec.replicas: Invalid value: -1/ },
    ];
    it.each(refusals.map((r) => [r.name, r] as const))('%s', async (_, c) => {
      const name = `refuse-${refusals.indexOf(c)}`;
      const before = await create(name);
      const st = expectStatus(await s.patch(`${RIGS}/${name}`, c.body, SMP), c.code, c.reason);
      if (typeof c.message === 'string') expect(st.message).toBe(c.message);
      else expect(st.message).toMatch(c.message);
      expect((await s.get(`${RIGS}/${name}`)).body).toEqual(before);
    });
  });

  it('answers 415 for a kind without a schema, naming the patch types it takes', async () => {
    const created = await s.post(BLOBS, { apiVersion: `${GROUP}/v1`, kind: 'Blob', metadata: { name: 'b' }, anything: { a: [1] } });
    expect(created.status, created.text).toBe(201);
    const st = expectStatus(await s.patch(`${BLOBS}/b`, { anything: { b: 2 } }, SMP), 415, 'UnsupportedMediaType');
    expect(st.message).toBe('the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
    const merged = await s.patch(`${BLOBS}/b`, { anything: { b: 2 } }, MERGE);
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.anything).toEqual({ a: [1], b: 2 });
    const jp = await s.patch(`${BLOBS}/b`, [{ op: 'add', path: '/anything/c', value: 3 }], JSONPATCH);
    expect(jp.status, jp.text).toBe(200);
  });
});
