/**
 * The distributed backend: the RevisionedKV seam on etcd v3, so several server instances share one
 * store. etcd's mod_revision is the resourceVersion; its revision is global to the etcd cluster.
 *
 * - create: Txn(create_revision(key) == 0 → put). update / delete: Txn(version(key) > 0 and
 *   mod_revision(key) == expected → put / delete, else → get), so the failure answers with the
 *   current entry (conflict) or nothing (not found) in the same round trip.
 * - Reads are linearizable ranges, at a revision when asked; a list reads its `count` to report
 *   what remains after a limit, and pages through big prefixes at one revision.
 * - Keys: the seam's keys (relative, starting with `/`) live under a key prefix (default `/orch`),
 *   so several clusters can share an etcd. The key equal to the prefix of a watch with `progress`
 *   (the watch cache's `/registry/`) may hold that watch's progress marker (etcd-watch.ts); lists
 *   leave out the key equal to their prefix.
 * - The compacted revision: etcd does not tell it. This store knows the highest compaction it did,
 *   or that etcd reported (a compacted watch carries the exact revision; a compacted read proves a
 *   lower bound). After a restart it knows nothing until then; reads and watches of compacted
 *   history still fail with 'compacted', since etcd itself refuses them.
 */
import { ClientClosedError, CompareResult, CompareTarget, type Etcd3, type ICompare, type IKeyValue, type IRequestOp } from 'etcd3';
import { createEtcdClient, DEFAULT_CALL_TIMEOUTS, wasNotApplied, withRetries, type Attempt, type EtcdCallTimeouts } from './etcd-client.js';
import { KVError, type KVEntry, type KVListOptions, type KVListResult, type KVWatchEvent, type KVWatchOptions, type RevisionedKV } from '../kv.js';
import { EtcdWatch, entryOf, type ProgressMode } from './etcd-watch.js';
import { Keyspace, keyAfter } from './keyspace.js';

export interface EtcdKVOptions {
  /** Client URLs, e.g. ['http://127.0.0.1:2379']. */
  endpoints: string[];
  /** Prefix of this cluster's keys in etcd (default `/orch`). */
  prefix?: string;
  /**
   * How watches are made to report progress (etcd-watch.ts). 'auto' (default) uses progress
   * requests on etcd versions that order them with events (3.4.31+, 3.5.13+, 3.6+) and marker
   * writes on older ones.
   */
  progress?: ProgressMode | 'auto';
  /** Budget of each unary call, retries included (default 30 s); watches have none. */
  callTimeoutMs?: number;
  /** Deadline of the first attempt of a unary call, doubled on each retry (default 2 s); see etcd-client.ts. */
  attemptTimeoutMs?: number;
  /** Entries per etcd range when a list has no limit (default 5000). */
  pageSize?: number;
  /**
   * etcd's --max-request-bytes (default 1.5 MiB). Bigger writes are refused here: sent, etcd's gRPC
   * limit fails them with an error the client retries, then counts against the endpoint, which it
   * stops using for seconds, so one oversized object would make every request fail meanwhile.
   */
  maxRequestBytes?: number;
}

export interface EtcdStore extends RevisionedKV {
  /** The version of the etcd member that answered at connection. */
  readonly serverVersion: string;
  readonly progressMode: ProgressMode;
}

export const DEFAULT_ETCD_PREFIX = '/orch';

/** Connects, learns the server version, and returns the store. Throws when etcd cannot be reached. */
export async function createEtcdKV(opts: EtcdKVOptions): Promise<EtcdStore> {
  if (opts.endpoints.length === 0) throw new Error('the etcd storage backend needs at least one server (--etcd-servers)');
  const timeouts: EtcdCallTimeouts = {
    callTimeoutMs: opts.callTimeoutMs ?? DEFAULT_CALL_TIMEOUTS.callTimeoutMs,
    attemptTimeoutMs: opts.attemptTimeoutMs ?? DEFAULT_CALL_TIMEOUTS.attemptTimeoutMs,
  };
  const client = createEtcdClient(opts.endpoints, timeouts);
  let version: string;
  try {
    // Any member will do; one that is down is skipped.
    version = (await withRetries({ ...timeouts, callTimeoutMs: Math.min(timeouts.callTimeoutMs, 10_000) }, () => client.maintenance.status())).version;
  } catch (e) {
    client.close();
    throw new Error(`cannot reach etcd at ${opts.endpoints.join(',')}: ${(e as Error).message}`);
  }
  const mode = opts.progress && opts.progress !== 'auto' ? opts.progress : orderedProgressRequests(version) ? 'request' : 'write';
  return new EtcdKV(client, new Keyspace(opts.prefix ?? DEFAULT_ETCD_PREFIX), mode, version, {
    pageSize: opts.pageSize ?? 5_000,
    maxRequestBytes: opts.maxRequestBytes ?? 1.5 * 1024 * 1024,
    timeouts,
  });
}

/** Whether this etcd version answers progress requests only after the events before them. */
export function orderedProgressRequests(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  if (major !== 3) return major > 3;
  if (minor === 4) return patch >= 31;
  if (minor === 5) return patch >= 13;
  return minor > 5;
}

const cmp = {
  exists: (key: Buffer): ICompare => ({ key, target: CompareTarget.Version, result: CompareResult.Greater, version: 0 }),
  absent: (key: Buffer): ICompare => ({ key, target: CompareTarget.Create, result: CompareResult.Equal, create_revision: 0 }),
  modRevision: (key: Buffer, rev: number): ICompare => ({ key, target: CompareTarget.Mod, result: CompareResult.Equal, mod_revision: rev }),
};

class EtcdKV implements EtcdStore {
  readonly backend = 'etcd' as const;
  private compacted = 0;
  private closed = false;
  private readonly watches = new Set<EtcdWatch>();

  constructor(
    private readonly client: Etcd3,
    private readonly keys: Keyspace,
    readonly progressMode: ProgressMode,
    readonly serverVersion: string,
    private readonly limits: { pageSize: number; maxRequestBytes: number; timeouts: EtcdCallTimeouts },
  ) {}

  private check(): void {
    if (this.closed) throw new KVError('closed', 'the store is closed');
  }

  /**
   * Runs an etcd call, retried on another member after transient failures (etcd-client.ts), turning
   * its failures into KVErrors. Only reads and compare-and-swap writes come here; `retryable` narrows
   * the retries of a write that a second attempt could apply twice.
   */
  private async call<T>(f: (a: Attempt) => Promise<T>, readRevision?: number, retryable?: (e: unknown) => boolean): Promise<T> {
    this.check();
    try {
      return await withRetries(this.limits.timeouts, f, retryable);
    } catch (e) {
      throw this.kvError(e, readRevision);
    }
  }

  private kvError(e: unknown, readRevision: number | undefined): KVError {
    if (e instanceof KVError) return e;
    const message = e instanceof Error ? e.message : String(e);
    const at = readRevision ? ` ${readRevision}` : '';
    if (message.includes('required revision has been compacted')) {
      // The read revision is older than the compaction: the compaction is at least one past it.
      if (readRevision) this.noteCompacted(readRevision + 1);
      return new KVError('compacted', `required revision${at} has been compacted`, undefined, this.compacted);
    }
    if (message.includes('request is too large')) return new KVError('too-large', `etcd refused the request as too large: ${message}`);
    if (message.includes('required revision is a future revision')) return new KVError('future-revision', `required revision${at} is a future revision`);
    if (this.closed || e instanceof ClientClosedError) return new KVError('closed', 'the store is closed');
    return new KVError('unavailable', `etcd: ${message}`);
  }

  private noteCompacted(revision: number): void {
    if (revision > this.compacted) this.compacted = revision;
  }

  async get(key: string, revision?: number): Promise<{ entry: KVEntry | undefined; revision: number }> {
    const at = revision && revision > 0 ? revision : undefined;
    const res = await this.call((a) => this.client.kv.range({ key: this.keys.key(key), ...(at ? { revision: at } : {}) }, a.options), at);
    const kv = res.kvs[0];
    return { entry: kv ? entryOf(this.keys, kv) : undefined, revision: at ?? Number(res.header.revision) };
  }

  async list(prefix: string, opts: KVListOptions = {}): Promise<KVListResult> {
    const range = this.keys.prefixRange(prefix);
    // From the continue key, or just after the prefix's own key (a watch's progress marker).
    let from = opts.start && opts.start > prefix ? this.keys.key(opts.start) : keyAfter(range.start);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    let revision = opts.revision && opts.revision > 0 ? opts.revision : 0;
    const entries: KVEntry[] = [];
    for (;;) {
      const pageLimit = limit ? Math.min(limit - entries.length, this.limits.pageSize) : this.limits.pageSize;
      const at = revision;
      const res = await this.call((a) => this.client.kv.range({ key: from, range_end: range.end, limit: pageLimit, ...(at ? { revision: at } : {}) }, a.options), at || undefined);
      // Every page is read at the revision of the first.
      if (!revision) revision = Number(res.header.revision);
      for (const kv of res.kvs) entries.push(entryOf(this.keys, kv));
      const last: IKeyValue | undefined = res.kvs[res.kvs.length - 1];
      // `count` counts the whole range from `from`, not only what this page returned.
      const remaining = Number(res.count) - res.kvs.length;
      if (!res.more || !last || (limit && entries.length >= limit)) return { entries, revision, remaining };
      from = keyAfter(last.key);
    }
  }

  /**
   * A conditional write. When an earlier attempt may have committed (`uncertain`) and this one fails
   * its compare, `ownWrite` tells from the failure branch's read whether the key holds what the
   * earlier attempt wrote; the write then counts as done at that entry's revision.
   */
  private async txn(compare: ICompare[], success: IRequestOp[], failure: IRequestOp[], ownWrite?: (current: IKeyValue | undefined) => boolean) {
    return this.call(
      async (a) => {
        const res = await this.client.kv.txn({ compare, success, failure }, a.options);
        const current = res.responses[0]?.response_range?.kvs[0];
        if (!res.succeeded && a.uncertain && ownWrite?.(current)) return { ...res, ownEarlier: current };
        return { ...res, ownEarlier: undefined };
      },
      undefined,
      // Without a way to recognise its own earlier write, only a write that was surely not applied is sent again.
      ownWrite ? undefined : wasNotApplied,
    );
  }

  /** The value as bytes, refused when the write would exceed etcd's request limit. */
  private bytes(k: Buffer, value: string): Buffer {
    const v = Buffer.from(value, 'utf8');
    // The request also carries the key (twice in a Txn) and some framing.
    const size = v.length + 2 * k.length + 256;
    if (size > this.limits.maxRequestBytes) throw new KVError('too-large', `the object is ${v.length} bytes; etcd accepts requests up to ${this.limits.maxRequestBytes} bytes`);
    return v;
  }

  async create(key: string, value: string): Promise<KVEntry> {
    const k = this.keys.key(key);
    const v = this.bytes(k, value);
    const res = await this.txn([cmp.absent(k)], [{ request_put: { key: k, value: v } }], [{ request_range: { key: k } }], (current) => !!current && current.value.equals(v));
    if (res.ownEarlier) return entryOf(this.keys, res.ownEarlier);
    if (!res.succeeded) throw new KVError('exists', `key ${key} already exists`);
    const revision = Number(res.header.revision);
    return { key, value, createRevision: revision, modRevision: revision };
  }

  /** The failure branch of a conditional write read the key: not found, or a conflict with its current entry. */
  private precondition(key: string, current: IKeyValue | undefined, expected: number): KVError {
    if (!current) return new KVError('not-found', `key ${key} not found`);
    const entry = entryOf(this.keys, current);
    return new KVError('conflict', `key ${key} has revision ${entry.modRevision}, not ${expected}`, entry);
  }

  async update(key: string, value: string, expectedModRevision: number): Promise<KVEntry> {
    const k = this.keys.key(key);
    const v = this.bytes(k, value);
    const res = await this.txn(
      [cmp.exists(k), cmp.modRevision(k, expectedModRevision)],
      [{ request_put: { key: k, value: v, prev_kv: true } }],
      [{ request_range: { key: k } }],
      (current) => !!current && Number(current.mod_revision) > expectedModRevision && current.value.equals(v),
    );
    if (res.ownEarlier) return entryOf(this.keys, res.ownEarlier);
    if (!res.succeeded) throw this.precondition(key, res.responses[0]?.response_range.kvs[0], expectedModRevision);
    const prev = res.responses[0]?.response_put.prev_kv;
    const revision = Number(res.header.revision);
    return { key, value, createRevision: prev ? Number(prev.create_revision) : revision, modRevision: revision };
  }

  async delete(key: string, expectedModRevision?: number): Promise<{ revision: number; prev: KVEntry }> {
    const k = this.keys.key(key);
    const res = await this.txn(
      expectedModRevision === undefined ? [cmp.exists(k)] : [cmp.exists(k), cmp.modRevision(k, expectedModRevision)],
      [{ request_delete_range: { key: k, prev_kv: true } }],
      [{ request_range: { key: k } }],
    );
    if (!res.succeeded) throw this.precondition(key, res.responses[0]?.response_range.kvs[0], expectedModRevision ?? 0);
    const prev = res.responses[0]?.response_delete_range.prev_kvs[0];
    if (!prev) throw new KVError('not-found', `key ${key} not found`);
    return { revision: Number(res.header.revision), prev: entryOf(this.keys, prev) };
  }

  watch(prefix: string, fromRevision: number, signal: AbortSignal, opts: KVWatchOptions = {}): AsyncIterable<KVWatchEvent> {
    const w = new EtcdWatch(
      {
        watchClient: this.client.watchClient,
        keys: this.keys,
        mode: this.progressMode,
        writeMarker: (p) => this.writeMarker(p),
        noteCompacted: (r) => this.noteCompacted(r),
        onStop: (x) => this.watches.delete(x),
      },
      prefix,
      fromRevision,
      signal,
      opts.progress === true,
    );
    if (this.closed) {
      w.fail(new KVError('closed', 'the store is closed'));
    } else if (fromRevision < this.compacted) {
      // etcd would still replay from the compacted revision itself; the seam starts after it.
      w.fail(new KVError('compacted', `required revision ${fromRevision} has been compacted`, undefined, this.compacted));
    } else {
      this.watches.add(w);
      w.start();
    }
    return w.queue;
  }

  private async writeMarker(prefix: string): Promise<number> {
    const res = await this.call((a) => this.client.kv.put({ key: this.keys.key(this.keys.prefixKey(prefix)), value: Buffer.alloc(0) }, a.options));
    return Number(res.header.revision);
  }

  requestProgress(revision: number): void {
    for (const w of this.watches) w.requestProgress(revision);
  }

  async currentRevision(): Promise<number> {
    // A linearizable read of one key: the header is the answer.
    const res = await this.call((a) => this.client.kv.range({ key: this.keys.key(this.keys.prefixKey('')), keys_only: true }, a.options));
    return Number(res.header.revision);
  }

  async compactedRevision(): Promise<number> {
    return this.compacted;
  }

  async compact(revision: number): Promise<void> {
    if (revision <= this.compacted) return;
    try {
      await this.call((a) => this.client.kv.compact({ revision }, a.options));
      this.noteCompacted(revision);
    } catch (e) {
      if (!(e instanceof KVError)) throw e;
      // Another instance compacted as far or further: nothing to do.
      if (e.code === 'compacted') this.noteCompacted(revision);
      else if (e.code === 'future-revision') await this.compact(Math.min(revision, await this.currentRevision()));
      else throw e;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of [...this.watches]) w.fail(new KVError('closed', 'the store is closed'));
    this.watches.clear();
    this.client.close();
  }
}
