/** list: selectors, scopes, order, output options and request bounds, on every embedded backend. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { BACKENDS, cmPath, createCm, createNamespace, names } from './fixtures.js';

describe.each(BACKENDS)('list (%s)', (_backend, opts) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(opts);
    await createNamespace(s, 'alpha');
    await createNamespace(s, 'beta');
    // Created out of order on purpose: lists come back in key order.
    await createCm(s, 'beta', 'web', { app: 'web', tier: 'front', rank: '2' });
    await createCm(s, 'alpha', 'web', { app: 'web', tier: 'front', rank: '1' });
    await createCm(s, 'alpha', 'db', { app: 'db', tier: 'back', rank: '5' });
    await createCm(s, 'alpha', 'cache', { app: 'cache', rank: '10' });
    await createCm(s, 'beta', 'api', { app: 'api', tier: 'back' });
  });
  afterAll(() => s.close());

  it('lists one namespace in name order, as a ConfigMapList', async () => {
    const r = await s.get(cmPath('alpha'));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body.kind).toBe('ConfigMapList');
    expect(r.body.apiVersion).toBe('v1');
    expect(names(r.body)).toEqual(['cache', 'db', 'web']);
    expect(r.body.items.every((i: any) => i.metadata.namespace === 'alpha')).toBe(true);
    expect(r.body.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(r.body.metadata.continue).toBeUndefined();
    expect(r.body.metadata.remainingItemCount).toBeUndefined();
  });

  it('lists all namespaces in namespace, then name order', async () => {
    const r = await s.get('/api/v1/configmaps');
    expect(r.status).toBe(200);
    expect(r.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual(['alpha/cache', 'alpha/db', 'alpha/web', 'beta/api', 'beta/web']);
  });

  it('lists an empty namespace (or one that does not exist) as an empty list', async () => {
    for (const ns of ['default', 'nowhere']) {
      const r = await s.get(cmPath(ns));
      expect(r.status).toBe(200);
      expect(r.body.items).toEqual([]);
    }
  });

  it('gives every item its own resourceVersion and the list one not older than any of them', async () => {
    const r = await s.get('/api/v1/configmaps');
    const listRv = Number(r.body.metadata.resourceVersion);
    for (const i of r.body.items) expect(Number(i.metadata.resourceVersion)).toBeLessThanOrEqual(listRv);
  });

  const labelCases: [string, string[]][] = [
    ['app=web', ['alpha/web', 'beta/web']],
    ['app==web', ['alpha/web', 'beta/web']],
    ['app!=web', ['alpha/cache', 'alpha/db', 'beta/api']],
    ['app in (db,api)', ['alpha/db', 'beta/api']],
    ['app notin (db,api,web)', ['alpha/cache']],
    ['tier', ['alpha/db', 'alpha/web', 'beta/api', 'beta/web']],
    ['!tier', ['alpha/cache']],
    ['rank>1', ['alpha/cache', 'alpha/db', 'beta/web']],
    ['rank<5', ['alpha/web', 'beta/web']],
    ['tier=back,app=db', ['alpha/db']],
    [' tier = front , rank > 1 ', ['beta/web']],
    ['app=nothing', []],
  ];
  it.each(labelCases)('labelSelector=%j', async (sel, want) => {
    const r = await s.get(`/api/v1/configmaps?labelSelector=${encodeURIComponent(sel)}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual(want);
  });

  it('applies a labelSelector within one namespace', async () => {
    const r = await s.get(`${cmPath('beta')}?labelSelector=tier%3Dback`);
    expect(names(r.body)).toEqual(['api']);
  });

  const fieldCases: [string, string[]][] = [
    ['metadata.name=web', ['alpha/web', 'beta/web']],
    ['metadata.name==web', ['alpha/web', 'beta/web']],
    ['metadata.name!=web', ['alpha/cache', 'alpha/db', 'beta/api']],
    ['metadata.namespace=beta', ['beta/api', 'beta/web']],
    ['metadata.namespace!=beta,metadata.name!=db', ['alpha/cache', 'alpha/web']],
    ['metadata.name=web,metadata.namespace=alpha', ['alpha/web']],
    ['metadata.name=', []],
  ];
  it.each(fieldCases)('fieldSelector=%j', async (sel, want) => {
    const r = await s.get(`/api/v1/configmaps?fieldSelector=${encodeURIComponent(sel)}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual(want);
  });

  it('combines label and field selectors', async () => {
    const r = await s.get(`/api/v1/configmaps?labelSelector=tier&fieldSelector=metadata.namespace%3Dalpha`);
    expect(r.body.items.map((i: any) => i.metadata.name)).toEqual(['db', 'web']);
  });

  it('supports the kind-specific fields: status.phase of namespaces, type of secrets', async () => {
    const ns = await s.get('/api/v1/namespaces?fieldSelector=status.phase%3DActive,metadata.name%3Dalpha');
    expect(ns.status, ns.text).toBe(200);
    expect(names(ns.body)).toEqual(['alpha']);
    const sec = await s.post('/api/v1/namespaces/alpha/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'tls' }, type: 'Opaque', data: {} });
    expect(sec.status, sec.text).toBe(201);
    const hit = await s.get('/api/v1/namespaces/alpha/secrets?fieldSelector=type%3DOpaque');
    expect(names(hit.body)).toEqual(['tls']);
    const miss = await s.get('/api/v1/namespaces/alpha/secrets?fieldSelector=type%3Dother');
    expect(names(miss.body)).toEqual([]);
  });

  it('refuses an unsupported field with 400 "field label not supported"', async () => {
    for (const sel of ['data.key=x', 'status.phase=Active', 'metadata.labels=x']) {
      const r = await s.get(`${cmPath('alpha')}?fieldSelector=${encodeURIComponent(sel)}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
      expect(r.body.message).toContain(`field label not supported: ${sel.split('=')[0]}`);
    }
  });

  it.each([
    ['labelSelector', 'app in (web', /unable to parse/],
    ['labelSelector', 'rank>x', /for 'Gt', 'Lt' operators, the value must be an integer/],
    ['labelSelector', '-bad=x', /key: Invalid value/],
    ['labelSelector', 'a\u00a0b=c', /Invalid value/],
    ['fieldSelector', 'metadata.name', /can't understand 'metadata.name'/],
    ['fieldSelector', 'metadata.name=a=b', /unescaped character in value/],
    ['fieldSelector', 'metadata.name=a\\x', /invalid escape sequence/],
  ])('refuses a malformed %s %j with 400', async (param, sel, message) => {
    const r = await s.get(`${cmPath('alpha')}?${param}=${encodeURIComponent(sel)}`);
    expect(r.status).toBe(400);
    expect(r.body.reason).toBe('BadRequest');
    expect(r.body.message).toMatch(message);
  });

  it('escapes field selector values', async () => {
    const r = await s.get(`${cmPath('alpha')}?fieldSelector=${encodeURIComponent('metadata.name=we\\,b')}`);
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([]);
  });

  it('pretty-prints with pretty=true and writes compact JSON otherwise', async () => {
    const compact = await s.get(cmPath('alpha'));
    expect(compact.text).not.toContain('\n');
    const pretty = await s.get(`${cmPath('alpha')}?pretty=true`);
    expect(pretty.status).toBe(200);
    expect(pretty.text).toContain('\n  "kind": "ConfigMapList"');
    expect(JSON.parse(pretty.text)).toEqual(compact.body);
    const off = await s.get(`${cmPath('alpha')}?pretty=false`, { 'user-agent': 'curl/8.0' });
    expect(off.text).not.toContain('\n');
  });

  it('pretty-prints a get and an error too', async () => {
    const got = await s.get(`${cmPath('alpha', 'web')}?pretty=true`);
    expect(got.text).toContain('\n  "kind": "ConfigMap"');
    const missing = await s.get(`${cmPath('alpha', 'nope')}?pretty=1`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('\n  "kind": "Status"');
  });

  it('serves a list within timeoutSeconds', async () => {
    const r = await s.get(`${cmPath('alpha')}?timeoutSeconds=5`);
    expect(r.status).toBe(200);
    expect(names(r.body)).toEqual(['cache', 'db', 'web']);
  });

  it.each(['x', '1.5', '-1'])('refuses timeoutSeconds=%j with 400', async (v) => {
    const r = await s.get(`${cmPath('alpha')}?timeoutSeconds=${v}`);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('timeoutSeconds');
  });

  it.each(['x', '-1'])('refuses limit=%j with 400', async (v) => {
    const r = await s.get(`${cmPath('alpha')}?limit=${v}`);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('limit');
  });

  it('answers YAML when asked', async () => {
    const r = await s.get(cmPath('alpha'), { accept: 'application/yaml' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/yaml');
    expect(r.text).toContain('kind: ConfigMapList');
  });

  it('refuses sendInitialEvents on a list with 400', async () => {
    const r = await s.get(`${cmPath('alpha')}?sendInitialEvents=true`);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('sendInitialEvents is forbidden for list');
  });
});

describe('list: timeoutSeconds bounds a wait for a resource version', () => {
  let s: TestServer;
  beforeAll(async () => {
    // The freshness wait alone would take a minute; the request's own timeout ends it first.
    s = await startTestServer({ watchCache: { freshnessTimeoutMs: 60_000 } });
  });
  afterAll(() => s.close());

  it('answers 504 Timeout when timeoutSeconds passes first', async () => {
    const rv = Number((await s.get(cmPath('default'))).body.metadata.resourceVersion) + 1000;
    const r = await s.get(`${cmPath('default')}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan&timeoutSeconds=1`);
    expect(r.status).toBe(504);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504 });
    expect(r.body.message).toContain('timeoutSeconds');
  });
});
