/** resourceVersion and resourceVersionMatch on get and list: document 1's tables over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { BACKENDS, cmPath, createCm, createNamespace, deleteCm, eventually, names, patchCm } from './fixtures.js';

async function currentRv(s: TestServer): Promise<number> {
  return Number((await s.get('/api/v1/namespaces')).body.metadata.resourceVersion);
}

describe.each(BACKENDS)('get with resourceVersion (%s)', (_backend, opts) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ...opts, watchCache: { freshnessTimeoutMs: 300 } });
    await createNamespace(s, 'g');
  });
  afterAll(() => s.close());

  it('unset: the most recent state, right after a write', async () => {
    await createCm(s, 'g', 'recent', {}, { v: '1' });
    const updated = await patchCm(s, 'g', 'recent', { data: { v: '2' } });
    const r = await s.get(cmPath('g', 'recent'));
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ v: '2' });
    expect(r.body.metadata.resourceVersion).toBe(updated.metadata.resourceVersion);
  });

  it('"0": any version; the object as the cache holds it', async () => {
    const created = await createCm(s, 'g', 'any');
    const r = await s.get(`${cmPath('g', 'any')}?resourceVersion=0`);
    expect(r.status).toBe(200);
    expect(r.body.metadata.uid).toBe(created.metadata.uid);
  });

  it('non-zero: not older than the version (an older version gives the current object)', async () => {
    const created = await createCm(s, 'g', 'not-older', {}, { v: '1' });
    const updated = await patchCm(s, 'g', 'not-older', { data: { v: '2' } });
    const r = await s.get(`${cmPath('g', 'not-older')}?resourceVersion=${created.metadata.resourceVersion}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ v: '2' });
    expect(r.body.metadata.resourceVersion).toBe(updated.metadata.resourceVersion);
  });

  it('a future version that never arrives: 504 with Retry-After and "Too large resource version"', async () => {
    await createCm(s, 'g', 'future');
    const rv = (await currentRv(s)) + 100;
    const r = await s.get(`${cmPath('g', 'future')}?resourceVersion=${rv}`);
    expect(r.status).toBe(504);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Timeout', code: 504 });
    expect(r.body.message).toContain('Too large resource version');
    expect(r.body.details.retryAfterSeconds).toBe(1);
    expect(r.body.details.causes).toEqual([{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
  });

  it('404 names the resource and the object', async () => {
    const r = await s.get(cmPath('g', 'x'));
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'configmaps' },
      code: 404,
    });
    for (const rv of ['0', String(await currentRv(s))]) {
      const again = await s.get(`${cmPath('g', 'x')}?resourceVersion=${rv}`);
      expect(again.status).toBe(404);
      expect(again.body.message).toBe('configmaps "x" not found');
    }
  });

  it('404 after a deletion, for cluster-scoped kinds too', async () => {
    await createCm(s, 'g', 'gone');
    await deleteCm(s, 'g', 'gone');
    expect((await s.get(cmPath('g', 'gone'))).status).toBe(404);
    const ns = await s.get('/api/v1/namespaces/nope');
    expect(ns.status).toBe(404);
    expect(ns.body.message).toBe('namespaces "nope" not found');
  });

  it.each(['abc', '-1', '1.0'])('refuses resourceVersion=%j with 400', async (rv) => {
    const r = await s.get(`${cmPath('g', 'x')}?resourceVersion=${rv}`);
    expect(r.status).toBe(400);
    expect(r.body.reason).toBe('BadRequest');
    expect(r.body.message).toContain('resourceVersion');
  });
});

describe.each(BACKENDS)('get and list wait for a future version that arrives (%s)', (_backend, opts) => {
  let s: TestServer;
  beforeAll(async () => {
    // Long enough that the write below always lands inside the wait.
    s = await startTestServer({ ...opts, watchCache: { freshnessTimeoutMs: 20_000 } });
    await createNamespace(s, 'w');
  });
  afterAll(() => s.close());

  it('get succeeds once the version exists', async () => {
    await createCm(s, 'w', 'target', {}, { v: '1' });
    const next = (await currentRv(s)) + 1;
    const pending = s.get(`${cmPath('w', 'target')}?resourceVersion=${next}`);
    await new Promise((r) => setTimeout(r, 50));
    await patchCm(s, 'w', 'target', { data: { v: '2' } });
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ v: '2' });
    expect(Number(r.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(next);
  });

  it('a NotOlderThan list succeeds once the version exists', async () => {
    const next = (await currentRv(s)) + 1;
    const pending = s.get(`${cmPath('w')}?resourceVersion=${next}&resourceVersionMatch=NotOlderThan`);
    await new Promise((r) => setTimeout(r, 50));
    await createCm(s, 'w', 'later');
    const r = await pending;
    expect(r.status).toBe(200);
    expect(Number(r.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(next);
    expect(names(r.body)).toContain('later');
  });

  it('an Exact list at a future version answers at exactly that version once it exists', async () => {
    const next = (await currentRv(s)) + 1;
    const pending = s.get(`${cmPath('w')}?resourceVersion=${next}&resourceVersionMatch=Exact`);
    await new Promise((r) => setTimeout(r, 50));
    await createCm(s, 'w', 'exact-1');
    await createCm(s, 'w', 'exact-2');
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.body.metadata.resourceVersion).toBe(String(next));
    expect(names(r.body)).toContain('exact-1');
    expect(names(r.body)).not.toContain('exact-2');
  });
});

describe.each(BACKENDS)('list with resourceVersion and resourceVersionMatch (%s)', (_backend, opts) => {
  let s: TestServer;
  let rv1: string; // after a, b
  let rv2: string; // after a changed, c added, b deleted
  beforeAll(async () => {
    s = await startTestServer({ ...opts, watchCache: { freshnessTimeoutMs: 300 } });
    await createNamespace(s, 'rv');
    await createCm(s, 'rv', 'a', {}, { v: '1' });
    await createCm(s, 'rv', 'b');
    rv1 = (await s.get(cmPath('rv'))).body.metadata.resourceVersion;
    await patchCm(s, 'rv', 'a', { data: { v: '2' } });
    await createCm(s, 'rv', 'c');
    await deleteCm(s, 'rv', 'b');
    rv2 = (await s.get(cmPath('rv'))).body.metadata.resourceVersion;
  });
  afterAll(() => s.close());

  async function list(query: string): Promise<any> {
    const r = await s.get(`${cmPath('rv')}?${query}`);
    expect(r.status, r.text).toBe(200);
    return r.body;
  }

  it('unset: Most Recent', async () => {
    const r = await list('');
    expect(names(r)).toEqual(['a', 'c']);
    expect(r.metadata.resourceVersion).toBe(rv2);
  });

  it('"0": Any, with or without a limit and with NotOlderThan', async () => {
    for (const q of ['resourceVersion=0', 'resourceVersion=0&limit=10', 'resourceVersion=0&resourceVersionMatch=NotOlderThan', 'resourceVersion=0&resourceVersionMatch=NotOlderThan&limit=10']) {
      const r = await list(q);
      expect(names(r)).toEqual(['a', 'c']);
    }
  });

  it('Exact at a past version returns the old state at that version', async () => {
    for (const q of [`resourceVersion=${rv1}&resourceVersionMatch=Exact`, `resourceVersion=${rv1}&resourceVersionMatch=Exact&limit=10`, `resourceVersion=${rv1}&limit=10`]) {
      const r = await list(q);
      expect(r.metadata.resourceVersion).toBe(rv1);
      expect(names(r)).toEqual(['a', 'b']);
      expect(r.items[0].data).toEqual({ v: '1' });
      expect(r.items[0].metadata.resourceVersion).not.toBe(r.items[1].metadata.resourceVersion);
    }
  });

  it('Exact at the current version', async () => {
    const r = await list(`resourceVersion=${rv2}&resourceVersionMatch=Exact`);
    expect(r.metadata.resourceVersion).toBe(rv2);
    expect(names(r)).toEqual(['a', 'c']);
  });

  it('Exact with a selector filters the old state', async () => {
    const r = await list(`resourceVersion=${rv1}&resourceVersionMatch=Exact&fieldSelector=metadata.name%3Db`);
    expect(r.metadata.resourceVersion).toBe(rv1);
    expect(names(r)).toEqual(['b']);
  });

  it('Not Older Than a past version: the newest state, not older than asked', async () => {
    for (const q of [`resourceVersion=${rv1}`, `resourceVersion=${rv1}&resourceVersionMatch=NotOlderThan`, `resourceVersion=${rv1}&resourceVersionMatch=NotOlderThan&limit=10`]) {
      const r = await list(q);
      expect(names(r)).toEqual(['a', 'c']);
      expect(Number(r.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rv1));
    }
  });

  it.each([
    ['NotOlderThan', (rv: number) => `resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`],
    ['unset match, no limit', (rv: number) => `resourceVersion=${rv}`],
    ['Exact', (rv: number) => `resourceVersion=${rv}&resourceVersionMatch=Exact`],
    ['unset match, limit (Exact)', (rv: number) => `resourceVersion=${rv}&limit=1`],
  ])('a future version (%s): 504 Timeout, Retry-After, "Too large resource version"', async (_name, query) => {
    const r = await s.get(`${cmPath('rv')}?${query(Number(rv2) + 1000)}`);
    expect(r.status).toBe(504);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.body.reason).toBe('Timeout');
    expect(r.body.message).toContain('Too large resource version');
  });

  it.each([
    ['resourceVersionMatch=Exact', 'resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ['resourceVersionMatch=NotOlderThan&limit=1', 'resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ['resourceVersionMatch=Exact&resourceVersion=0', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
    ['resourceVersionMatch=Exact&resourceVersion=0&limit=1', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
    ['resourceVersionMatch=Latest&resourceVersion=1', 'resourceVersionMatch: Unsupported value: "Latest": supported values: "Exact", "NotOlderThan", ""'],
  ])('invalid cell %s: 400 with the ListOptions validation text', async (query, message) => {
    const r = await s.get(`${cmPath('rv')}?${query}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, details: { group: 'meta.orch.io', kind: 'ListOptions' } });
    expect(r.body.message).toContain('ListOptions.meta.orch.io "" is invalid');
    expect(r.body.message).toContain(message);
  });

  it('refuses a malformed resourceVersion with 400', async () => {
    const r = await s.get(`${cmPath('rv')}?resourceVersion=latest`);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('invalid resourceVersion "latest"');
  });
});

describe.each(BACKENDS)('list at a compacted version (%s)', (_backend, opts) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ...opts, watchHistoryMs: 100 });
    await createNamespace(s, 'old');
  });
  afterAll(() => s.close());

  it('Exact: 410 Expired once the history is gone', async () => {
    await createCm(s, 'old', 'a');
    const rv = (await s.get(cmPath('old'))).body.metadata.resourceVersion;
    await createCm(s, 'old', 'b');
    const gone = await eventually(async () => {
      const r = await s.get(`${cmPath('old')}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
      return r.status === 410 ? r : undefined;
    }, 'the version to be compacted');
    expect(gone.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect(gone.body.message).toBe('The resourceVersion for the provided list is too old.');
    // Not Older Than the same version is still served, from the newest state.
    const r = await s.get(`${cmPath('old')}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`);
    expect(r.status).toBe(200);
    expect(names(r.body)).toEqual(['a', 'b']);
  });
});
