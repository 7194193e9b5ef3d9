/**
 * Nothing a client puts in a body can turn a write's answer into an error after the write: warning
 * texts built from field names (non-ASCII, control characters, thousands of them) are made safe as
 * Kubernetes makes them, so a stored object is answered 201/200 and a refused one 422, never 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';

let s: TestServer;
const CM = '/api/v1/namespaces/default/configmaps';

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

/** The Warning header values as a client reads them: the header's bytes are UTF-8. */
function warnings(r: Reply): string[] {
  const h = r.headers.warning;
  const values = h === undefined ? [] : Array.isArray(h) ? h : h.split(/,\s*(?=299 )/);
  return values.map((v) => Buffer.from(v, 'latin1').toString('utf8'));
}

async function globalRv(): Promise<string> {
  return (await s.get('/api/v1/namespaces')).body.metadata.resourceVersion as string;
}

const euroBody = (name: string): string => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"€":1}`;
const euroWarning = '299 - "unknown field \\"€\\""';

describe('a warning about a non-ASCII field name', () => {
  it('create: stored and answered 201 with the warning (was stored, then answered 500 with no body)', async () => {
    const r = await s.post(CM, euroBody('w1'));
    expect(r.status).toBe(201);
    expect(r.body.metadata.name).toBe('w1');
    expect(warnings(r)).toEqual([euroWarning]);
    expect((await s.get(`${CM}/w1`)).status).toBe(200);
  });

  it('create with dryRun=All: answered 201 and nothing is stored', async () => {
    const before = await globalRv();
    const r = await s.post(`${CM}?dryRun=All`, euroBody('w-dry'));
    expect(r.status).toBe(201);
    expect(warnings(r)).toEqual([euroWarning]);
    expect((await s.get(`${CM}/w-dry`)).status).toBe(404);
    expect(await globalRv()).toBe(before);
  });

  it('a refused create is answered 422 with its Status, and nothing is stored', async () => {
    const before = await globalRv();
    const r = await s.post(CM, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"Bad_Name"},"€":1}`);
    expect({ status: r.status, kind: r.body?.kind, reason: r.body?.reason }).toEqual({ status: 422, kind: 'Status', reason: 'Invalid' });
    expect(warnings(r)).toEqual([euroWarning]);
    expect(await globalRv()).toBe(before);
  });

  it('update, merge patch, strategic merge patch and JSON patch: 200 with the warning', async () => {
    const current = (await s.get(`${CM}/w1`)).body;
    const put = await s.put(`${CM}/w1`, JSON.stringify({ ...current, data: { a: '1' } }).replace(/}$/, ',"€":2}'));
    expect(put.status).toBe(200);
    expect(warnings(put)).toEqual([euroWarning]);
    for (const type of ['application/merge-patch+json', 'application/strategic-merge-patch+json']) {
      const r = await s.patch(`${CM}/w1`, '{"€":3,"data":{"b":"2"}}', type);
      expect(r.status, type).toBe(200);
      expect(warnings(r)).toEqual([euroWarning]);
    }
    const jp = await s.patch(`${CM}/w1`, '[{"op":"add","path":"/€","value":4}]', 'application/json-patch+json');
    expect(jp.status).toBe(200);
    expect(warnings(jp)).toEqual([euroWarning]);
    expect((await s.get(`${CM}/w1`)).body.data).toEqual({ a: '1', b: '2' });
  });

  it('a patch dry run: 200, nothing stored', async () => {
    const before = await globalRv();
    const r = await s.patch(`${CM}/w1?dryRun=All`, '{"€":3,"data":{"c":"3"}}', 'application/merge-patch+json');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ a: '1', b: '2', c: '3' });
    expect(warnings(r)).toEqual([euroWarning]);
    expect(await globalRv()).toBe(before);
  });
});

describe('warnings Kubernetes would not send are dropped, not fatal', () => {
  it('a field name with control characters is quoted as Go quotes it: 201', async () => {
    const r = await s.post(CM, '{"metadata":{"name":"w2"},"a\\nb":1,"c\\u0000":2,"ok":3}');
    expect(r.status).toBe(201);
    expect(warnings(r)).toEqual(['299 - "unknown field \\"a\\\\nb\\""', '299 - "unknown field \\"c\\\\u0000\\""', '299 - "unknown field \\"ok\\""']);
  });

  it('thousands of long unknown fields: 201, with the warnings cut to Kubernetes\' budget', async () => {
    const fields = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`${i}-${'x'.repeat(300)}`, i]));
    const r = await s.post(CM, { metadata: { name: 'w3' }, ...fields });
    expect(r.status).toBe(201);
    const sent = warnings(r);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.reduce((n, w) => n + w.length, 0)).toBeLessThan(5000);
  });
});
