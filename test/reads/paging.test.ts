/** Chunked lists: limit and continue form one snapshot; tokens are validated and expire with history. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { BACKENDS, cmPath, createCm, createNamespace, deleteCm, eventually, names, patchCm } from './fixtures.js';

describe.each(BACKENDS)('chunked list (%s)', (_backend, opts) => {
  let s: TestServer;
  let ns: string;
  let seq = 0;
  beforeAll(async () => {
    s = await startTestServer(opts);
  });
  afterAll(() => s.close());
  beforeEach(async () => {
    ns = `page-${++seq}`;
    await createNamespace(s, ns);
    for (const n of ['a', 'b', 'c', 'd', 'e']) await createCm(s, ns, n, { even: String('bd'.includes(n)) }, { v: '1' });
  });

  async function page(query: string): Promise<any> {
    const r = await s.get(`${cmPath(ns)}?${query}`);
    expect(r.status, r.text).toBe(200);
    return r.body;
  }

  it('returns at most limit items with a continue token until the collection ends', async () => {
    const p1 = await page('limit=2');
    expect(names(p1)).toEqual(['a', 'b']);
    expect(p1.metadata.continue).toEqual(expect.any(String));
    expect(p1.metadata.remainingItemCount).toBe(3);
    const p2 = await page(`limit=2&continue=${encodeURIComponent(p1.metadata.continue)}`);
    expect(names(p2)).toEqual(['c', 'd']);
    expect(p2.metadata.remainingItemCount).toBe(1);
    const p3 = await page(`limit=2&continue=${encodeURIComponent(p2.metadata.continue)}`);
    expect(names(p3)).toEqual(['e']);
    // The last chunk has no token and no remainingItemCount.
    expect(p3.metadata.continue).toBeUndefined();
    expect(p3.metadata.remainingItemCount).toBeUndefined();
    // Every chunk carries the same resourceVersion.
    expect(new Set([p1, p2, p3].map((p) => p.metadata.resourceVersion)).size).toBe(1);
  });

  it('ends with an exactly full page without a token', async () => {
    const p1 = await page('limit=5');
    expect(names(p1)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(p1.metadata.continue).toBeUndefined();
    expect(p1.metadata.remainingItemCount).toBeUndefined();
    const all = await page('limit=0');
    expect(names(all)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(all.metadata.continue).toBeUndefined();
  });

  it('is one snapshot: writes between chunks are not visible in later chunks', async () => {
    const p1 = await page('limit=2');
    const rv = p1.metadata.resourceVersion;
    // After the first chunk: a new object after the cursor, a change and a deletion of objects in
    // later chunks, and a new object before the cursor.
    await createCm(s, ns, 'f');
    await patchCm(s, ns, 'c', { data: { v: '2' } });
    await deleteCm(s, ns, 'd');
    await createCm(s, ns, '0');
    const p2 = await page(`limit=2&continue=${encodeURIComponent(p1.metadata.continue)}`);
    const p3 = await page(`limit=2&continue=${encodeURIComponent(p2.metadata.continue)}`);
    expect([...names(p1), ...names(p2), ...names(p3)]).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(p2.items[0].data).toEqual({ v: '1' });
    expect(p2.metadata.resourceVersion).toBe(rv);
    expect(p3.metadata.resourceVersion).toBe(rv);
    for (const item of [...p2.items, ...p3.items]) expect(Number(item.metadata.resourceVersion)).toBeLessThanOrEqual(Number(rv));
    // A new list without a token sees the changes.
    const fresh = await page('');
    expect(names(fresh)).toEqual(['0', 'a', 'b', 'c', 'e', 'f']);
    expect(Number(fresh.metadata.resourceVersion)).toBeGreaterThan(Number(rv));
  });

  it('omits remainingItemCount with a label or field selector, and still pages', async () => {
    const p1 = await page('limit=1&labelSelector=even%3Dtrue');
    expect(names(p1)).toEqual(['b']);
    expect(p1.metadata.continue).toEqual(expect.any(String));
    expect(p1.metadata.remainingItemCount).toBeUndefined();
    const p2 = await page(`limit=1&labelSelector=even%3Dtrue&continue=${encodeURIComponent(p1.metadata.continue)}`);
    expect(names(p2)).toEqual(['d']);
    expect(p2.metadata.remainingItemCount).toBeUndefined();
    const f1 = await page('limit=2&fieldSelector=metadata.name!%3Db');
    expect(names(f1)).toEqual(['a', 'c']);
    expect(f1.metadata.remainingItemCount).toBeUndefined();
    const f2 = await page(`limit=2&fieldSelector=metadata.name!%3Db&continue=${encodeURIComponent(f1.metadata.continue)}`);
    expect(names(f2)).toEqual(['d', 'e']);
  });

  it('fills a filtered chunk from later keys of the same snapshot', async () => {
    const p1 = await page('limit=1');
    await createCm(s, ns, 'z', { even: 'true' });
    const p2 = await page(`limit=2&labelSelector=even%3Dtrue&continue=${encodeURIComponent(p1.metadata.continue)}`);
    expect(names(p2)).toEqual(['b', 'd']);
    expect(p2.metadata.resourceVersion).toBe(p1.metadata.resourceVersion);
  });

  it('pages across all namespaces', async () => {
    const seen: string[] = [];
    let token = '';
    let rv: string | undefined;
    for (let i = 0; i < 100; i++) {
      const r = await s.get(`/api/v1/configmaps?limit=3${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      expect(r.status).toBe(200);
      rv ??= r.body.metadata.resourceVersion;
      expect(r.body.metadata.resourceVersion).toBe(rv);
      seen.push(...r.body.items.map((x: any) => `${x.metadata.namespace}/${x.metadata.name}`));
      token = r.body.metadata.continue ?? '';
      if (!token) break;
    }
    const all = await s.get('/api/v1/configmaps');
    expect(seen).toEqual(all.body.items.map((x: any) => `${x.metadata.namespace}/${x.metadata.name}`));
  });

  it('serves a continue token with resourceVersion=0 as the token (the invalid-but-served cell)', async () => {
    const p1 = await page('limit=2');
    const p2 = await page(`limit=2&resourceVersion=0&continue=${encodeURIComponent(p1.metadata.continue)}`);
    expect(names(p2)).toEqual(['c', 'd']);
    expect(p2.metadata.resourceVersion).toBe(p1.metadata.resourceVersion);
  });

  it('refuses a continue token with a non-zero resourceVersion: 400', async () => {
    const p1 = await page('limit=2');
    const r = await s.get(`${cmPath(ns)}?limit=2&resourceVersion=${p1.metadata.resourceVersion}&continue=${encodeURIComponent(p1.metadata.continue)}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(r.body.message).toContain('specifying resource version is not allowed when using continue');
  });

  it('refuses a continue token with resourceVersionMatch: 400', async () => {
    const p1 = await page('limit=2');
    const r = await s.get(`${cmPath(ns)}?limit=2&resourceVersion=0&resourceVersionMatch=NotOlderThan&continue=${encodeURIComponent(p1.metadata.continue)}`);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('resourceVersionMatch is forbidden when continue is provided');
  });

  it.each([
    'garbage',
    '!!!',
    Buffer.from('{"v":"continue/v1"}').toString('base64url'),
    Buffer.from('{"v":"continue/v1","rv":1,"start":"../../secrets/"}').toString('base64url'),
    Buffer.from('{"v":"other","rv":1,"start":"x"}').toString('base64url'),
    Buffer.from('[1,2]').toString('base64url'),
  ])('refuses a malformed continue token %j with 400', async (token) => {
    const r = await s.get(`${cmPath(ns)}?limit=2&continue=${encodeURIComponent(token)}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect(r.body.message).toContain('invalid continue token');
  });

  it('starts an Exact first chunk at a past resourceVersion and continues at it', async () => {
    const before = await page('');
    const rv = before.metadata.resourceVersion;
    await createCm(s, ns, 'aa');
    await deleteCm(s, ns, 'e');
    const p1 = await page(`limit=3&resourceVersion=${rv}`);
    expect(p1.metadata.resourceVersion).toBe(rv);
    expect(names(p1)).toEqual(['a', 'b', 'c']);
    expect(p1.metadata.remainingItemCount).toBe(2);
    const p2 = await page(`limit=3&continue=${encodeURIComponent(p1.metadata.continue)}`);
    expect(names(p2)).toEqual(['d', 'e']);
    expect(p2.metadata.resourceVersion).toBe(rv);
  });
});

describe.each(BACKENDS)('expired continue tokens (%s)', (_backend, opts) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ...opts, watchHistoryMs: 100 });
    await createNamespace(s, 'exp');
    for (const n of ['a', 'b', 'c', 'd']) await createCm(s, 'exp', n);
  });
  afterAll(() => s.close());

  it('answers 410 Expired with a new continue token, which continues at the newest state', async () => {
    const p1 = (await s.get(`${cmPath('exp')}?limit=2`)).body;
    expect(names(p1)).toEqual(['a', 'b']);
    // Writes after the snapshot, then the history window passes over it.
    await createCm(s, 'exp', 'e');
    await deleteCm(s, 'exp', 'c');
    const expired = await eventually(async () => {
      const r = await s.get(`${cmPath('exp')}?limit=2&continue=${encodeURIComponent(p1.metadata.continue)}`);
      return r.status === 410 ? r : undefined;
    }, 'the continue token to expire');
    expect(expired.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect(expired.body.message).toContain('The provided continue parameter is too old to display a consistent list result');
    const next = expired.body.metadata.continue;
    expect(next).toEqual(expect.any(String));
    expect(next).not.toBe(p1.metadata.continue);
    // The new token continues after the last key returned, over the current state (an inconsistent list).
    const rest = await s.get(`${cmPath('exp')}?limit=10&continue=${encodeURIComponent(next)}`);
    expect(rest.status).toBe(200);
    expect(names(rest.body)).toEqual(['d', 'e']);
  });
});
