/**
 * Writes answer in the representation Accept asks for, as Kubernetes' transformResponseObject makes
 * them: create, update, patch (every type, apply too), delete and deletecollection return a Table
 * or metadata of the object they return; a Status is never converted. The choice is made before
 * the write, so a refused Accept changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const META = 'meta.orch.io';
const TABLE = `application/json;as=Table;g=${META};v=v1`;
const PARTIAL = `application/json;as=PartialObjectMetadata;g=${META};v=v1`;
const PARTIAL_LIST = `application/json;as=PartialObjectMetadataList;g=${META};v=v1`;
const NS = 'tw';
const cm = `/api/v1/namespaces/${NS}/configmaps`;
const configMap = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'w' }, ...extra }, data: { k: 'v' } });

/** A one-row Table of the named object, its row carrying the object's metadata. */
function expectRow(r: { status: number; text: string; body: any; headers: Record<string, unknown> }, name: string): void {
  expect(r.headers['content-type']).toBe('application/json');
  expect(r.body.kind, r.text).toBe('Table');
  expect(r.body.apiVersion).toBe(`${META}/v1`);
  expect(r.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Data', 'Age']);
  expect(r.body.rows).toHaveLength(1);
  expect(r.body.rows[0].cells.slice(0, 2)).toEqual([name, 1]);
  expect(r.body.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: `${META}/v1`, metadata: { name, labels: { app: 'w' } } });
  expect(r.body.metadata.resourceVersion).toBe(r.body.rows[0].object.metadata.resourceVersion);
}

describe('Table and metadata answers of writes', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it('create answers 201 with a one-row Table, or the object as includeObject asks', async () => {
    const r = await s.post(cm, configMap('c1'), { headers: { accept: TABLE } });
    expect(r.status, r.text).toBe(201);
    expectRow(r, 'c1');
    const whole = await s.post(`${cm}?includeObject=Object`, configMap('c2'), { headers: { accept: TABLE } });
    expect(whole.status, whole.text).toBe(201);
    expect(whole.body.rows[0].object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { k: 'v' } });
  });

  it('create answers PartialObjectMetadata, and the fallback range is still honoured', async () => {
    const r = await s.post(cm, configMap('c3'), { headers: { accept: PARTIAL } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: `${META}/v1`, metadata: { name: 'c3' } });
    expect(r.body.data).toBeUndefined();
    const plain = await s.post(cm, configMap('c4'), { headers: { accept: `application/json;as=Table;g=meta.k8s.io;v=v1, application/json` } });
    expect(plain.status).toBe(201);
    expect(plain.body.kind).toBe('ConfigMap');
  });

  it('a conversion a write cannot make, or a bad includeObject, is refused before anything is written', async () => {
    const list = await s.post(cm, configMap('never1'), { headers: { accept: PARTIAL_LIST } });
    expect(list.status, list.text).toBe(406);
    expect(list.body.reason).toBe('NotAcceptable');
    const bad = await s.post(`${cm}?includeObject=All`, configMap('never2'), { headers: { accept: TABLE } });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.message).toContain('Unable to convert to Table as requested');
    for (const n of ['never1', 'never2']) expect((await s.get(`${cm}/${n}`)).status).toBe(404);
    // A PUT refused the same way leaves the object as it was.
    const cur = (await s.get(`${cm}/c1`)).body;
    const put = await s.put(`${cm}/c1`, { ...cur, data: { k: 'changed' } }, { headers: { accept: PARTIAL_LIST } });
    expect(put.status).toBe(406);
    expect((await s.get(`${cm}/c1`)).body.data).toEqual({ k: 'v' });
  });

  it('update (PUT) answers a Table', async () => {
    const cur = (await s.get(`${cm}/c1`)).body;
    const r = await s.put(`${cm}/c1`, { ...cur, data: { k: 'v2' } }, { headers: { accept: TABLE } });
    expect(r.status, r.text).toBe(200);
    expectRow(r, 'c1');
    expect((await s.get(`${cm}/c1`)).body.data).toEqual({ k: 'v2' });
  });

  it('every patch type answers a Table, apply with 201 when it creates and 200 after', async () => {
    const merge = await s.patch(`${cm}/c1`, { data: { k: 'm' } }, 'application/merge-patch+json', { headers: { accept: TABLE } });
    expect(merge.status, merge.text).toBe(200);
    expectRow(merge, 'c1');
    const json = await s.patch(`${cm}/c1`, [{ op: 'replace', path: '/data/k', value: 'j' }], 'application/json-patch+json', { headers: { accept: TABLE } });
    expect(json.status, json.text).toBe(200);
    expectRow(json, 'c1');
    const smp = await s.patch(`${cm}/c1`, { data: { k: 's' } }, 'application/strategic-merge-patch+json', { headers: { accept: TABLE } });
    expect(smp.status, smp.text).toBe(200);
    expectRow(smp, 'c1');
    const applyPath = `${cm}/a1?fieldManager=tw`;
    const created = await s.patch(applyPath, JSON.stringify(configMap('a1')), 'application/apply-patch+yaml', { headers: { accept: TABLE } });
    expect(created.status, created.text).toBe(201);
    expectRow(created, 'a1');
    const again = await s.patch(applyPath, JSON.stringify(configMap('a1')), 'application/apply-patch+yaml', { headers: { accept: PARTIAL } });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'a1' } });
  });

  it('delete answers its Success Status unconverted, in JSON, and a Table of an object finalizers keep', async () => {
    const gone = await s.request('DELETE', `${cm}/c2`, { headers: { accept: TABLE } });
    expect(gone.status, gone.text).toBe(200);
    expect(gone.headers['content-type']).toBe('application/json');
    expect(gone.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Success', details: { name: 'c2', kind: 'configmaps' } });
    expect((await s.post(cm, configMap('kept', { finalizers: ['example.com/hold'] }))).status).toBe(201);
    const kept = await s.request('DELETE', `${cm}/kept`, { headers: { accept: TABLE } });
    expect(kept.status, kept.text).toBe(200);
    expectRow(kept, 'kept');
    expect(kept.body.rows[0].object.metadata.deletionTimestamp).toBeTruthy();
    // The object is now the metadata of the deleted one; a list shape cannot answer for it.
    const partial = await s.request('DELETE', `${cm}/kept`, { headers: { accept: PARTIAL } });
    expect(partial.body).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'kept', finalizers: ['example.com/hold'] } });
  });

  it('deletecollection answers a Table of the deleted objects, or their metadata list', async () => {
    for (const n of ['d1', 'd2']) expect((await s.post(cm, configMap(n, { labels: { app: 'w', del: 'one' } }))).status).toBe(201);
    const table = await s.request('DELETE', `${cm}?labelSelector=del%3Done`, { headers: { accept: TABLE } });
    expect(table.status, table.text).toBe(200);
    expect(table.body.kind).toBe('Table');
    expect(table.body.rows.map((r: any) => r.cells[0]).sort()).toEqual(['d1', 'd2']);
    for (const n of ['d3', 'd4']) expect((await s.post(cm, configMap(n, { labels: { app: 'w', del: 'two' } }))).status).toBe(201);
    const single = await s.request('DELETE', `${cm}?labelSelector=del%3Dtwo`, { headers: { accept: PARTIAL } });
    expect(single.status).toBe(406);
    expect((await s.get(`${cm}?labelSelector=del%3Dtwo`)).body.items).toHaveLength(2);
    const list = await s.request('DELETE', `${cm}?labelSelector=del%3Dtwo`, { headers: { accept: PARTIAL_LIST } });
    expect(list.status, list.text).toBe(200);
    expect(list.body.kind).toBe('PartialObjectMetadataList');
    expect(list.body.items.map((i: any) => i.metadata.name).sort()).toEqual(['d3', 'd4']);
  });

  it('a write to /scale answers the Scale table', async () => {
    const deploy = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'dep' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'dep' } }, template: { metadata: { labels: { app: 'dep' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    expect((await s.post(`/apis/apps/v1/namespaces/${NS}/deployments`, deploy)).status).toBe(201);
    const scaleTable = await s.get(`/apis/apps/v1/namespaces/${NS}/deployments/dep/scale`, { accept: TABLE });
    const r = await s.patch(`/apis/apps/v1/namespaces/${NS}/deployments/dep/scale`, { spec: { replicas: 3 } }, 'application/merge-patch+json', { headers: { accept: TABLE } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.kind).toBe('Table');
    expect(r.body.columnDefinitions).toEqual(scaleTable.body.columnDefinitions);
    expect(r.body.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'dep' } });
  });
});
