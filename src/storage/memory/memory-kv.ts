/**
 * The in-memory backend: multi-version history per key, for tests and ephemeral servers.
 * Keeps every version until compaction, so reads at past revisions and watch resumption work
 * exactly as with the durable backends.
 */
import { KVError, type KVEntry, type KVEvent, type KVListOptions, type KVListResult, type KVWatchEvent, type KVWatchOptions, type RevisionedKV } from '../kv.js';
import { SortedKeys } from '../sorted-keys.js';
import { WatchHub } from '../watch-hub.js';

interface Version {
  revision: number;
  createRevision: number;
  /** null marks a deletion. */
  value: string | null;
}

export function createMemoryKV(): RevisionedKV {
  return new MemoryKV();
}

class MemoryKV implements RevisionedKV {
  readonly backend = 'memory' as const;
  private revision = 0;
  private compacted = 0;
  private readonly keys = new SortedKeys();
  private readonly versions = new Map<string, Version[]>();
  private log: KVEvent[] = [];
  private readonly hub = new WatchHub();
  private closed = false;

  private check(): void {
    if (this.closed) throw new KVError('closed', 'the store is closed');
  }

  private readable(revision: number | undefined): number {
    const at = revision && revision > 0 ? revision : this.revision;
    if (at < this.compacted) throw new KVError('compacted', `required revision ${at} has been compacted`, undefined, this.compacted);
    if (at > this.revision) throw new KVError('future-revision', `required revision ${at} is a future revision`);
    return at;
  }

  private versionAt(key: string, at: number): Version | undefined {
    const vs = this.versions.get(key);
    if (!vs) return undefined;
    for (let i = vs.length - 1; i >= 0; i--) {
      const v = vs[i] as Version;
      if (v.revision <= at) return v.value === null ? undefined : v;
    }
    return undefined;
  }

  private entry(key: string, v: Version): KVEntry {
    return { key, value: v.value as string, createRevision: v.createRevision, modRevision: v.revision };
  }

  private live(key: string): KVEntry | undefined {
    const vs = this.versions.get(key);
    const last = vs?.[vs.length - 1];
    return last && last.value !== null ? this.entry(key, last) : undefined;
  }

  async get(key: string, revision?: number): Promise<{ entry: KVEntry | undefined; revision: number }> {
    this.check();
    const at = this.readable(revision);
    const v = this.versionAt(key, at);
    return { entry: v ? this.entry(key, v) : undefined, revision: at };
  }

  async list(prefix: string, opts: KVListOptions = {}): Promise<KVListResult> {
    this.check();
    const at = this.readable(opts.revision);
    const from = opts.start && opts.start > prefix ? opts.start : prefix;
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
    const entries: KVEntry[] = [];
    let remaining = 0;
    for (let i = this.keys.lowerBound(from); ; i++) {
      const key = this.keys.at(i);
      if (key === undefined || !key.startsWith(prefix)) break;
      const v = this.versionAt(key, at);
      if (!v) continue;
      if (entries.length < limit) entries.push(this.entry(key, v));
      else remaining++;
    }
    return { entries, revision: at, remaining };
  }

  private append(key: string, v: Version): void {
    let vs = this.versions.get(key);
    if (!vs) {
      vs = [];
      this.versions.set(key, vs);
      this.keys.insert(key);
    }
    vs.push(v);
  }

  private commit(ev: KVEvent): void {
    this.log.push(ev);
    this.hub.publish([ev]);
  }

  async create(key: string, value: string): Promise<KVEntry> {
    this.check();
    if (this.live(key)) throw new KVError('exists', `key ${key} already exists`);
    const revision = ++this.revision;
    this.append(key, { revision, createRevision: revision, value });
    const entry: KVEntry = { key, value, createRevision: revision, modRevision: revision };
    this.commit({ type: 'put', key, value, createRevision: revision, modRevision: revision });
    return entry;
  }

  async update(key: string, value: string, expectedModRevision: number): Promise<KVEntry> {
    this.check();
    const prev = this.live(key);
    if (!prev) throw new KVError('not-found', `key ${key} not found`);
    if (prev.modRevision !== expectedModRevision) throw new KVError('conflict', `key ${key} has revision ${prev.modRevision}, not ${expectedModRevision}`, prev);
    const revision = ++this.revision;
    this.append(key, { revision, createRevision: prev.createRevision, value });
    this.commit({ type: 'put', key, value, createRevision: prev.createRevision, modRevision: revision, prev });
    return { key, value, createRevision: prev.createRevision, modRevision: revision };
  }

  async delete(key: string, expectedModRevision?: number): Promise<{ revision: number; prev: KVEntry }> {
    this.check();
    const prev = this.live(key);
    if (!prev) throw new KVError('not-found', `key ${key} not found`);
    if (expectedModRevision !== undefined && prev.modRevision !== expectedModRevision) {
      throw new KVError('conflict', `key ${key} has revision ${prev.modRevision}, not ${expectedModRevision}`, prev);
    }
    const revision = ++this.revision;
    this.append(key, { revision, createRevision: prev.createRevision, value: null });
    this.commit({ type: 'delete', key, modRevision: revision, prev });
    return { revision, prev };
  }

  watch(prefix: string, fromRevision: number, signal: AbortSignal, opts: KVWatchOptions = {}): AsyncIterable<KVWatchEvent> {
    return this.hub.subscribe(prefix, signal, () => {
      this.check();
      if (fromRevision < this.compacted) {
        throw new KVError('compacted', `required revision ${fromRevision} has been compacted`, undefined, this.compacted);
      }
      const start = this.firstLogIndexAfter(fromRevision);
      const out: KVEvent[] = [];
      for (let i = start; i < this.log.length; i++) {
        const ev = this.log[i] as KVEvent;
        if (ev.key.startsWith(prefix)) out.push(ev);
      }
      return out;
    }, opts.progress === true);
  }

  private firstLogIndexAfter(revision: number): number {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.log[mid] as KVEvent).modRevision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  requestProgress(): void {
    // Every committed event is already queued for its watchers, so the newest revision is the answer.
    if (!this.closed) this.hub.progress(this.revision);
  }

  async currentRevision(): Promise<number> {
    this.check();
    return this.revision;
  }

  async compactedRevision(): Promise<number> {
    return this.compacted;
  }

  async compact(revision: number): Promise<void> {
    this.check();
    const target = Math.min(revision, this.revision);
    if (target <= this.compacted) return;
    this.compacted = target;
    const gone: string[] = [];
    for (const [key, vs] of this.versions) {
      // Keep the newest version at or before the target and everything after it.
      let keepFrom = 0;
      for (let i = vs.length - 1; i >= 0; i--) {
        if ((vs[i] as Version).revision <= target) {
          keepFrom = i;
          break;
        }
      }
      const head = vs[keepFrom];
      const dropHead = head !== undefined && head.revision <= target && head.value === null;
      // Most keys have nothing to drop: leave their arrays alone rather than copy every one of them.
      if (keepFrom === 0 && !dropHead) continue;
      const kept = vs.slice(dropHead ? keepFrom + 1 : keepFrom);
      if (kept.length === 0) {
        this.versions.delete(key);
        gone.push(key);
      } else {
        this.versions.set(key, kept);
      }
    }
    if (gone.length) {
      const goneSet = new Set(gone);
      this.keys.retain((k) => !goneSet.has(k));
    }
    this.log = this.log.slice(this.firstLogIndexAfter(target));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.hub.close();
  }
}
