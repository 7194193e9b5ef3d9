/** ControllerRevision (apps/v1): document 2's table and its state row: created, then immutable data; deletable. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectStatus } from '../../rest/fixtures.js';

const NS = 'cr-test';
const CR = `/apis/apps/v1/namespaces/${NS}/controllerrevisions`;
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const data = { spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } };

describe('ControllerRevision', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it('is served in apps/v1, namespaced, with every verb and no subresource', async () => {
    const doc = (await s.get('/apis/apps/v1')).body;
    const entry = doc.resources.find((r: any) => r.name === 'controllerrevisions');
    expect(entry).toMatchObject({ kind: 'ControllerRevision', namespaced: true, verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(doc.resources.filter((r: any) => r.name.startsWith('controllerrevisions/'))).toEqual([]);
  });

  it('stores data as sent, whatever it holds, with its revision', async () => {
    const r = await s.post(CR, { metadata: { name: 'web-1' }, data, revision: 1 });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ apiVersion: 'apps/v1', kind: 'ControllerRevision', data, revision: 1 });
    expect((await s.get(`${CR}/web-1`)).body.data).toEqual(data);
    const list = await s.get(CR);
    expect(list.body.kind).toBe('ControllerRevisionList');
  });

  it('requires data and a revision that is not negative', async () => {
    const none = expectStatus(await s.post(CR, { metadata: { name: 'no-data' }, revision: 1 }), 422, 'Invalid');
    expect(none.details.causes).toEqual([{ reason: 'FieldValueRequired', field: 'data', message: 'Required value: data is mandatory' }]);
    const neg = expectStatus(await s.post(CR, { metadata: { name: 'neg' }, data, revision: -1 }), 422, 'Invalid');
    expect(neg.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'revision', message: 'Invalid value: -1: must be greater than or equal to 0' }]);
  });

  it('refuses every write that changes data, by update or patch', async () => {
    const cr = (await s.post(CR, { metadata: { name: 'frozen' }, data, revision: 2 })).body;
    const put = expectStatus(await s.put(`${CR}/frozen`, { ...cr, data: { other: true } }), 422, 'Invalid');
    expect(put.details.causes).toEqual([expect.objectContaining({ reason: 'FieldValueInvalid', field: 'data', message: expect.stringContaining('field is immutable') })]);
    expectStatus(await s.patch(`${CR}/frozen`, { data: { spec: { replicas: 3 } } }, MERGE), 422, 'Invalid');
    expectStatus(await s.patch(`${CR}/frozen`, [{ op: 'remove', path: '/data' }], JSON_PATCH), 422, 'Invalid');
    expect((await s.get(`${CR}/frozen`)).body.data).toEqual(data);
  });

  it('lets metadata change, and the revision number too, as Kubernetes does', async () => {
    await s.post(CR, { metadata: { name: 'labelled' }, data, revision: 3 });
    const r = await s.patch(`${CR}/labelled`, { metadata: { labels: { rev: 'x' } }, revision: 4 }, MERGE);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ metadata: { labels: { rev: 'x' } }, revision: 4, data });
  });

  it('can be deleted', async () => {
    await s.post(CR, { metadata: { name: 'gone' }, data, revision: 1 });
    expect((await s.del(`${CR}/gone`)).status).toBe(200);
    expect((await s.get(`${CR}/gone`)).status).toBe(404);
  });
});
