/** Asking for a Table or metadata only: Accept negotiation, includeObject, lists, single gets, views, watches. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const META = 'meta.orch.io';
const TABLE = `application/json;as=Table;g=${META};v=v1`;

describe('Table and PartialObjectMetadata over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.post('/api/v1/namespaces', { metadata: { name: 'tb' } })).status).toBe(201);
    for (const n of ['a', 'b', 'c']) {
      expect((await s.post('/api/v1/namespaces/tb/configmaps', { metadata: { name: n, labels: { app: 'x' } }, data: { k: 'v' } })).status).toBe(201);
    }
  });
  afterAll(() => s.close());

  const cm = '/api/v1/namespaces/tb/configmaps';

  it('answers a Table in meta v1 and v1beta1', async () => {
    for (const v of ['v1', 'v1beta1']) {
      const r = await s.get(`${cm}/a`, { accept: `application/json;as=Table;g=${META};v=${v}` });
      expect(r.status, r.text).toBe(200);
      expect(r.body.kind).toBe('Table');
      expect(r.body.apiVersion).toBe(`${META}/${v}`);
      expect(r.body.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: `${META}/${v}`, metadata: { name: 'a', labels: { app: 'x' } } });
    }
  });

  it('a kind without its own columns has the default table: Name and Created At', async () => {
    const r = await s.get('/apis/rbac.authorization.orch.io/v1/clusterroles', { accept: TABLE });
    expect(r.status).toBe(200);
    expect(r.body.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.priority])).toEqual([
      ['Name', 'string', 'name', 0],
      ['Created At', 'date', '', 0],
    ]);
  });

  it('chooses the JSON Table when protobuf Table comes first (kubectl 1.32+), and JSON objects as the last fallback', async () => {
    const accept = `application/vnd.orch.protobuf;as=Table;v=v1;g=${META}, application/json;as=Table;v=v1;g=${META}, application/json`;
    const r = await s.get(cm, { accept });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body.kind).toBe('Table');
    expect(r.body.rows).toHaveLength(3);
  });

  it('skips conversions it cannot make and answers 406 when nothing is left', async () => {
    for (const accept of [
      `application/json;as=Table;g=meta.k8s.io;v=v1, application/json`,
      `application/json;as=Table;g=${META};v=v2, application/json`,
      `application/json;as=Tabel;g=${META};v=v1, application/json`,
      `application/json;as=Table, application/json`,
    ]) {
      const r = await s.get(cm, { accept });
      expect(r.status, accept).toBe(200);
      expect(r.body.kind, accept).toBe('ConfigMapList');
    }
    for (const accept of [`application/vnd.orch.protobuf;as=Table;g=${META};v=v1`, `application/json;as=Table;g=${META};v=v3`, `application/json;as=Table;g=meta.k8s.io;v=v1`]) {
      const r = await s.get(cm, { accept });
      expect(r.status, accept).toBe(406);
      expect(r.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
      expect(r.body.message).toContain('application/json');
    }
  });

  it('writes a Table as YAML', async () => {
    const r = await s.get(`${cm}/a`, { accept: `application/yaml;as=Table;g=${META};v=v1` });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/yaml');
    expect(r.text).toContain('kind: Table');
    expect(r.text).toContain('columnDefinitions:');
  });

  it('includeObject: Metadata by default, the whole object with Object, none with None; anything else is a 400', async () => {
    const obj = await s.get(`${cm}/a?includeObject=Object`, { accept: TABLE });
    expect(obj.body.rows[0].object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { k: 'v' } });
    const none = await s.get(`${cm}?includeObject=None`, { accept: TABLE });
    expect(none.body.rows.map((r: any) => r.object)).toEqual([null, null, null]);
    const meta = await s.get(`${cm}?includeObject=Metadata`, { accept: TABLE });
    expect(meta.body.rows[0].object.kind).toBe('PartialObjectMetadata');
    expect(meta.body.rows[0].object.data).toBeUndefined();
    const bad = await s.get(`${cm}?includeObject=Everything`, { accept: TABLE });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Unable to convert to Table as requested: includeObject: Unsupported value: "Everything": supported values: "Metadata", "None", "Object"');
    // Not a Table request: the parameter means nothing.
    expect((await s.get(`${cm}?includeObject=Everything`)).status).toBe(200);
  });

  it('a Table of a list page keeps resourceVersion, continue and remainingItemCount', async () => {
    const first = await s.get(`${cm}?limit=2`, { accept: TABLE });
    expect(first.body.rows.map((r: any) => r.cells[0])).toEqual(['a', 'b']);
    expect(first.body.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(first.body.metadata.remainingItemCount).toBe(1);
    expect(first.body.metadata.continue).toBeTruthy();
    const next = await s.get(`${cm}?limit=2&continue=${encodeURIComponent(first.body.metadata.continue)}`, { accept: TABLE });
    expect(next.body.rows.map((r: any) => r.cells[0])).toEqual(['c']);
    expect(next.body.metadata.continue).toBeUndefined();
    expect(next.body.metadata.remainingItemCount).toBeUndefined();
    expect(next.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
  });

  it('answers PartialObjectMetadata for an object and PartialObjectMetadataList for a list, and 406 the other way round', async () => {
    const one = await s.get(`${cm}/a`, { accept: `application/json;as=PartialObjectMetadata;g=${META};v=v1` });
    expect(one.body).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: `${META}/v1`, metadata: { name: 'a', namespace: 'tb' } });
    expect(one.body.data).toBeUndefined();
    const list = await s.get(`${cm}?limit=2`, { accept: `application/json;as=PartialObjectMetadataList;g=${META};v=v1` });
    expect(list.body.kind).toBe('PartialObjectMetadataList');
    expect(list.body.items.map((i: any) => [i.kind, i.metadata.name])).toEqual([
      ['PartialObjectMetadata', 'a'],
      ['PartialObjectMetadata', 'b'],
    ]);
    expect(list.body.metadata.continue).toBeTruthy();
    expect((await s.get(cm, { accept: `application/json;as=PartialObjectMetadata;g=${META};v=v1` })).status).toBe(406);
    expect((await s.get(`${cm}/a`, { accept: `application/json;as=PartialObjectMetadataList;g=${META};v=v1` })).status).toBe(406);
  });

  it('writes metadata lists in protobuf (metadata informers ask for them so)', async () => {
    const r = await s.get(cm, { accept: `application/vnd.orch.protobuf;as=PartialObjectMetadataList;g=${META};v=v1, application/json` });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/vnd.orch.protobuf');
    const bytes = Buffer.from(r.text, 'latin1');
    expect([...bytes.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
    expect(r.text).toContain('PartialObjectMetadataList');
  });

  it('the /scale view has the Scale table', async () => {
    const d = {
      metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
    };
    expect((await s.post('/apis/apps/v1/namespaces/tb/deployments', d)).status).toBe(201);
    const r = await s.get('/apis/apps/v1/namespaces/tb/deployments/web/scale', { accept: TABLE });
    expect(r.status, r.text).toBe(200);
    expect(r.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Desired', 'Available', 'Age']);
    expect(r.body.rows[0].cells.slice(0, 3)).toEqual(['web', 3, 0]);
    const status = await s.get('/apis/apps/v1/namespaces/tb/deployments/web/status', { accept: TABLE });
    expect(status.body.rows[0].cells.slice(0, 2)).toEqual(['web', '0/3']);
  });

  it('a version served by conversion shows its own object in rows, with the kind’s columns', async () => {
    const plcs = '/apis/flowcontrol.apiserver.orch.io/v1beta1/prioritylevelconfigurations';
    const made = await s.post(plcs, { metadata: { name: 'tlevel' }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: 7, limitResponse: { type: 'Reject' } } } });
    expect(made.status, made.text).toBe(201);
    const r = await s.get(`${plcs}/tlevel?includeObject=Object`, { accept: TABLE });
    expect(r.status, r.text).toBe(200);
    expect(r.body.columnDefinitions[2].name).toBe('AssuredConcurrencyShares');
    expect(r.body.rows[0].cells.slice(0, 6)).toEqual(['tlevel', 'Limited', 7, '<none>', '<none>', '<none>']);
    expect(r.body.rows[0].object.apiVersion).toBe('flowcontrol.apiserver.orch.io/v1beta1');
  });

  it('a finished pod’s row carries the Completed condition', async () => {
    const pods = '/api/v1/namespaces/tb/pods';
    const made = await s.post(pods, { metadata: { name: 'job' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    expect(made.status).toBe(201);
    const pod = made.body;
    pod.status = {
      phase: 'Succeeded',
      containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 2, state: { terminated: { exitCode: 0, reason: 'Completed' } }, lastState: { terminated: { exitCode: 1, finishedAt: new Date(Date.now() - 3 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z') } } }],
    };
    const put = await s.put(`${pods}/job/status`, pod);
    expect(put.status, put.text).toBe(200);
    const r = await s.get(`${pods}/job`, { accept: TABLE });
    expect(r.body.rows[0].cells.slice(1, 3)).toEqual(['0/1', 'Completed']);
    expect(r.body.rows[0].cells[3]).toMatch(/^2 \(\S+ ago\)$/);
    expect(r.body.rows[0].conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
  });

  it('a watch sends one-row Tables, column definitions in the first event only', async () => {
    const w = await s.watch(`${cm}?watch=true`, { accept: `${TABLE}, application/json` });
    expect(w.status).toBe(200);
    expect(w.headers['content-type']).toBe('application/json');
    const initial = await w.next(3);
    expect(initial.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'ADDED']);
    expect(initial[0]?.object.kind).toBe('Table');
    expect(initial[0]?.object.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(initial[1]?.object.columnDefinitions).toBeNull();
    expect(initial[2]?.object.columnDefinitions).toBeNull();
    for (const e of initial) {
      expect(e.object.rows).toHaveLength(1);
      expect(e.object.metadata.resourceVersion).toBe(e.object.rows[0].object.metadata.resourceVersion);
    }
    expect((await s.post(cm, { metadata: { name: 'd' }, data: { a: '1', b: '2' } })).status).toBe(201);
    const [added] = await w.next(1);
    expect(added?.object.rows[0].cells.slice(0, 2)).toEqual(['d', 2]);
    expect(added?.object.rows[0].object.kind).toBe('PartialObjectMetadata');
    w.close();
  });

  it('a metadata watch sends PartialObjectMetadata objects', async () => {
    const w = await s.watch(`${cm}?watch=true&fieldSelector=metadata.name=a`, { accept: `application/json;as=PartialObjectMetadata;g=${META};v=v1` });
    const [e] = await w.next(1);
    expect(e?.object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: `${META}/v1`, metadata: { name: 'a' } });
    w.close();
  });
});

describe('under --api-domain=k8s.io the Table group is meta.k8s.io', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
  });
  afterAll(() => s.close());

  it('answers meta.k8s.io Tables and skips meta.orch.io ones', async () => {
    const r = await s.get('/api/v1/namespaces/default', { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' });
    expect(r.body).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(r.body.rows[0].cells.slice(0, 2)).toEqual(['default', 'Active']);
    const other = await s.get('/api/v1/namespaces/default', { accept: 'application/json;as=Table;v=v1;g=meta.orch.io, application/json' });
    expect(other.body.kind).toBe('Namespace');
  });
});
