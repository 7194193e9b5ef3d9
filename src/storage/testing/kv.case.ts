/**
 * The contract every RevisionedKV backend satisfies. Each backend's test file calls
 * `describeKVContract` with a factory; the same cases run against memory, sqlite and etcd.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isKVError, type KVEvent, type KVWatchEvent, type RevisionedKV } from '../kv.js';

export interface KVFactory {
  create(): Promise<RevisionedKV>;
}

/** Reads watch items until `done` says so, or fails after `timeoutMs`. */
async function takeUntil(iter: AsyncIterable<KVWatchEvent>, done: (seen: KVWatchEvent[]) => boolean, timeoutMs = 2000): Promise<KVWatchEvent[]> {
  const out: KVWatchEvent[] = [];
  const it = iter[Symbol.asyncIterator]();
  const deadline = Date.now() + timeoutMs;
  while (!done(out)) {
    const left = deadline - Date.now();
    const describe = (): string => `timed out after ${JSON.stringify(out.map((e) => (e.type === 'progress' ? `progress@${e.revision}` : `${e.type} ${e.key}@${e.modRevision}`)))}`;
    if (left <= 0) throw new Error(describe());
    const r = await Promise.race([it.next(), new Promise<'timeout'>((res) => setTimeout(() => res('timeout'), left))]);
    if (r === 'timeout') throw new Error(describe());
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

/** The next `n` events, skipping progress reports. */
async function take(iter: AsyncIterable<KVWatchEvent>, n: number, timeoutMs = 2000): Promise<KVEvent[]> {
  const events = (seen: KVWatchEvent[]): KVEvent[] => seen.filter((e): e is KVEvent => e.type !== 'progress');
  return events(await takeUntil(iter, (seen) => events(seen).length >= n, timeoutMs));
}

async function expectKVError(p: Promise<unknown>, code: string): Promise<void> {
  try {
    await p;
  } catch (e) {
    if (isKVError(e) && e.code === code) return;
    throw new Error(`expected KVError(${code}), got ${String(e)}`);
  }
  throw new Error(`expected KVError(${code}), got success`);
}

export function describeKVContract(name: string, factory: KVFactory): void {
  describe(`RevisionedKV contract: ${name}`, () => {
    const open: RevisionedKV[] = [];
    const make = async (): Promise<RevisionedKV> => {
      const kv = await factory.create();
      open.push(kv);
      return kv;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((kv) => kv.close().catch(() => undefined)));
    });

    it('creates, reads and refuses a second create of a live key', async () => {
      const kv = await make();
      const base = await kv.currentRevision();
      const e = await kv.create('/a/1', 'one');
      expect(e.modRevision).toBe(base + 1);
      expect(e.createRevision).toBe(e.modRevision);
      expect((await kv.get('/a/1')).entry).toEqual(e);
      expect((await kv.get('/a/missing')).entry).toBeUndefined();
      await expectKVError(kv.create('/a/1', 'again'), 'exists');
      expect(await kv.currentRevision()).toBe(base + 1);
    });

    it('updates with compare-and-swap on the mod revision', async () => {
      const kv = await make();
      const c = await kv.create('/a/1', 'one');
      const u = await kv.update('/a/1', 'two', c.modRevision);
      expect(u.modRevision).toBeGreaterThan(c.modRevision);
      expect(u.createRevision).toBe(c.createRevision);
      await expectKVError(kv.update('/a/1', 'three', c.modRevision), 'conflict');
      await expectKVError(kv.update('/a/none', 'x', 1), 'not-found');
      expect((await kv.get('/a/1')).entry?.value).toBe('two');
    });

    it('reports the current entry with a conflict', async () => {
      const kv = await make();
      const c = await kv.create('/a/1', 'one');
      const u = await kv.update('/a/1', 'two', c.modRevision);
      try {
        await kv.update('/a/1', 'three', c.modRevision);
        throw new Error('no conflict');
      } catch (e) {
        expect(isKVError(e, 'conflict')).toBe(true);
        if (isKVError(e) && e.current) expect(e.current.modRevision).toBe(u.modRevision);
      }
    });

    it('deletes conditionally and unconditionally; a deleted key can be created again', async () => {
      const kv = await make();
      const c = await kv.create('/a/1', 'one');
      await expectKVError(kv.delete('/a/1', c.modRevision + 100), 'conflict');
      const d = await kv.delete('/a/1', c.modRevision);
      expect(d.prev.value).toBe('one');
      expect(d.revision).toBeGreaterThan(c.modRevision);
      await expectKVError(kv.delete('/a/1'), 'not-found');
      const again = await kv.create('/a/1', 'new');
      expect(again.createRevision).toBe(again.modRevision);
      await kv.delete('/a/1');
      expect((await kv.get('/a/1')).entry).toBeUndefined();
    });

    it('lists a prefix in key order with limit, start and remaining count', async () => {
      const kv = await make();
      for (const k of ['/p/c', '/p/a', '/p/b', '/p/d', '/pq/x', '/o/z']) await kv.create(k, k);
      const all = await kv.list('/p/');
      expect(all.entries.map((e) => e.key)).toEqual(['/p/a', '/p/b', '/p/c', '/p/d']);
      expect(all.remaining).toBe(0);
      const first = await kv.list('/p/', { limit: 2 });
      expect(first.entries.map((e) => e.key)).toEqual(['/p/a', '/p/b']);
      expect(first.remaining).toBe(2);
      const next = await kv.list('/p/', { limit: 2, start: '/p/b\u0000', revision: first.revision });
      expect(next.entries.map((e) => e.key)).toEqual(['/p/c', '/p/d']);
      expect(next.remaining).toBe(0);
      expect(next.revision).toBe(first.revision);
    });

    it('reads the past: get and list at an earlier revision', async () => {
      const kv = await make();
      const a = await kv.create('/h/a', 'a1');
      const mid = a.modRevision;
      await kv.update('/h/a', 'a2', a.modRevision);
      await kv.create('/h/b', 'b1');
      await kv.delete('/h/a');
      expect((await kv.get('/h/a', mid)).entry?.value).toBe('a1');
      expect((await kv.get('/h/a')).entry).toBeUndefined();
      const past = await kv.list('/h/', { revision: mid });
      expect(past.entries.map((e) => [e.key, e.value])).toEqual([['/h/a', 'a1']]);
      expect(past.revision).toBe(mid);
      const now = await kv.list('/h/');
      expect(now.entries.map((e) => e.key)).toEqual(['/h/b']);
    });

    it('refuses reads of future revisions', async () => {
      const kv = await make();
      await kv.create('/f/a', 'a');
      const rev = await kv.currentRevision();
      await expectKVError(kv.list('/f/', { revision: rev + 10 }), 'future-revision');
      await expectKVError(kv.get('/f/a', rev + 10), 'future-revision');
    });

    it('compacts: older reads and watches fail, the compacted revision and newer still work', async () => {
      const kv = await make();
      const a = await kv.create('/c/a', 'a1');
      const u = await kv.update('/c/a', 'a2', a.modRevision);
      await kv.create('/c/gone', 'g');
      const d = await kv.delete('/c/gone');
      await kv.compact(d.revision);
      expect(await kv.compactedRevision()).toBe(d.revision);
      await expectKVError(kv.get('/c/a', a.modRevision), 'compacted');
      await expectKVError(kv.list('/c/', { revision: u.modRevision }), 'compacted');
      expect((await kv.get('/c/a', d.revision)).entry?.value).toBe('a2');
      expect((await kv.list('/c/')).entries.map((e) => e.key)).toEqual(['/c/a']);
      const ac = new AbortController();
      const it = kv.watch('/c/', a.modRevision, ac.signal)[Symbol.asyncIterator]();
      await expect(it.next()).rejects.toSatisfy((e: unknown) => isKVError(e, 'compacted'));
      ac.abort();
      // Compacting backwards is a no-op.
      await kv.compact(1);
      expect(await kv.compactedRevision()).toBe(d.revision);
      // Writes after compaction continue the revision sequence.
      const n = await kv.create('/c/new', 'n');
      expect(n.modRevision).toBe(d.revision + 1);
    });

    it('watches from a revision: history first, then live events, in order, for the prefix only', async () => {
      const kv = await make();
      const a = await kv.create('/w/a', 'a1');
      const u = await kv.update('/w/a', 'a2', a.modRevision);
      await kv.create('/x/other', 'x');
      const ac = new AbortController();
      const watch = kv.watch('/w/', a.modRevision, ac.signal);
      const b = await kv.create('/w/b', 'b1');
      await kv.delete('/w/a');
      const events = await take(watch, 3);
      ac.abort();
      expect(events.map((e) => [e.type, e.key, e.modRevision])).toEqual([
        ['put', '/w/a', u.modRevision],
        ['put', '/w/b', b.modRevision],
        ['delete', '/w/a', b.modRevision + 1],
      ]);
      const [upd, create, del] = events;
      expect(upd?.type === 'put' && upd.prev?.value).toBe('a1');
      expect(create?.type === 'put' && create.prev).toBeUndefined();
      expect(del?.prev?.value).toBe('a2');
    });

    it('reports progress past writes outside the watched prefix when asked, after the events before it', async () => {
      const kv = await make();
      const ac = new AbortController();
      const watch = kv.watch('/w/', await kv.currentRevision(), ac.signal, { progress: true });
      const a = await kv.create('/w/a', 'a');
      const outside = await kv.create('/x/b', 'b');
      kv.requestProgress(outside.modRevision);
      const seen = await takeUntil(watch, (s) => s.some((e) => e.type === 'progress' && e.revision >= outside.modRevision));
      ac.abort();
      const firstProgress = seen.findIndex((e) => e.type === 'progress' && e.revision >= a.modRevision);
      const put = seen.findIndex((e) => e.type === 'put' && e.key === '/w/a');
      expect(put).toBeGreaterThanOrEqual(0);
      expect(put).toBeLessThan(firstProgress);
      // Reported revisions never go backwards.
      const revisions = seen.map((e) => (e.type === 'progress' ? e.revision : e.modRevision));
      expect(revisions).toEqual([...revisions].sort((x, y) => x - y));
    });

    it('ends a watch when its signal aborts', async () => {
      const kv = await make();
      const ac = new AbortController();
      const it = kv.watch('/w/', await kv.currentRevision(), ac.signal)[Symbol.asyncIterator]();
      const next = it.next();
      ac.abort();
      expect((await next).done).toBe(true);
    });

    it('assigns distinct, increasing revisions to concurrent writes, and publishes them in order', async () => {
      const kv = await make();
      const ac = new AbortController();
      const watch = kv.watch('/n/', await kv.currentRevision(), ac.signal);
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => kv.create(`/n/${String(i).padStart(3, '0')}`, `v${i}`)));
      const revisions = results.map((r) => r.modRevision);
      expect(new Set(revisions).size).toBe(50);
      const events = await take(watch, 50);
      ac.abort();
      const seen = events.map((e) => e.modRevision);
      expect(seen).toEqual([...seen].sort((x, y) => x - y));
      expect(new Set(seen)).toEqual(new Set(revisions));
      expect((await kv.list('/n/')).entries).toHaveLength(50);
    });
  });
}
