import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryKV } from '../../storage/memory/memory-kv.js';
import type { RevisionedKV } from '../../storage/kv.js';
import { ipRange, parseNodePortRange, parseServiceClusterIPRanges, portRange } from './ranges.js';
import { StoredPool } from './stored-pool.js';
import { parseCIDR } from '../../machinery/ip.js';

const KEY = '/registry/internal/ranges/test';
let kvs: RevisionedKV[] = [];

function kv(): RevisionedKV {
  const store = createMemoryKV();
  kvs.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(kvs.map((k) => k.close()));
  kvs = [];
});

function ports(store: RevisionedKV, first: number, last: number, inUse: number[] = []): StoredPool<number> {
  return new StoredPool({ kv: store, key: KEY, name: 'test', spec: portRange(first, last), inUse: async () => inUse });
}

describe('StoredPool', () => {
  it('gives requested values when free, any free one otherwise, and refuses in Kubernetes words', async () => {
    const pool = ports(kv(), 30000, 30009);
    expect(await pool.allocate([30005])).toEqual({ ok: true, values: [30005] });
    expect(await pool.allocate([30005])).toEqual({ ok: false, index: 0, reason: 'allocated', message: 'provided port is already allocated' });
    expect(await pool.allocate([29999])).toEqual({
      ok: false,
      index: 0,
      reason: 'not-in-range',
      message: 'provided port is not in the valid range. The range of valid ports is 30000-30009',
    });
    const any = await pool.allocate([undefined, undefined]);
    expect(any.ok).toBe(true);
    if (any.ok) expect(new Set([30005, ...any.values]).size).toBe(3);
  });

  it('takes all or nothing', async () => {
    const pool = ports(kv(), 30000, 30009);
    await pool.allocate([30001]);
    const r = await pool.allocate([30002, 30001]);
    expect(r).toMatchObject({ ok: false, index: 1, reason: 'allocated' });
    // 30002 was not kept by the failed request.
    expect(await pool.allocate([30002])).toEqual({ ok: true, values: [30002] });
  });

  it('says the range is full, and takes values back on release', async () => {
    const pool = ports(kv(), 30000, 30002);
    const all = await pool.allocate([undefined, undefined, undefined]);
    expect(all.ok).toBe(true);
    expect(await pool.allocate([undefined])).toEqual({ ok: false, index: 0, reason: 'full', message: 'range is full' });
    await pool.release([30001]);
    expect(await pool.allocate([undefined])).toEqual({ ok: true, values: [30001] });
  });

  it('keeps its state in the store, where another pool on the same key sees it', async () => {
    const store = kv();
    const a = ports(store, 30000, 30099);
    const b = ports(store, 30000, 30099);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).allocate([undefined])));
    const values = results.flatMap((r) => (r.ok ? r.values : []));
    expect(values).toHaveLength(100);
    expect(new Set(values).size).toBe(100);
    expect(await a.allocate([undefined])).toMatchObject({ ok: false, reason: 'full' });
    const stored = JSON.parse((await store.get(KEY)).entry!.value);
    expect(stored).toMatchObject({ apiVersion: 'v1', kind: 'RangeAllocation', metadata: { name: 'test' }, range: '30000-30099' });
  });

  it('applies a burst of requests in few writes', async () => {
    const store = kv();
    const pool = ports(store, 30000, 32767);
    const before = await store.currentRevision();
    const results = await Promise.all(Array.from({ length: 50 }, () => pool.allocate([undefined])));
    expect(results.every((r) => r.ok)).toBe(true);
    expect((await store.currentRevision()) - before).toBeLessThan(10);
  });

  it('answers a dry run without taking anything', async () => {
    const store = kv();
    const pool = ports(store, 30000, 30000);
    expect(await pool.allocate([undefined], { dryRun: true })).toEqual({ ok: true, values: [30000] });
    expect(await pool.allocate([30000], { dryRun: true })).toEqual({ ok: true, values: [30000] });
    expect((await store.get(KEY)).entry).toBeUndefined();
    expect(await pool.allocate([30000])).toEqual({ ok: true, values: [30000] });
    expect(await pool.allocate([30000], { dryRun: true })).toMatchObject({ ok: false, reason: 'allocated' });
  });

  it('rebuilds a missing bitmap, or one written for another range, from the values in use', async () => {
    const store = kv();
    const first = ports(store, 30000, 30009, [30003]);
    expect(await first.allocate([30003])).toMatchObject({ ok: false, reason: 'allocated' });
    expect(await first.allocate([30004])).toMatchObject({ ok: true });
    // The flag changed: the stored bitmap is for 30000-30009 and is rebuilt from what objects hold.
    const widened = ports(store, 30000, 30019, [30003, 30015]);
    expect(await widened.allocate([30015])).toMatchObject({ ok: false, reason: 'allocated' });
    expect(await widened.allocate([30004])).toMatchObject({ ok: true });
  });

  it('hands out dynamic addresses above the static band first', async () => {
    const pool = new StoredPool({ kv: kv(), key: KEY, name: 'ips', spec: ipRange(parseCIDR('10.0.0.0/24')!), inUse: async () => [] });
    const r = await pool.allocate(Array.from({ length: 20 }, () => undefined));
    expect(r.ok).toBe(true);
    // The first 16 addresses (10.0.0.1 - 10.0.0.16) are left to manual requests while others remain.
    if (r.ok) for (const ip of r.values) expect(Number(ip.split('.')[3])).toBeGreaterThan(16);
    expect(await pool.allocate(['10.0.0.0'])).toMatchObject({ ok: false, reason: 'not-in-range' });
    expect(await pool.allocate(['10.0.0.255'])).toMatchObject({
      ok: false,
      message: 'the provided IP (10.0.0.255) is not in the valid range. The range of valid IPs is 10.0.0.0/24',
    });
  });
});

describe('range flags', () => {
  it('reads one or two service CIDRs of different families', () => {
    expect(parseServiceClusterIPRanges('10.0.0.0/24').map((r) => [r.family, r.text, r.size])).toEqual([['IPv4', '10.0.0.0/24', 254]]);
    expect(parseServiceClusterIPRanges('10.96.0.0/16,fd00::/108').map((r) => [r.family, r.size])).toEqual([
      ['IPv4', 65534],
      ['IPv6', 65535],
    ]);
    expect(() => parseServiceClusterIPRanges('10.0.0.0/24,10.1.0.0/24')).toThrow(/different IP families/);
    expect(() => parseServiceClusterIPRanges('10.0.0.0/8')).toThrow(/too large/);
    expect(() => parseServiceClusterIPRanges('10.0.0.0/31')).toThrow(/too small/);
    expect(() => parseServiceClusterIPRanges('a,b,c')).toThrow(/more than two/);
    expect(() => parseServiceClusterIPRanges('10.0.0.0')).toThrow(/not a valid CIDR/);
  });

  it('reads a node port range', () => {
    expect(parseNodePortRange('30000-32767').text).toBe('30000-32767');
    expect(parseNodePortRange('30000+9').text).toBe('30000-30009');
    expect(() => parseNodePortRange('32767-30000')).toThrow(/port range/);
    expect(() => parseNodePortRange('0-10')).toThrow(/port range/);
    expect(() => parseNodePortRange('ports')).toThrow(/port range/);
  });
});

describe('StoredPool answers from the store, not from memory', () => {
  it('sees a release made by another pool on the same key before refusing', async () => {
    const store = kv();
    const a = ports(store, 30000, 30009);
    const b = ports(store, 30000, 30009);
    expect(await a.allocate([30001])).toMatchObject({ ok: true });
    expect(await b.allocate([30001])).toMatchObject({ ok: false, reason: 'allocated' });
    await a.release([30001]);
    // b remembers 30001 as taken; the store says otherwise.
    expect(await b.allocate([30001])).toEqual({ ok: true, values: [30001] });
  });
});
