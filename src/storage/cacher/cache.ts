/**
 * The watch cache: the current state of every resource plus a window of recent events, fed by a
 * single watch on the whole store. It serves watches (one in-process fan-out per event), reads at
 * "any" or "not older than" versions, and consistent reads once it has caught up with the store's
 * current revision. Reads at an exact past revision and continue pages go to the store itself.
 */
import { BoundedWatchQueue, type WatchBounds } from './bounded-watch-queue.js';
import { isKVError, type KVEvent, type KVWatchEvent, type RevisionedKV } from '../kv.js';
import { SortedKeys } from '../sorted-keys.js';
import { EncodedObject, type WatchItem } from '../../machinery/encoded-object.js';

export interface CacheEntry {
  key: string;
  revision: number;
  object: EncodedObject;
  labels: Readonly<Record<string, string>> | undefined;
  /** Field-selector attributes: metadata.name, metadata.namespace and the kind's own. */
  fields: Readonly<Record<string, string>>;
}

/** Turns a stored value into a cache entry; supplied per resource by the registry. */
export type EntryMaker = (key: string, value: string, revision: number) => CacheEntry;

export type EntryFilter = (e: CacheEntry) => boolean;

/**
 * A change to one resource, told synchronously as the cache applies it (listers keep their indexes
 * by it). `reset` follows a full reload of the store (the start, and recovery after compaction):
 * `previous` is what the cache held before.
 */
export type CacheChange =
  | { type: 'put'; entry: CacheEntry; prev: CacheEntry | undefined }
  | { type: 'delete'; entry: CacheEntry }
  | { type: 'reset'; previous: ReadonlyMap<string, CacheEntry> };

export type CacheChangeListener = (change: CacheChange) => void;

interface CacheEvent {
  type: 'put' | 'delete';
  key: string;
  revision: number;
  resource: ResourceState;
  /** The new state; for a delete, the last state with the deletion revision. */
  entry: CacheEntry;
  prev: CacheEntry | undefined;
  memo: Map<string, unknown>;
}

interface ResourceState {
  prefix: string;
  make: EntryMaker;
  labels: ResourceLabels | undefined;
  entries: Map<string, CacheEntry>;
  keys: SortedKeys;
  watchers: Set<Watcher>;
  changeListeners: Set<CacheChangeListener>;
  /** Watchers closed because they fell too far behind, since start. */
  terminated: number;
  /** Revision the resource was registered at while the cache ran: the window holds nothing of it before. */
  since: number;
  /** Keys changed by events while a live registration loads; its list must not overwrite them. */
  touched: Set<string> | undefined;
}

/** What a resource is called in metrics. */
export interface ResourceLabels {
  group: string;
  version: string;
  kind: string;
  resource: string;
}

interface Watcher {
  prefix: string;
  filter: EntryFilter;
  /** Its initial events or replay of the window first, then live events within the bounds. */
  events: BoundedWatchQueue;
  bookmarks: boolean;
  /** Events at or before this revision are not delivered (a watch that starts in the future). */
  minRevision: number;
}

/** Counts of the watchers of one resource, for metrics and tests. */
export interface WatcherStats {
  prefix: string;
  labels: ResourceLabels | undefined;
  watchers: number;
  /** Live events queued for those watchers, and the length of their objects' text (shared objects count once per watcher). */
  queuedEvents: number;
  queuedBytes: number;
  /** Watchers closed because they fell too far behind, since start. */
  terminated: number;
}

export interface CacheOptions {
  /** Events kept for watch resumption from memory; older starts fall back to the store. */
  windowSize?: number;
  /** How long a read waits for a newer revision before answering "too large resource version". */
  freshnessTimeoutMs?: number;
  /** Interval of BOOKMARK events to watchers that asked for them. */
  bookmarkIntervalMs?: number;
  /**
   * Live events a watcher may have queued (taken by neither its client nor its socket) before it is
   * closed as too slow; its client then watches again from its last resourceVersion, or lists.
   */
  maxQueuedPerWatcher?: number;
  /** The same bound on the length of those events' object text. */
  maxQueuedBytesPerWatcher?: number;
}

export class TooLargeResourceVersionError extends Error {
  constructor(readonly requested: number, readonly current: number) {
    super(`Too large resource version: ${requested}, current: ${current}`);
  }
}

export class WatchTooOldError extends Error {
  constructor(readonly requested: number, readonly oldest: number) {
    super(`too old resource version: ${requested} (${oldest})`);
  }
}

export interface CacheList {
  entries: CacheEntry[];
  revision: number;
  /** Matching entries after the returned ones. */
  remaining: number;
}

export class WatchCache {
  private revision = 0;
  private readonly resources: ResourceState[] = [];
  private readonly window: (CacheEvent | undefined)[];
  private windowHead = 0;
  private windowCount = 0;
  /** Every event after this revision is in the window. */
  private windowStart = 0;
  private readonly waiters: { revision: number; resolve: () => void }[] = [];
  private readonly abort = new AbortController();
  private bookmarkTimer: NodeJS.Timeout | undefined;
  private readonly opts: Required<CacheOptions>;
  private readyPromise: Promise<void> | undefined;
  private failure: unknown;

  constructor(private readonly kv: RevisionedKV, opts: CacheOptions = {}) {
    this.opts = {
      windowSize: opts.windowSize ?? 50_000,
      freshnessTimeoutMs: opts.freshnessTimeoutMs ?? 3_000,
      bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
      maxQueuedPerWatcher: opts.maxQueuedPerWatcher ?? 10_000,
      maxQueuedBytesPerWatcher: opts.maxQueuedBytesPerWatcher ?? 64 * 1024 * 1024,
    };
    this.window = new Array(this.opts.windowSize);
  }

  /** Registers a resource's key prefix; must happen before start(). */
  register(prefix: string, make: EntryMaker, labels?: ResourceLabels): void {
    this.addState(prefix, make, labels, 0);
  }

  private addState(prefix: string, make: EntryMaker, labels: ResourceLabels | undefined, since: number): ResourceState {
    if (this.resources.some((r) => r.prefix === prefix)) throw new Error(`the resource at ${prefix} is cached already`);
    const state: ResourceState = { prefix, make, labels, entries: new Map(), keys: new SortedKeys(), watchers: new Set(), terminated: 0, changeListeners: new Set(), since, touched: undefined };
    this.resources.push(state);
    // Longest prefix first, so that nested prefixes resolve to the most specific resource.
    this.resources.sort((a, b) => b.prefix.length - a.prefix.length);
    return state;
  }

  /**
   * Registers a resource while the cache runs (a custom resource): events from now on are applied
   * to it at once, and what the store held under its prefix at the cache's revision is loaded
   * beneath them. Resolves once its state is complete; rejects (registering nothing) when the store
   * cannot be read. Watches from before this point are served by the store (WatchTooOldError).
   */
  async registerLive(prefix: string, make: EntryMaker, labels?: ResourceLabels): Promise<void> {
    if (!this.readyPromise) return this.register(prefix, make, labels);
    await this.readyPromise;
    const at = this.revision;
    const state = this.addState(prefix, make, labels, at);
    state.touched = new Set();
    try {
      const snapshot = await this.kv.list(prefix, { revision: at });
      for (const e of snapshot.entries) {
        if (state.touched.has(e.key)) continue;
        state.entries.set(e.key, make(e.key, e.value, e.modRevision));
        state.keys.insert(e.key);
      }
    } catch (e) {
      this.unregister(prefix);
      throw e;
    } finally {
      state.touched = undefined;
    }
  }

  /** Forgets a resource (no longer served): its watchers end, its state is dropped. */
  unregister(prefix: string): void {
    const i = this.resources.findIndex((r) => r.prefix === prefix);
    if (i < 0) return;
    const [state] = this.resources.splice(i, 1) as [ResourceState];
    for (const w of [...state.watchers]) w.events.queue.end();
  }

  /** Whether a resource is cached at exactly this prefix. */
  has(prefix: string): boolean {
    return this.resources.some((r) => r.prefix === prefix);
  }

  get currentRevision(): number {
    return this.revision;
  }

  /** Loads the current state and follows the store from there. */
  start(rootPrefix: string): Promise<void> {
    this.readyPromise ??= this.load(rootPrefix);
    return this.readyPromise;
  }

  private async load(rootPrefix: string): Promise<void> {
    await this.resync(rootPrefix);
    this.bookmarkTimer = setInterval(() => this.sendBookmarks(), this.opts.bookmarkIntervalMs);
    this.bookmarkTimer.unref();
  }

  /** Replaces the state with a fresh list of the store and follows the store from its revision. */
  private async resync(rootPrefix: string): Promise<void> {
    const snapshot = await this.kv.list(rootPrefix);
    const previous = new Map<ResourceState, Map<string, CacheEntry>>();
    for (const res of this.resources) {
      if (res.changeListeners.size) previous.set(res, new Map(res.entries));
      res.entries.clear();
      res.keys.retain(() => false);
    }
    for (const e of snapshot.entries) {
      const res = this.resourceOf(e.key);
      if (!res) continue;
      const entry = res.make(e.key, e.value, e.modRevision);
      res.entries.set(e.key, entry);
      res.keys.insert(e.key);
    }
    this.window.fill(undefined);
    this.windowHead = 0;
    this.windowCount = 0;
    this.revision = snapshot.revision;
    this.windowStart = snapshot.revision;
    for (const [res, entries] of previous) this.tell(res, { type: 'reset', previous: entries });
    const events = this.kv.watch(rootPrefix, snapshot.revision, this.abort.signal, { progress: true });
    void this.follow(rootPrefix, events);
    this.wakeWaiters();
  }

  private async follow(rootPrefix: string, events: AsyncIterable<KVWatchEvent>): Promise<void> {
    let lost: unknown;
    try {
      for await (const ev of events) {
        if (ev.type === 'progress') this.advance(ev.revision);
        else this.apply(ev);
      }
    } catch (e) {
      lost = e;
    }
    for (const res of this.resources) for (const w of res.watchers) w.events.queue.end();
    if (isKVError(lost, 'compacted')) void this.recover(rootPrefix);
    else if (lost !== undefined && !isKVError(lost, 'closed')) this.failure = lost;
  }

  /**
   * The store compacted history the watch had not delivered (a follower cut off from a shared store
   * for longer than its history window): read the state afresh, as a reflector re-lists. Watchers
   * were ended; they resume from their last revision, or get 410 Gone and list again.
   */
  private async recover(rootPrefix: string): Promise<void> {
    for (let delay = 100; !this.abort.signal.aborted; delay = Math.min(delay * 2, 5_000)) {
      try {
        await this.resync(rootPrefix);
        return;
      } catch (e) {
        if (isKVError(e, 'closed')) return;
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  private resourceOf(key: string): ResourceState | undefined {
    for (const r of this.resources) if (key.startsWith(r.prefix)) return r;
    return undefined;
  }

  private apply(ev: KVEvent): void {
    const res = this.resourceOf(ev.key);
    if (res) {
      res.touched?.add(ev.key);
      const prev = res.entries.get(ev.key);
      let event: CacheEvent;
      if (ev.type === 'put') {
        const entry = res.make(ev.key, ev.value, ev.modRevision);
        if (!prev) res.keys.insert(ev.key);
        res.entries.set(ev.key, entry);
        event = { type: 'put', key: ev.key, revision: ev.modRevision, resource: res, entry, prev, memo: new Map() };
      } else {
        const entry = res.make(ev.key, ev.prev.value, ev.modRevision);
        res.entries.delete(ev.key);
        res.keys.remove(ev.key);
        event = { type: 'delete', key: ev.key, revision: ev.modRevision, resource: res, entry, prev: prev ?? entry, memo: new Map() };
      }
      this.remember(event);
      if (res.changeListeners.size) this.tell(res, event.type === 'put' ? { type: 'put', entry: event.entry, prev } : { type: 'delete', entry: event.entry });
      for (const w of res.watchers) this.deliver(w, event);
    }
    if (ev.modRevision > this.revision) this.revision = ev.modRevision;
    this.wakeWaiters();
  }

  /**
   * The store reports that nothing under the watched prefix changed up to `revision`: the state
   * held is the state at that revision (its revisions also advance with writes elsewhere).
   */
  private advance(revision: number): void {
    if (revision <= this.revision) return;
    this.revision = revision;
    this.wakeWaiters();
  }

  private remember(event: CacheEvent): void {
    const size = this.opts.windowSize;
    if (this.windowCount === size) {
      const evicted = this.window[this.windowHead] as CacheEvent;
      this.windowStart = evicted.revision;
      this.window[this.windowHead] = event;
      this.windowHead = (this.windowHead + 1) % size;
    } else {
      this.window[(this.windowHead + this.windowCount) % size] = event;
      this.windowCount++;
    }
  }

  private wakeWaiters(): void {
    if (this.waiters.length === 0) return;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i] as { revision: number; resolve: () => void };
      if (w.revision <= this.revision) {
        this.waiters.splice(i, 1);
        w.resolve();
      }
    }
  }

  /**
   * Resolves once the cache has seen `revision`. Rejects with TooLargeResourceVersionError after the
   * freshness timeout, and with the signal's reason when the request goes away.
   */
  async waitFresh(revision: number, signal?: AbortSignal): Promise<void> {
    if (this.failure) throw this.failure;
    if (revision <= this.revision) return;
    await new Promise<void>((resolve, reject) => {
      const waiter = { revision, resolve: () => done(resolve) };
      const timer = setTimeout(() => done(() => reject(new TooLargeResourceVersionError(revision, this.revision))), this.opts.freshnessTimeoutMs);
      const onAbort = (): void => done(() => reject(signal?.reason ?? new Error('aborted')));
      const done = (f: () => void): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        f();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      // Without this, a revision made by a write outside the watched prefix would never arrive.
      this.kv.requestProgress(revision);
    });
  }

  /** Waits until the cache holds everything the store has committed: a consistent read. */
  async syncWithStore(signal?: AbortSignal): Promise<void> {
    await this.waitFresh(await this.kv.currentRevision(), signal);
  }

  private state(resourcePrefix: string): ResourceState {
    const res = this.resources.find((r) => r.prefix === resourcePrefix);
    if (!res) throw new Error(`no cached resource at ${resourcePrefix}`);
    return res;
  }

  /**
   * Calls `listener` synchronously with every change to the resource at `resourcePrefix`, from now
   * on; returns the function that stops it. Listeners must be quick and must not throw.
   */
  onChange(resourcePrefix: string, listener: CacheChangeListener): () => void {
    const res = this.state(resourcePrefix);
    res.changeListeners.add(listener);
    return () => res.changeListeners.delete(listener);
  }

  private tell(res: ResourceState, change: CacheChange): void {
    for (const listener of res.changeListeners) listener(change);
  }

  get(resourcePrefix: string, key: string): { entry: CacheEntry | undefined; revision: number } {
    return { entry: this.state(resourcePrefix).entries.get(key), revision: this.revision };
  }

  /** Entries under `prefix` in key order, starting at `start`, at most `limit`. */
  list(resourcePrefix: string, prefix: string, filter: EntryFilter | undefined, start?: string, limit?: number): CacheList {
    const res = this.state(resourcePrefix);
    const from = start && start > prefix ? start : prefix;
    const max = limit && limit > 0 ? limit : Infinity;
    const entries: CacheEntry[] = [];
    let remaining = 0;
    for (let i = res.keys.lowerBound(from); ; i++) {
      const key = res.keys.at(i);
      if (key === undefined || !key.startsWith(prefix)) break;
      const entry = res.entries.get(key) as CacheEntry;
      if (filter && !filter(entry)) continue;
      if (entries.length < max) entries.push(entry);
      else remaining++;
    }
    return { entries, revision: this.revision, remaining };
  }

  /**
   * Starts a watch under `prefix`. With `initial`, begins with ADDED for every matching entry at the
   * current revision; otherwise replays the window after `fromRevision`. Throws WatchTooOldError
   * when the window no longer covers `fromRevision` (the caller may fall back to the store).
   */
  watch(
    resourcePrefix: string,
    prefix: string,
    opts: { fromRevision?: number; initial: boolean; filter: EntryFilter; bookmarks: boolean; signal: AbortSignal; initialEventsEndBookmark?: (revision: number) => WatchItem },
  ): AsyncIterable<WatchItem> {
    const res = this.state(resourcePrefix);
    const windowStart = Math.max(this.windowStart, res.since);
    if (!opts.initial && opts.fromRevision !== undefined && opts.fromRevision < windowStart) {
      throw new WatchTooOldError(opts.fromRevision, windowStart + 1);
    }
    const watcher: Watcher = {
      prefix,
      filter: opts.filter,
      bookmarks: opts.bookmarks,
      minRevision: opts.initial ? 0 : (opts.fromRevision ?? 0),
      events: new BoundedWatchQueue(this.watcherBounds, () => {
        res.watchers.delete(watcher);
        opts.signal.removeEventListener('abort', onAbort);
      }),
    };
    const queue = watcher.events.queue;
    const onAbort = (): void => queue.end();
    if (opts.signal.aborted) {
      queue.end();
      return queue;
    }
    opts.signal.addEventListener('abort', onAbort, { once: true });
    if (opts.initial) {
      for (const entry of this.list(resourcePrefix, prefix, opts.filter).entries) {
        watcher.events.pushStart({ type: 'ADDED', object: entry.object, revision: entry.revision });
      }
      if (opts.initialEventsEndBookmark) watcher.events.pushStart(opts.initialEventsEndBookmark(this.revision));
    } else if (opts.fromRevision !== undefined) {
      for (let i = 0; i < this.windowCount; i++) {
        const ev = this.window[(this.windowHead + i) % this.opts.windowSize] as CacheEvent;
        if (ev.revision <= opts.fromRevision || ev.resource !== res) continue;
        const item = this.itemFor(watcher, ev);
        if (item) watcher.events.pushStart(item);
      }
    }
    res.watchers.add(watcher);
    return queue;
  }

  /** How far a watcher may fall behind before it is closed; watches read from the store use the same. */
  get watcherBounds(): WatchBounds {
    return { maxEvents: this.opts.maxQueuedPerWatcher, maxBytes: this.opts.maxQueuedBytesPerWatcher };
  }

  /** Queues a live event for a watcher; one that fell too far behind is closed instead (bounded-watch-queue.ts). */
  private deliver(w: Watcher, ev: CacheEvent): void {
    const item = this.itemFor(w, ev);
    if (item) this.enqueue(w, ev.resource, item);
  }

  private enqueue(w: Watcher, res: ResourceState, item: WatchItem): void {
    // Closing the queue unregisters the watcher.
    if (!w.events.push(item)) res.terminated++;
  }

  /** Watchers and what is queued for them, per resource. */
  watcherStats(): WatcherStats[] {
    return this.resources.map((res) => {
      let queuedEvents = 0;
      let queuedBytes = 0;
      for (const w of res.watchers) {
        queuedEvents += w.events.backlog;
        queuedBytes += w.events.backlogBytes;
      }
      return { prefix: res.prefix, labels: res.labels, watchers: res.watchers.size, queuedEvents, queuedBytes, terminated: res.terminated };
    });
  }

  /** The event as this watcher sees it (by its prefix, selectors and start), or nothing. */
  private itemFor(w: Watcher, ev: CacheEvent): WatchItem | undefined {
    if (ev.revision <= w.minRevision || !ev.key.startsWith(w.prefix)) return undefined;
    const now = ev.type === 'put' && w.filter(ev.entry);
    const before = ev.prev !== undefined && w.filter(ev.prev);
    let item: WatchItem | undefined;
    if (ev.type === 'delete') {
      if (before) item = { type: 'DELETED', object: ev.entry.object, revision: ev.revision, memo: ev.memo };
    } else if (now && before) {
      item = { type: 'MODIFIED', object: ev.entry.object, revision: ev.revision, memo: ev.memo };
    } else if (now) {
      item = { type: 'ADDED', object: ev.entry.object, revision: ev.revision, memo: ev.memo };
    } else if (before && ev.prev) {
      // The object left the selection: a DELETED event with its last matching state at this revision.
      item = { type: 'DELETED', object: withRevision(ev.prev.object, ev.revision), revision: ev.revision };
    }
    return item;
  }

  private sendBookmarks(): void {
    for (const res of this.resources) {
      for (const w of [...res.watchers]) {
        // A watch that starts at a future version must not be told of an older one.
        if (w.bookmarks && w.events.queue.size === 0 && this.revision >= w.minRevision) this.enqueue(w, res, bookmarkItem(this.revision));
      }
    }
  }

  /**
   * Forgets events at or before `revision`, which the store has compacted away, so that watches
   * from there get 410 Gone exactly as reads of the store do.
   */
  compacted(revision: number): void {
    while (this.windowCount > 0) {
      const head = this.window[this.windowHead] as CacheEvent;
      if (head.revision > revision) break;
      this.window[this.windowHead] = undefined;
      this.windowHead = (this.windowHead + 1) % this.opts.windowSize;
      this.windowCount--;
    }
    if (revision > this.windowStart) this.windowStart = Math.min(revision, this.revision);
  }

  close(): void {
    this.abort.abort();
    if (this.bookmarkTimer) clearInterval(this.bookmarkTimer);
    for (const res of this.resources) for (const w of res.watchers) w.events.queue.end();
  }
}

/** A bookmark carries only the revision; endpoints give it the watched kind. */
export function bookmarkItem(revision: number): WatchItem {
  return { type: 'BOOKMARK', object: new EncodedObject(''), revision };
}

/** A copy of the object with another resourceVersion. */
export function withRevision(obj: EncodedObject, revision: number): EncodedObject {
  const o = obj.parse<{ metadata?: { resourceVersion?: string } }>();
  o.metadata = { ...(o.metadata ?? {}), resourceVersion: String(revision) };
  return EncodedObject.of(o);
}
