/**
 * Where reads are served from: the watch cache or the store. Runs StoreReads over a real memory
 * store wrapped to count the store reads, which HTTP tests cannot observe.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { configMapResource } from '../apis/core/v1/configmap.js';
import { createApiNames } from '../machinery/api-names.js';
import { WatchCache } from '../storage/cacher/cache.js';
import type { KVListOptions, RevisionedKV } from '../storage/kv.js';
import { createMemoryKV } from '../storage/memory/memory-kv.js';
import { StoreReads } from './store-reads.js';

const PREFIX = '/registry/core/configmaps/';

interface Counted {
  kv: RevisionedKV;
  lists: KVListOptions[];
  currentRevisionCalls: number;
}

function counted(inner: RevisionedKV): Counted {
  const c: Counted = { kv: inner, lists: [], currentRevisionCalls: 0 };
  c.kv = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'list') {
        return (prefix: string, opts?: KVListOptions) => {
          c.lists.push(opts ?? {});
          return target.list(prefix, opts);
        };
      }
      if (prop === 'currentRevision') {
        return () => {
          c.currentRevisionCalls++;
          return target.currentRevision();
        };
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return c;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0)) await f();
});

async function setup(): Promise<{ reads: StoreReads; raw: RevisionedKV; counts: Counted; cache: WatchCache }> {
  const raw = createMemoryKV();
  const counts = counted(raw);
  const names = createApiNames();
  const cache = new WatchCache(counts.kv, { freshnessTimeoutMs: 200 });
  const reads = new StoreReads(configMapResource(names, { names }), counts.kv, cache, PREFIX, names.metaGroup);
  cache.register(PREFIX, reads.makeEntry);
  await cache.start('/registry/');
  cleanups.push(() => cache.close(), () => raw.close());
  return { reads, raw, counts, cache };
}

const cm = (name: string, v = '1'): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { v } });
const signal = new AbortController().signal;

async function settled(cache: WatchCache, raw: RevisionedKV): Promise<void> {
  await cache.waitFresh(await raw.currentRevision());
}

describe('StoreReads: what is served from the cache', () => {
  it('resourceVersion=0 (get and list) never touches the store', async () => {
    const { reads, raw, counts, cache } = await setup();
    await raw.create(`${PREFIX}ns/a`, cm('a'));
    await settled(cache, raw);
    counts.lists.length = 0;
    counts.currentRevisionCalls = 0;
    expect((await reads.list({ namespace: 'ns', signal, resourceVersion: '0' })).items).toHaveLength(1);
    expect((await reads.list({ namespace: 'ns', signal, resourceVersion: '0', limit: 5 })).items).toHaveLength(1);
    expect((await reads.get('ns', 'a', '0', signal)).object.parse<{ data: unknown }>().data).toEqual({ v: '1' });
    expect(counts.lists).toEqual([]);
    expect(counts.currentRevisionCalls).toBe(0);
  });

  it('unset (Most Recent) asks the store for its revision, then reads the cache', async () => {
    const { reads, raw, counts, cache } = await setup();
    await raw.create(`${PREFIX}ns/a`, cm('a'));
    await settled(cache, raw);
    counts.currentRevisionCalls = 0;
    counts.lists.length = 0;
    await reads.list({ namespace: 'ns', signal });
    await reads.get('ns', 'a', undefined, signal);
    expect(counts.currentRevisionCalls).toBe(2);
    expect(counts.lists).toEqual([]);
  });

  it('Exact at a past revision reads the store at that revision', async () => {
    const { reads, raw, counts, cache } = await setup();
    const a = await raw.create(`${PREFIX}ns/a`, cm('a'));
    await raw.update(`${PREFIX}ns/a`, cm('a', '2'), a.modRevision);
    await settled(cache, raw);
    counts.lists.length = 0;
    const r = await reads.list({ namespace: 'ns', signal, resourceVersion: String(a.modRevision), resourceVersionMatch: 'Exact' });
    expect(r.resourceVersion).toBe(String(a.modRevision));
    expect(r.items.map((e) => e.object.parse<{ data: unknown }>().data)).toEqual([{ v: '1' }]);
    expect(counts.lists.map((o) => o.revision)).toEqual([a.modRevision]);
  });

  it('Exact at the current revision answers at exactly that revision even when a write lands meanwhile', async () => {
    const { reads, raw, cache } = await setup();
    await raw.create(`${PREFIX}ns/a`, cm('a'));
    await settled(cache, raw);
    const rv = cache.currentRevision;
    for (let i = 0; i < 20; i++) {
      // The write is published (the cache applies it a few microtasks later) in the same turn as
      // the list starts, so the cache moves on while the list is between its check and its read.
      const write = raw.create(`${PREFIX}ns/b${i}`, cm(`b${i}`));
      const r = await reads.list({ namespace: 'ns', signal, resourceVersion: String(rv + i), resourceVersionMatch: 'Exact' });
      await write;
      expect(r.resourceVersion).toBe(String(rv + i));
      expect(r.items).toHaveLength(1 + i);
    }
  });
});
