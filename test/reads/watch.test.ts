/** watch: the stream, its start positions, event types, selectors, item watches and timeouts. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type WatchReader } from '../helpers/server.js';
import { BACKENDS, cmPath, createCm, createNamespace, deleteCm, patchCm } from './fixtures.js';

const summary = (evs: { type: string; object: any }[]): string[] => evs.map((e) => `${e.type} ${e.object.metadata.name}`);

describe.each(BACKENDS)('watch (%s)', (_backend, opts) => {
  let s: TestServer;
  let ns: string;
  let seq = 0;
  const open: WatchReader[] = [];
  const watch = async (path: string): Promise<WatchReader> => {
    const w = await s.watch(path);
    open.push(w);
    return w;
  };
  /** Writes a sentinel and expects it to be the next event: nothing else came before it. */
  const expectNothingBefore = async (w: WatchReader, name: string): Promise<void> => {
    await createCm(s, ns, name);
    expect(summary(await w.next(1))).toEqual([`ADDED ${name}`]);
  };
  beforeAll(async () => {
    s = await startTestServer(opts);
  });
  afterAll(() => s.close());
  beforeEach(async () => {
    ns = `w-${++seq}`;
    await createNamespace(s, ns);
  });
  afterEach(() => {
    for (const w of open.splice(0)) w.close();
  });

  it('answers 200 with chunked JSON and flushes the headers before any event', async () => {
    const rv = (await s.get(cmPath(ns))).body.metadata.resourceVersion;
    const w = await watch(`${cmPath(ns)}?watch=1&resourceVersion=${rv}`);
    // The reader resolves on the response head: no event has happened yet.
    expect(w.status).toBe(200);
    expect(w.headers['content-type']).toBe('application/json');
    expect(w.headers['transfer-encoding']).toBe('chunked');
    expect(w.headers['content-length']).toBeUndefined();
    expect(w.pending()).toEqual([]);
    await createCm(s, ns, 'first');
    const [ev] = await w.next(1);
    expect(ev).toEqual({ type: 'ADDED', object: expect.objectContaining({ kind: 'ConfigMap', apiVersion: 'v1' }) });
  });

  it('writes one JSON event per line', async () => {
    const rv = (await s.get(cmPath(ns))).body.metadata.resourceVersion;
    const chunks: string[] = [];
    const { request } = await import('node:http');
    const done = new Promise<void>((resolve, reject) => {
      const req = request(new URL(`${cmPath(ns)}?watch=1&resourceVersion=${rv}&timeoutSeconds=1`, s.url), (res) => {
        res.setEncoding('utf8');
        res.on('data', (c: string) => chunks.push(c));
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end();
    });
    await createCm(s, ns, 'l1');
    await createCm(s, ns, 'l2');
    await done;
    const text = chunks.join('');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n').filter(Boolean);
    expect(lines.map((l) => JSON.parse(l).object.metadata.name)).toEqual(['l1', 'l2']);
  });

  for (const [label, query] of [
    ['unset', ''],
    ['"0"', '&resourceVersion=0'],
  ] as const) {
    it(`resourceVersion ${label}: synthetic ADDED for every existing object first, then changes`, async () => {
      await createCm(s, ns, 'a');
      await createCm(s, ns, 'b');
      await patchCm(s, ns, 'a', { data: { v: '2' } });
      const w = await watch(`${cmPath(ns)}?watch=1${query}`);
      const initial = await w.next(2);
      expect(summary(initial)).toEqual(['ADDED a', 'ADDED b']);
      expect(initial[0]?.object.data).toEqual({ v: '2' });
      await patchCm(s, ns, 'b', { data: { v: '3' } });
      await deleteCm(s, ns, 'a');
      expect(summary(await w.next(2))).toEqual(['MODIFIED b', 'DELETED a']);
      await expectNothingBefore(w, 'sentinel');
    });
  }

  it('an unset resourceVersion includes a write that completed just before', async () => {
    await createCm(s, ns, 'just-now');
    const w = await watch(`${cmPath(ns)}?watch=1`);
    expect(summary(await w.next(1))).toEqual(['ADDED just-now']);
  });

  it('a non-zero resourceVersion starts at exactly that version: no synthetic events, every later change', async () => {
    await createCm(s, ns, 'old');
    const created = await createCm(s, ns, 'x', {}, { v: '1' });
    const m1 = await patchCm(s, ns, 'x', { data: { v: '2' } });
    const m2 = await patchCm(s, ns, 'x', { data: { v: '3' } });
    await deleteCm(s, ns, 'x');
    // From the creation of x: exactly the events after it.
    const w = await watch(`${cmPath(ns)}?watch=1&resourceVersion=${created.metadata.resourceVersion}`);
    const evs = await w.next(3);
    expect(summary(evs)).toEqual(['MODIFIED x', 'MODIFIED x', 'DELETED x']);
    expect(evs.map((e) => e.object.metadata.resourceVersion).slice(0, 2)).toEqual([m1.metadata.resourceVersion, m2.metadata.resourceVersion]);
    await expectNothingBefore(w, 'sentinel');
  });

  it('ADDED, MODIFIED and DELETED carry the object; DELETED has the last state at the deletion version', async () => {
    const rv = (await s.get(cmPath(ns))).body.metadata.resourceVersion;
    const w = await watch(`${cmPath(ns)}?watch=1&resourceVersion=${rv}`);
    const created = await createCm(s, ns, 'obj', { k: 'v' }, { v: '1' });
    const modified = await patchCm(s, ns, 'obj', { data: { v: '2' } });
    await deleteCm(s, ns, 'obj');
    const after = await s.get(cmPath(ns));
    const [a, m, d] = await w.next(3);
    expect(a).toEqual({ type: 'ADDED', object: created });
    expect(m).toEqual({ type: 'MODIFIED', object: modified });
    expect(d?.type).toBe('DELETED');
    expect(d?.object.data).toEqual({ v: '2' });
    expect(d?.object.metadata.uid).toBe(created.metadata.uid);
    const deletedAt = Number(d?.object.metadata.resourceVersion);
    expect(deletedAt).toBeGreaterThan(Number(modified.metadata.resourceVersion));
    expect(deletedAt).toBeLessThanOrEqual(Number(after.body.metadata.resourceVersion));
  });

  it('watches one namespace only, and all namespaces at the collection root', async () => {
    const other = `${ns}-other`;
    await createNamespace(s, other);
    const rv = (await s.get('/api/v1/configmaps')).body.metadata.resourceVersion;
    const mine = await watch(`${cmPath(ns)}?watch=1&resourceVersion=${rv}`);
    const all = await watch(`/api/v1/configmaps?watch=1&resourceVersion=${rv}`);
    await createCm(s, other, 'elsewhere');
    await createCm(s, ns, 'here');
    expect(summary(await mine.next(1))).toEqual(['ADDED here']);
    const both = await all.next(2);
    expect(both.map((e) => `${e.object.metadata.namespace}/${e.object.metadata.name}`)).toEqual([`${other}/elsewhere`, `${ns}/here`]);
  });

  it('label selectors: an object leaving the selection is DELETED, one entering it is ADDED', async () => {
    await createCm(s, ns, 'in', { app: 'web' });
    await createCm(s, ns, 'out', { app: 'db' });
    const w = await watch(`${cmPath(ns)}?watch=1&labelSelector=app%3Dweb`);
    expect(summary(await w.next(1))).toEqual(['ADDED in']);
    const left = await patchCm(s, ns, 'in', { metadata: { labels: { app: 'db' } } });
    await patchCm(s, ns, 'out', { metadata: { labels: { app: 'web' } } });
    await patchCm(s, ns, 'out', { data: { v: 'changed' } });
    await patchCm(s, ns, 'in', { data: { v: 'unseen' } }); // not selected: no event
    await deleteCm(s, ns, 'out');
    const evs = await w.next(4);
    expect(summary(evs)).toEqual(['DELETED in', 'ADDED out', 'MODIFIED out', 'DELETED out']);
    // The DELETED for leaving the selection carries the version of the change that caused it.
    expect(evs[0]?.object.metadata.resourceVersion).toBe(left.metadata.resourceVersion);
    const sentinel = await watch(`${cmPath(ns)}?watch=1&labelSelector=app%3Dweb&resourceVersion=${left.metadata.resourceVersion}`);
    expect(summary(await sentinel.next(3))).toEqual(['ADDED out', 'MODIFIED out', 'DELETED out']);
  });

  it('field selectors apply to watches', async () => {
    const rv = (await s.get(cmPath(ns))).body.metadata.resourceVersion;
    const w = await watch(`${cmPath(ns)}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name!%3Dskip`);
    await createCm(s, ns, 'skip');
    await createCm(s, ns, 'keep');
    expect(summary(await w.next(1))).toEqual(['ADDED keep']);
  });

  it('watches one item with ?watch=1 on its path and with the legacy /watch/ prefix', async () => {
    await createCm(s, ns, 'item', {}, { v: '1' });
    await createCm(s, ns, 'item-2');
    const byParam = await watch(`${cmPath(ns, 'item')}?watch=1`);
    const legacy = await watch(`/api/v1/watch/namespaces/${ns}/configmaps/item`);
    for (const w of [byParam, legacy]) expect(summary(await w.next(1))).toEqual(['ADDED item']);
    await patchCm(s, ns, 'item-2', { data: { v: 'other' } });
    await patchCm(s, ns, 'item', { data: { v: '2' } });
    await deleteCm(s, ns, 'item');
    for (const w of [byParam, legacy]) expect(summary(await w.next(2))).toEqual(['MODIFIED item', 'DELETED item']);
  });

  it('watches an item whose name needs escaping in a field selector', async () => {
    // Names cannot hold ',' or '=', but the combined selector must survive any name and an extra selector.
    await createCm(s, ns, 'a.b');
    const w = await watch(`${cmPath(ns, 'a.b')}?watch=1&fieldSelector=metadata.namespace%3D${ns}`);
    expect(summary(await w.next(1))).toEqual(['ADDED a.b']);
  });

  it('legacy /watch/ collection paths, namespaced and across namespaces', async () => {
    const rv = (await s.get(cmPath(ns))).body.metadata.resourceVersion;
    const one = await watch(`/api/v1/watch/namespaces/${ns}/configmaps?resourceVersion=${rv}`);
    const all = await watch(`/api/v1/watch/configmaps?resourceVersion=${rv}`);
    await createCm(s, ns, 'legacy');
    expect(summary(await one.next(1))).toEqual(['ADDED legacy']);
    expect(summary(await all.next(1))).toEqual(['ADDED legacy']);
  });

  it('watches namespaces themselves (cluster scope)', async () => {
    const rv = (await s.get('/api/v1/namespaces')).body.metadata.resourceVersion;
    const w = await watch(`/api/v1/namespaces?watch=1&resourceVersion=${rv}`);
    await createNamespace(s, `${ns}-new`);
    const [ev] = await w.next(1);
    expect(ev?.type).toBe('ADDED');
    expect(ev?.object).toMatchObject({ kind: 'Namespace', metadata: { name: `${ns}-new` } });
  });

  it('a future start version delivers only the events after it', async () => {
    const rv = Number((await s.get(cmPath(ns))).body.metadata.resourceVersion);
    const w = await watch(`${cmPath(ns)}?watch=1&resourceVersion=${rv + 2}`);
    await createCm(s, ns, 'one'); // rv+1
    await createCm(s, ns, 'two'); // rv+2
    await createCm(s, ns, 'three'); // rv+3
    const [ev] = await w.next(1);
    expect(summary([ev!])).toEqual(['ADDED three']);
    expect(Number(ev?.object.metadata.resourceVersion)).toBe(rv + 3);
  });

  it('timeoutSeconds ends the stream cleanly', async () => {
    const w = await watch(`${cmPath(ns)}?watch=1&timeoutSeconds=1`);
    await w.ended;
    expect(w.pending()).toEqual([]);
  });

  it('sendInitialEvents=true with bookmarks ends the initial events with an annotated bookmark', async () => {
    await createCm(s, ns, 'a');
    await createCm(s, ns, 'b');
    const listed = await s.get(cmPath(ns));
    const w = await watch(`${cmPath(ns)}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    const evs = await w.next(3);
    expect(evs.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'BOOKMARK']);
    const bookmark = evs[2]?.object;
    expect(bookmark).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: expect.any(String), annotations: { 'orch.io/initial-events-end': 'true' } },
    });
    expect(Number(bookmark.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(listed.body.metadata.resourceVersion));
    await patchCm(s, ns, 'a', { data: { v: '2' } });
    expect(summary(await w.next(1))).toEqual(['MODIFIED a']);
  });

  it('sendInitialEvents=true with a resourceVersion sends the state not older than it', async () => {
    await createCm(s, ns, 'a');
    const rv = (await s.get(cmPath(ns))).body.metadata.resourceVersion;
    for (const v of ['0', rv]) {
      const w = await watch(`${cmPath(ns)}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=${v}`);
      const evs = await w.next(2);
      expect(evs.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
      expect(Number(evs[1]?.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
    }
  });

  it('sendInitialEvents=true without bookmarks sends the state but no bookmark', async () => {
    await createCm(s, ns, 'a');
    const w = await watch(`${cmPath(ns)}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`);
    expect(summary(await w.next(1))).toEqual(['ADDED a']);
    await expectNothingBefore(w, 'sentinel');
  });

  it('sendInitialEvents=false starts without the state', async () => {
    await createCm(s, ns, 'existing');
    const w = await watch(`${cmPath(ns)}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan`);
    await expectNothingBefore(w, 'sentinel');
  });

  it.each([
    ['resourceVersionMatch=NotOlderThan&resourceVersion=1', 400, 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
    ['sendInitialEvents=true', 400, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    ['sendInitialEvents=true&resourceVersionMatch=Exact', 400, 'Unsupported value: "Exact"'],
    ['resourceVersion=abc', 400, 'invalid resourceVersion "abc"'],
    ['labelSelector=a%20in%20(', 400, 'unable to parse'],
    ['fieldSelector=spec.x%3Dy', 400, 'field label not supported: spec.x'],
    ['timeoutSeconds=soon', 400, 'timeoutSeconds'],
    ['allowWatchBookmarks=maybe', 400, 'allowWatchBookmarks'],
  ])('refuses %s before streaming (%i)', async (query, code, message) => {
    const r = await s.get(`${cmPath(ns)}?watch=1&${query}`);
    expect(r.status).toBe(code);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body.kind).toBe('Status');
    expect(r.body.message).toContain(message);
  });

  it('refuses a watch of a subresource and a non-GET legacy watch', async () => {
    await createCm(s, ns, 'sub');
    expect((await s.get(`/api/v1/watch/namespaces/${ns}/configmaps/sub/status`)).status).toBe(404);
    expect((await s.post(`/api/v1/watch/namespaces/${ns}/configmaps`, {})).status).toBe(405);
  });
});

describe('watch: default timeout', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ minRequestTimeoutSeconds: 1 });
  });
  afterAll(() => s.close());

  it.each(['', '&timeoutSeconds=0'])('a watch with timeoutSeconds %j ends after the server default span', async (query) => {
    const w = await s.watch(`${cmPath('default')}?watch=1${query}`);
    await w.ended;
    expect(w.status).toBe(200);
  });
});
