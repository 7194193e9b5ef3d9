import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdSkipReason, startEtcd, uniquePrefix, type TestEtcd } from '../../../test/helpers/etcd.js';
import { isKVError, type KVWatchEvent } from '../kv.js';
import type { AsyncQueue } from '../../util/async-queue.js';
import { describeKVContract } from '../testing/kv.case.js';
import { createEtcdKV, orderedProgressRequests, type EtcdKVOptions, type EtcdStore } from './etcd-kv.js';

const skip = etcdSkipReason();
if (skip) console.warn(skip);

let etcd: TestEtcd | undefined;
beforeAll(async () => {
  if (!skip) etcd = await startEtcd();
});
afterAll(async () => {
  await etcd?.close();
});

async function retryUnavailable<T>(f: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await f();
    } catch (e) {
      if (!isKVError(e, 'unavailable') || attempt > 100) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const open = (opts: Partial<EtcdKVOptions> = {}): Promise<EtcdStore> => createEtcdKV({ endpoints: [(etcd as TestEtcd).endpoint], prefix: uniquePrefix('kv'), ...opts });

describe.skipIf(skip)('etcd backend', () => {
  // Each store has a key prefix of its own on the one etcd; revisions are etcd's, shared by all.
  describeKVContract('etcd', { create: () => open() });

  it('keeps clusters apart by key prefix', async () => {
    const prefix = uniquePrefix('iso');
    const a = await open({ prefix });
    const sibling = await open({ prefix: `${prefix}x` });
    await a.create('/k/1', 'a');
    await sibling.create('/k/1', 'sibling');
    expect((await a.list('')).entries.map((e) => [e.key, e.value])).toEqual([['/k/1', 'a']]);
    expect((await a.get('/k/1')).entry?.value).toBe('a');
    await Promise.all([a.close(), sibling.close()]);
  });

  it('works without a key prefix too', async () => {
    const kv = await open({ prefix: '/' });
    const rev = await kv.currentRevision();
    expect(rev).toBeGreaterThan(0);
    const key = `${uniquePrefix('bare')}/k`;
    const c = await kv.create(key, 'v');
    expect((await kv.get(key)).entry).toEqual(c);
    await kv.delete(key);
    await kv.close();
  });

  it('sees writes of another client of the same prefix at once', async () => {
    const prefix = uniquePrefix('two');
    const a = await open({ prefix });
    const b = await open({ prefix });
    const c = await a.create('/o/x', 'one');
    expect((await b.get('/o/x')).entry).toEqual(c);
    await expect(b.update('/o/x', 'two', c.modRevision - 1)).rejects.toMatchObject({ code: 'conflict', current: c });
    await b.update('/o/x', 'two', c.modRevision);
    await expect(a.update('/o/x', 'three', c.modRevision)).rejects.toMatchObject({ code: 'conflict' });
    await Promise.all([a.close(), b.close()]);
  });

  for (const progress of ['request', 'write'] as const) {
    it(`reports progress past writes elsewhere in etcd (progress by ${progress})`, async () => {
      const kv = await open({ progress });
      const elsewhere = await open();
      const ac = new AbortController();
      const watch = kv.watch('/w/', await kv.currentRevision(), ac.signal, { progress: true })[Symbol.asyncIterator]();
      const mine = await kv.create('/w/a', 'a');
      const other = await elsewhere.create('/w/b', 'not ours');
      kv.requestProgress(await kv.currentRevision());
      const seen: KVWatchEvent[] = [];
      const progressed = (): boolean => seen.some((e) => e.type === 'progress' && e.revision >= other.modRevision);
      while (!progressed() || !seen.some((e) => e.type === 'put')) {
        const r = await watch.next();
        if (r.done) break;
        seen.push(r.value);
      }
      ac.abort();
      const events = seen.flatMap((e) => (e.type === 'progress' ? [] : [[e.key, e.modRevision]]));
      expect(events).toEqual([['/w/a', mine.modRevision]]);
      if (progress === 'write' || orderedProgressRequests(kv.serverVersion)) {
        // The progress report comes after the event before it.
        expect(seen[0]).toMatchObject({ type: 'put', key: '/w/a' });
      } else {
        console.warn(`etcd ${kv.serverVersion} may answer progress requests before pending events; not checking their order`);
      }
      // A marker write never shows up in lists.
      expect((await kv.list('/w/')).entries.map((e) => e.key)).toEqual(['/w/a']);
      await Promise.all([kv.close(), elsewhere.close()]);
    });
  }

  it('pages through a prefix bigger than one etcd response at one revision', async () => {
    const kv = await open({ pageSize: 7 });
    await Promise.all(Array.from({ length: 120 }, (_, i) => kv.create(`/big/${String(i).padStart(4, '0')}`, 'v')));
    const before = await kv.currentRevision();
    const late = kv.create('/big/0005x', 'written while paging');
    const all = await kv.list('/big/', { revision: before });
    await late;
    expect(all.entries.map((e) => e.key)).toEqual(Array.from({ length: 120 }, (_, i) => `/big/${String(i).padStart(4, '0')}`));
    expect((await kv.list('/big/')).entries).toHaveLength(121);
    const page = await kv.list('/big/', { limit: 50, start: '/big/0100' });
    expect(page.entries.map((e) => e.key)).toEqual(Array.from({ length: 20 }, (_, i) => `/big/${String(100 + i).padStart(4, '0')}`));
    expect(page.remaining).toBe(0);
    await kv.close();
  });

  it('fails a watch with the compacted revision etcd reports', async () => {
    const prefix = uniquePrefix('cw');
    const a = await open({ prefix });
    const b = await open({ prefix });
    const first = await a.create('/c/a', '1');
    const second = await a.update('/c/a', '2', first.modRevision);
    // Compacted by another client: this one learns the revision from etcd.
    await b.compact(second.modRevision);
    const ac = new AbortController();
    const it = a.watch('/c/', first.modRevision - 1, ac.signal)[Symbol.asyncIterator]();
    await expect(it.next()).rejects.toMatchObject({ code: 'compacted', compactedRevision: second.modRevision });
    expect(await a.compactedRevision()).toBe(second.modRevision);
    ac.abort();
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses values over etcd\'s request limit, and keeps working', async () => {
    const kv = await open();
    const c = await kv.create('/big/a', 'small');
    // Just over etcd's limit, which etcd itself refuses; and past its gRPC limit, which the client retries.
    for (const size of [1.6e6, 2.2e6, 2.2e6, 2.2e6]) {
      await expect(kv.create(`/big/${size}`, 'x'.repeat(size))).rejects.toMatchObject({ code: 'too-large' });
      await expect(kv.update('/big/a', 'x'.repeat(size), c.modRevision)).rejects.toMatchObject({ code: 'too-large' });
    }
    const near = await open({ maxRequestBytes: 64 * 1024 * 1024 });
    await expect(near.create('/big/b', 'x'.repeat(1.6e6))).rejects.toMatchObject({ code: 'too-large' });
    expect((await kv.update('/big/a', 'fine', c.modRevision)).value).toBe('fine');
    await Promise.all([kv.close(), near.close()]);
  });

  it('closes watches without the client counting them as endpoint failures', async () => {
    const kv = await open();
    const watches = [];
    for (let i = 0; i < 4; i++) {
      const ac = new AbortController();
      const it = kv.watch(`/cw${i}/`, await kv.currentRevision(), ac.signal)[Symbol.asyncIterator]();
      await kv.create(`/cw${i}/x`, 'x');
      await it.next();
      watches.push(ac);
    }
    // Four closes in a row, nothing in between: the client would now shun the endpoint for seconds.
    for (const ac of watches) ac.abort();
    await new Promise((r) => setTimeout(r, 200));
    expect((await kv.get('/cw0/x')).entry?.value).toBe('x');
    await kv.close();
  });

  it('resumes a watch where it stopped when etcd restarts', async () => {
    const kv = await open();
    const ac = new AbortController();
    const watch = kv.watch('/r/', await kv.currentRevision(), ac.signal)[Symbol.asyncIterator]();
    const a = await kv.create('/r/a', 'a');
    expect((await watch.next()).value).toMatchObject({ type: 'put', key: '/r/a', modRevision: a.modRevision });
    await (etcd as TestEtcd).restart();
    // The client may refuse calls for a moment after failures; the store reports them as unavailable.
    const b = await retryUnavailable(() => kv.create('/r/b', 'b'));
    const c = await kv.update('/r/b', 'c', b.modRevision);
    const events = [(await watch.next()).value, (await watch.next()).value];
    expect(events.map((e) => [e.type, e.key, e.modRevision])).toEqual([
      ['put', '/r/b', b.modRevision],
      ['put', '/r/b', c.modRevision],
    ]);
    ac.abort();
    await kv.close();
  });

  it('says when it cannot reach etcd', async () => {
    await expect(createEtcdKV({ endpoints: ['http://127.0.0.1:1'], callTimeoutMs: 2000 })).rejects.toThrow(/cannot reach etcd/);
  });
});

describe('etcd progress requests are trusted from the versions that order them', () => {
  it.each([
    ['3.4.23', false],
    ['3.4.31', true],
    ['3.5.12', false],
    ['3.5.13', true],
    ['3.6.0', true],
    ['3.3.27', false],
  ])('%s → %s', (version, ordered) => {
    expect(orderedProgressRequests(version)).toBe(ordered);
  });
});

describe.skipIf(skip)('etcd backend: attempts that time out', () => {
  // A 1 ms first attempt times out on the client while etcd may still commit it: the retries must
  // neither apply a write twice nor report the store's own earlier write as a conflict.
  it('creates and updates exactly once, answered as done, when earlier attempts had an unknown outcome', async () => {
    const prefix = uniquePrefix('uncertain');
    const kv = await open({ prefix, attemptTimeoutMs: 1 });
    const plain = await open({ prefix });
    const start = await plain.currentRevision();
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => kv.create(`/k/${i}`, `v${i}`)));
    const updated = await Promise.all(created.map((c, i) => kv.update(c.key, `w${i}`, c.modRevision)));
    for (const [i, u] of updated.entries()) {
      const { entry } = await plain.get(`/k/${i}`);
      expect(entry).toEqual({ key: `/k/${i}`, value: `w${i}`, createRevision: created[i]!.modRevision, modRevision: u.modRevision });
    }
    // One create and one update per key, nothing else: this etcd has no other writer meanwhile.
    expect((await plain.currentRevision()) - start).toBe(40);
    // A second create of a live key is still refused.
    await expect(kv.create('/k/0', 'again')).rejects.toSatisfy((e) => isKVError(e, 'exists'));
    await Promise.all([kv.close(), plain.close()]);
  });
});

describe.skipIf(skip)('etcd backend: a watch whose consumer does not read', () => {
  it('stops taking events from etcd past a bound and delivers every one, in order, once read again', async () => {
    const kv = await open();
    const start = await kv.currentRevision();
    const abort = new AbortController();
    const events = kv.watch('/slow/', start, abort.signal);
    const N = 3000;
    for (let i = 0; i < N; i += 100) await Promise.all(Array.from({ length: 100 }, (_, j) => kv.create(`/slow/${String(i + j).padStart(5, '0')}`, 'v')));
    // Let etcd send what it will; the stream is paused once about a thousand events wait unread.
    await new Promise((r) => setTimeout(r, 500));
    expect((events as AsyncQueue<KVWatchEvent>).size).toBeLessThan(N);
    const revisions: number[] = [];
    for await (const ev of events) {
      if (ev.type === 'progress') continue;
      revisions.push(ev.modRevision);
      if (revisions.length === N) break;
    }
    for (let i = 1; i < N; i++) expect(revisions[i]).toBeGreaterThan(revisions[i - 1]!);
    await kv.close();
  });
});
