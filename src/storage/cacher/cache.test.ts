import { describe, expect, it } from 'vitest';
import { KVError, type KVWatchEvent, type KVWatchOptions, type RevisionedKV } from '../kv.js';
import { createMemoryKV } from '../memory/memory-kv.js';
import { EncodedObject } from '../../machinery/encoded-object.js';
import { WatchCache, type CacheEntry } from './cache.js';

const make = (key: string, value: string, revision: number): CacheEntry => ({ key, revision, object: new EncodedObject(value), labels: undefined, fields: {} });

describe('WatchCache and the store revision', () => {
  it('catches up with revisions made by writes outside the watched prefix', async () => {
    const kv = createMemoryKV();
    const cache = new WatchCache(kv, { freshnessTimeoutMs: 5_000 });
    cache.register('/registry/things/', make);
    await cache.start('/registry/');
    await kv.create('/registry/things/a', '{}');
    const outside = await kv.create('/elsewhere/b', 'b');
    // A consistent read waits for the store's newest revision, which no event under /registry/ carries.
    await cache.syncWithStore();
    expect(cache.currentRevision).toBeGreaterThanOrEqual(outside.modRevision);
    expect(cache.get('/registry/things/', '/registry/things/a').entry).toBeDefined();
    cache.close();
    await kv.close();
  });
});

/** A store whose first watch fails with 'compacted' when `cut()` is called, as etcd cancels a watch that fell behind its history. */
function storeWithCuttableWatch(kv: RevisionedKV): { store: RevisionedKV; cut: () => void } {
  let cut = (): void => undefined;
  let watches = 0;
  const watch = (prefix: string, from: number, signal: AbortSignal, opts?: KVWatchOptions): AsyncIterable<KVWatchEvent> => {
    const inner = kv.watch(prefix, from, signal, opts);
    if (watches++ > 0) return inner;
    const failed = new Promise<never>((_, reject) => (cut = () => reject(new KVError('compacted', 'required revision has been compacted', undefined, from + 1))));
    return (async function* () {
      const it = inner[Symbol.asyncIterator]();
      for (;;) {
        // The failure first: once cut, nothing more goes through, even what is already queued.
        const r = await Promise.race([failed, it.next()]);
        if (r.done) return;
        yield r.value;
      }
    })();
  };
  const store = new Proxy(kv, {
    get: (target, p) => (p === 'watch' ? watch : (Reflect.get(target, p) as unknown)),
  });
  return { store, cut: () => cut() };
}

describe('WatchCache when its watch is cut off from compacted history', () => {
  it('lists the store afresh and follows it again; its watchers end', async () => {
    const kv = createMemoryKV();
    const { store, cut } = storeWithCuttableWatch(kv);
    const cache = new WatchCache(store, { freshnessTimeoutMs: 5_000 });
    cache.register('/registry/things/', make);
    await cache.start('/registry/');
    const a = await kv.create('/registry/things/a', '{}');
    await cache.waitFresh(a.modRevision);
    const ac = new AbortController();
    const watcher = cache.watch('/registry/things/', '/registry/things/', { initial: false, fromRevision: a.modRevision, filter: () => true, bookmarks: false, signal: ac.signal });
    cut();
    // Changes the cut-off watch never delivers.
    await kv.delete('/registry/things/a');
    await kv.create('/registry/things/b', '{}');
    await cache.syncWithStore();
    expect(cache.get('/registry/things/', '/registry/things/a').entry).toBeUndefined();
    expect(cache.get('/registry/things/', '/registry/things/b').entry).toBeDefined();
    expect((await watcher[Symbol.asyncIterator]().next()).done).toBe(true);
    // Followed again: later writes arrive.
    const c = await kv.create('/registry/things/c', '{}');
    await cache.waitFresh(c.modRevision);
    expect(cache.get('/registry/things/', '/registry/things/c').entry).toBeDefined();
    ac.abort();
    cache.close();
    await kv.close();
  });
});

describe('WatchCache resources registered while it runs', () => {
  it('loads what the store holds, follows later writes, refuses older watches, and forgets on unregister', async () => {
    const kv = createMemoryKV();
    const cache = new WatchCache(kv, { freshnessTimeoutMs: 5_000 });
    cache.register('/registry/things/', make);
    await cache.start('/registry/');
    await kv.create('/registry/widgets/a', '{"a":1}');
    const b = await kv.create('/registry/widgets/b', '{"b":1}');
    await cache.waitFresh(b.modRevision);
    expect(cache.has('/registry/widgets/')).toBe(false);
    await cache.registerLive('/registry/widgets/', make);
    expect(cache.list('/registry/widgets/', '/registry/widgets/', undefined).entries.map((e) => e.key)).toEqual(['/registry/widgets/a', '/registry/widgets/b']);
    // A watch from before the registration cannot be served from the window: the store serves it.
    expect(() => cache.watch('/registry/widgets/', '/registry/widgets/', { initial: false, fromRevision: 1, filter: () => true, bookmarks: false, signal: new AbortController().signal })).toThrow(/too old/);
    const ac = new AbortController();
    const watcher = cache.watch('/registry/widgets/', '/registry/widgets/', { initial: false, fromRevision: cache.currentRevision, filter: () => true, bookmarks: false, signal: ac.signal });
    const c = await kv.create('/registry/widgets/c', '{}');
    await cache.waitFresh(c.modRevision);
    const it = watcher[Symbol.asyncIterator]();
    expect((await it.next()).value).toMatchObject({ type: 'ADDED', revision: c.modRevision });
    cache.unregister('/registry/widgets/');
    expect((await it.next()).done).toBe(true);
    expect(cache.has('/registry/widgets/')).toBe(false);
    await expect(cache.registerLive('/registry/things/', make)).rejects.toThrow(/cached already/);
    cache.close();
    await kv.close();
  });
});
