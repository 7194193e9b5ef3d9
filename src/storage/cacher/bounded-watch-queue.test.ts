import { describe, expect, it } from 'vitest';
import { EncodedObject, type WatchItem } from '../../machinery/encoded-object.js';
import { isKVError } from '../kv.js';
import { WatchCache, type CacheEntry } from './cache.js';
import { BoundedWatchQueue } from './bounded-watch-queue.js';
import { createMemoryKV } from '../memory/memory-kv.js';

const item = (n: number, size = 10): WatchItem => ({ type: 'ADDED', object: new EncodedObject('x'.repeat(size)), revision: n });

describe('BoundedWatchQueue', () => {
  it('counts what is queued and taken, and closes the watcher past its event bound, dropping what it held', async () => {
    let closed = 0;
    const q = new BoundedWatchQueue({ maxEvents: 3, maxBytes: 1_000 }, () => closed++);
    expect([q.push(item(1)), q.push(item(2)), q.push(item(3))]).toEqual([true, true, true]);
    expect([q.backlog, q.backlogBytes]).toEqual([3, 30]);
    expect((await q.queue.next()).value?.revision).toBe(1);
    expect([q.backlog, q.backlogBytes]).toEqual([2, 20]);
    expect(q.push(item(4))).toBe(true);
    expect(q.push(item(5))).toBe(false);
    expect(closed).toBe(1);
    expect(q.queue.size).toBe(0);
    await expect(q.queue.next()).rejects.toSatisfy((e) => isKVError(e, 'unavailable'));
  });

  it('closes the watcher past its byte bound', () => {
    const q = new BoundedWatchQueue({ maxEvents: 100, maxBytes: 25 }, () => undefined);
    expect(q.push(item(1))).toBe(true);
    expect(q.push(item(2))).toBe(true);
    expect(q.push(item(3))).toBe(false);
    expect(q.queue.closed).toBe(true);
  });

  it('does not count the start of a watch, nor items handed straight to a waiting reader', async () => {
    const q = new BoundedWatchQueue({ maxEvents: 2, maxBytes: 1_000 }, () => undefined);
    for (let i = 0; i < 5; i++) q.pushStart(item(i));
    expect(q.push(item(5))).toBe(true);
    expect(q.push(item(6))).toBe(true);
    expect(q.backlog).toBe(2);
    for (let i = 0; i < 7; i++) expect((await q.queue.next()).value?.revision).toBe(i);
    expect(q.backlog).toBe(0);
    const waiting = q.queue.next();
    expect(q.push(item(7))).toBe(true);
    expect(q.backlog).toBe(0);
    expect((await waiting).value?.revision).toBe(7);
  });
});

describe('WatchCache watcher bounds', () => {
  const make = (key: string, value: string, revision: number): CacheEntry => ({ key, revision, object: new EncodedObject(value), labels: undefined, fields: {} });

  it('closes only the watcher that falls behind, counts it, and lets a big initial list through', async () => {
    const kv = createMemoryKV();
    const cache = new WatchCache(kv, { maxQueuedPerWatcher: 5 });
    cache.register('/registry/things/', make, { group: '', version: 'v1', kind: 'Thing', resource: 'things' });
    for (let i = 0; i < 20; i++) await kv.create(`/registry/things/a${i}`, '{}');
    await cache.start('/registry/');
    const abort = new AbortController();
    const watch = (initial: boolean) => cache.watch('/registry/things/', '/registry/things/', { initial, filter: () => true, bookmarks: false, signal: abort.signal });
    // 20 initial events, more than the bound: they are the start, not a backlog.
    const listing = watch(true)[Symbol.asyncIterator]();
    const slow = watch(false)[Symbol.asyncIterator]();
    const fast = watch(false)[Symbol.asyncIterator]();
    const seen: number[] = [];
    const reading = (async () => {
      for (;;) {
        const r = await fast.next();
        if (r.done) return;
        seen.push(r.value.revision);
      }
    })();
    const written: number[] = [];
    for (let i = 0; i < 5; i++) written.push((await kv.create(`/registry/things/b${i}`, '{}')).modRevision);
    await cache.syncWithStore();
    expect(cache.watcherStats()[0]).toMatchObject({ watchers: 3, queuedEvents: 10, terminated: 0 });
    written.push((await kv.create('/registry/things/c', '{}')).modRevision);
    await cache.syncWithStore();
    // Both unread watchers passed 5 live events; the reading one did not.
    expect(cache.watcherStats()[0]).toMatchObject({ watchers: 1, queuedEvents: 0, terminated: 2 });
    await expect(slow.next()).rejects.toSatisfy((e) => isKVError(e, 'unavailable'));
    await expect(listing.next()).rejects.toSatisfy((e) => isKVError(e, 'unavailable'));
    abort.abort();
    await reading;
    expect(seen).toEqual(written);
    expect(cache.watcherStats()[0]).toMatchObject({ watchers: 0, queuedEvents: 0 });
    cache.close();
    await kv.close();
  });
});
