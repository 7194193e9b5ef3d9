/** Watch starts against history: the cache window, the store's history, compaction; and bookmarks. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type WatchReader } from '../helpers/server.js';
import { BACKENDS, cmPath, createCm, createNamespace, deleteCm, eventually, patchCm } from './fixtures.js';

const summary = (evs: { type: string; object: any }[]): string[] => evs.map((e) => `${e.type} ${e.object.metadata.name}`);

describe.each(BACKENDS)('watch from before the cache window (%s)', (_backend, opts) => {
  let s: TestServer;
  const open: WatchReader[] = [];
  beforeAll(async () => {
    // A window of two events: older starts must come from the store's history.
    s = await startTestServer({ ...opts, watchCache: { windowSize: 2 } });
    await createNamespace(s, 'win');
  });
  afterAll(() => s.close());
  afterEach(() => {
    for (const w of open.splice(0)) w.close();
  });

  it('serves every event after the start version from the store, then live events', async () => {
    const start = (await s.get(cmPath('win'))).body.metadata.resourceVersion;
    await createCm(s, 'win', 'a', { sel: 'yes' }, { v: '1' });
    await patchCm(s, 'win', 'a', { data: { v: '2' } });
    await createCm(s, 'win', 'b', { sel: 'no' });
    await patchCm(s, 'win', 'b', { metadata: { labels: { sel: 'yes' } } });
    await patchCm(s, 'win', 'a', { metadata: { labels: { sel: 'no' } } });
    await deleteCm(s, 'win', 'b');
    await createCm(s, 'win', 'c');
    const w = await s.watch(`${cmPath('win')}?watch=1&resourceVersion=${start}`);
    open.push(w);
    const history = await w.next(7);
    expect(summary(history)).toEqual(['ADDED a', 'MODIFIED a', 'ADDED b', 'MODIFIED b', 'MODIFIED a', 'DELETED b', 'ADDED c']);
    const versions = history.map((e) => Number(e.object.metadata.resourceVersion));
    expect(versions).toEqual([...versions].sort((x, y) => x - y));
    expect(new Set(versions).size).toBe(versions.length);
    expect(history[5]?.object.metadata.labels).toEqual({ sel: 'yes' }); // the last state of b
    await createCm(s, 'win', 'live');
    expect(summary(await w.next(1))).toEqual(['ADDED live']);
  });

  it('applies selectors to history from the store', async () => {
    const start = (await s.get(cmPath('win'))).body.metadata.resourceVersion;
    await createCm(s, 'win', 'x', { sel: 'yes' });
    await createCm(s, 'win', 'y', { sel: 'no' });
    await patchCm(s, 'win', 'y', { metadata: { labels: { sel: 'yes' } } });
    await patchCm(s, 'win', 'x', { metadata: { labels: { sel: 'no' } } });
    await createCm(s, 'win', 'z', { sel: 'no' });
    const w = await s.watch(`${cmPath('win')}?watch=1&resourceVersion=${start}&labelSelector=sel%3Dyes`);
    open.push(w);
    expect(summary(await w.next(3))).toEqual(['ADDED x', 'ADDED y', 'DELETED x']);
    await createCm(s, 'win', 'sentinel', { sel: 'yes' });
    expect(summary(await w.next(1))).toEqual(['ADDED sentinel']);
  });
});

describe.each(BACKENDS)('watch from a compacted version (%s)', (_backend, opts) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ...opts, watchHistoryMs: 100 });
    await createNamespace(s, 'gone');
  });
  afterAll(() => s.close());

  it('sends one ERROR event with a 410 Expired Status, then ends the stream', async () => {
    const start = (await s.get(cmPath('gone'))).body.metadata.resourceVersion;
    await createCm(s, 'gone', 'a');
    await createCm(s, 'gone', 'b');
    const w = await eventually(async () => {
      const r = await s.watch(`${cmPath('gone')}?watch=1&resourceVersion=${start}`);
      const [first] = await r.next(1);
      if (first?.type === 'ERROR') return { r, first };
      r.close();
      return undefined;
    }, 'the start version to be compacted');
    expect(w.r.status).toBe(200);
    expect(w.first.object).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
    expect(w.first.object.message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
    await w.r.ended;
    expect(w.r.pending()).toEqual([]);
  });

  it('a watch without a start version is unaffected by compaction', async () => {
    await createCm(s, 'gone', 'kept');
    const w = await s.watch(`${cmPath('gone')}?watch=1`);
    const names = (await w.next(1)).map((e) => e.type);
    expect(names).toEqual(['ADDED']);
    w.close();
  });
});

describe.each(BACKENDS)('bookmarks (%s)', (_backend, opts) => {
  let s: TestServer;
  const open: WatchReader[] = [];
  beforeAll(async () => {
    s = await startTestServer({ ...opts, watchCache: { bookmarkIntervalMs: 50 } });
    await createNamespace(s, 'bm');
  });
  afterAll(() => s.close());
  afterEach(() => {
    for (const w of open.splice(0)) w.close();
  });

  it('sends BOOKMARK events with only kind, apiVersion and metadata.resourceVersion', async () => {
    await createCm(s, 'bm', 'a');
    const rv = (await s.get(cmPath('bm'))).body.metadata.resourceVersion;
    const w = await s.watch(`${cmPath('bm')}?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true`);
    open.push(w);
    const [ev] = await w.next(1);
    expect(ev?.type).toBe('BOOKMARK');
    expect(ev?.object).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: expect.any(String) } });
    expect(Number(ev?.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
    // After a change, bookmarks move on to its version.
    const c = await createCm(s, 'bm', 'b');
    const after = await eventually(async () => {
      const [e] = await w.next(1);
      return e?.type === 'BOOKMARK' && e.object.metadata.resourceVersion === c.metadata.resourceVersion ? e : undefined;
    }, 'a bookmark at the new version');
    expect(after.object.metadata).toEqual({ resourceVersion: c.metadata.resourceVersion });
  });

  it('sends no bookmarks unless asked', async () => {
    const rv = (await s.get(cmPath('bm'))).body.metadata.resourceVersion;
    const w = await s.watch(`${cmPath('bm')}?watch=1&resourceVersion=${rv}`);
    open.push(w);
    await new Promise((r) => setTimeout(r, 300));
    await createCm(s, 'bm', 'no-bookmarks');
    expect((await w.next(1)).map((e) => e.type)).toEqual(['ADDED']);
  });

  it('never bookmarks a version older than a future start version', async () => {
    const rv = Number((await s.get(cmPath('bm'))).body.metadata.resourceVersion);
    const w = await s.watch(`${cmPath('bm')}?watch=1&resourceVersion=${rv + 3}&allowWatchBookmarks=true`);
    open.push(w);
    await new Promise((r) => setTimeout(r, 300));
    expect(w.pending()).toEqual([]);
    for (const n of ['f1', 'f2', 'f3', 'f4']) await createCm(s, 'bm', n);
    // Bookmarks may come once the start version exists, never below it.
    let first = (await w.next(1))[0];
    while (first?.type === 'BOOKMARK') {
      expect(Number(first.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(rv + 3);
      first = (await w.next(1))[0];
    }
    expect(first?.object.metadata.name).toBe('f4');
  });

  it('bookmarks a streaming list only after the annotated end of its initial events', async () => {
    const w = await s.watch(`${cmPath('bm')}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    open.push(w);
    const evs: any[] = [];
    while (!evs.some((e) => e.type === 'BOOKMARK')) evs.push(...(await w.next(1)));
    const end = evs[evs.length - 1];
    expect(evs.slice(0, -1).every((e) => e.type === 'ADDED')).toBe(true);
    expect(end.object.metadata.annotations).toEqual({ 'orch.io/initial-events-end': 'true' });
  });
});
