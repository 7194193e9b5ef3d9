/**
 * Listers over the watch cache (DESIGN §3a): one per kind, made on first use and shared. A lister
 * reads the cache's current state directly (so it is exactly as fresh as the cache), parses each
 * stored object once per change and freezes it, keeps its indexes up to date from the cache's
 * change notifications, and tells its own listeners ADDED, MODIFIED and DELETED.
 */
import type { IndexFunction, Lister, ListerEvent, ListerSource } from '../machinery/lister.js';
import type { Logger } from '../machinery/logger.js';
import type { CacheChange, CacheEntry, WatchCache } from '../storage/cacher/cache.js';
import type { GenericStore } from './generic-store.js';

export interface ListerOptions<T> {
  /** Indexes to keep, by name; a kind's lister may be asked for more indexes by later readers. */
  indexes?: Readonly<Record<string, IndexFunction<T>>>;
}

/** The listers of every stored kind, by `group/resource` of its storage version. */
export class ResourceListers implements ListerSource {
  private readonly made = new Map<string, CacheLister<unknown>>();

  constructor(
    private readonly cache: WatchCache,
    private readonly stores: ReadonlyMap<string, GenericStore>,
    private readonly log: Logger,
  ) {}

  /**
   * The lister of `group/resource`. It may be asked for before the stores exist (admission plugins
   * are made before the stores that run them): it finds its store on first use, and throws then for
   * a resource that is not stored.
   */
  for<T>(group: string, resource: string, opts: ListerOptions<T> = {}): Lister<T> {
    const key = `${group}/${resource}`;
    let lister = this.made.get(key) as CacheLister<T> | undefined;
    if (!lister) {
      lister = new CacheLister<T>(this.cache, () => {
        const store = this.stores.get(key);
        if (!store) throw new Error(`no stored resource ${resource} in group ${JSON.stringify(group)}`);
        return store;
      }, this.log);
      this.made.set(key, lister as CacheLister<unknown>);
    }
    for (const [name, fn] of Object.entries(opts.indexes ?? {})) lister.addIndex(name, fn);
    return lister;
  }
}

interface Index<T> {
  fn: IndexFunction<T>;
  /** Index value → keys of the objects filed under it. */
  keys: Map<string, Set<string>>;
}

class CacheLister<T> implements Lister<T> {
  private readonly parsed = new WeakMap<CacheEntry, T>();
  private readonly indexes = new Map<string, Index<T>>();
  private readonly listeners = new Set<(event: ListerEvent<T>) => void>();
  private bound: GenericStore | undefined;

  constructor(
    private readonly cache: WatchCache,
    private readonly findStore: () => GenericStore,
    private readonly log: Logger,
  ) {}

  /** The store, found and followed on first use. */
  private get store(): GenericStore {
    if (this.bound) return this.bound;
    const store = this.findStore();
    this.cache.onChange(store.prefix, (change) => {
      try {
        this.changed(change);
      } catch (e) {
        // The cache applies the store's events in this call; nothing of ours may stop it.
        this.log.error('a lister failed to follow a change', { resource: store.prefix, error: e instanceof Error ? e.message : String(e) });
      }
    });
    this.bound = store;
    for (const index of this.indexes.values()) this.refile(index);
    return store;
  }

  get(namespace: string, name: string): T | undefined {
    const { entry } = this.cache.get(this.store.prefix, this.store.keyFor(namespace, name));
    return entry && this.objectOf(entry);
  }

  list(namespace = ''): readonly T[] {
    return this.entries(this.store.scopePrefix(namespace)).map((e) => this.objectOf(e));
  }

  byIndex(index: string, value: string): readonly T[] {
    const { prefix } = this.store;
    const keys = this.index(index).keys.get(value);
    if (!keys) return [];
    const out: T[] = [];
    for (const key of [...keys].sort()) {
      const { entry } = this.cache.get(prefix, key);
      if (entry) out.push(this.objectOf(entry));
    }
    return out;
  }

  onChange(fn: (event: ListerEvent<T>) => void): () => void {
    void this.store;
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  synced(signal?: AbortSignal): Promise<void> {
    return this.cache.syncWithStore(signal);
  }

  addIndex(name: string, fn: IndexFunction<T>): void {
    const existing = this.indexes.get(name);
    if (existing) {
      if (existing.fn !== fn) throw new Error(`index ${name} of ${this.store.prefix} is already defined differently`);
      return;
    }
    const index: Index<T> = { fn, keys: new Map() };
    if (this.bound) this.refile(index);
    this.indexes.set(name, index);
  }

  private index(name: string): Index<T> {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`no index ${name} on the lister of ${this.store.prefix}`);
    return index;
  }

  private refile(index: Index<T>): void {
    index.keys.clear();
    for (const entry of this.entries(this.store.prefix)) this.file(index, entry);
  }

  private entries(prefix: string): CacheEntry[] {
    return this.cache.list(this.store.prefix, prefix, undefined).entries;
  }

  /** The entry's object, parsed once and frozen, since every reader shares it. */
  private objectOf(entry: CacheEntry): T {
    let obj = this.parsed.get(entry);
    if (obj === undefined) {
      obj = deepFreeze(entry.object.parse<T>());
      this.parsed.set(entry, obj);
    }
    return obj;
  }

  private file(index: Index<T>, entry: CacheEntry): void {
    for (const value of index.fn(this.objectOf(entry))) {
      let keys = index.keys.get(value);
      if (!keys) index.keys.set(value, (keys = new Set()));
      keys.add(entry.key);
    }
  }

  private unfile(index: Index<T>, entry: CacheEntry): void {
    for (const value of index.fn(this.objectOf(entry))) {
      const keys = index.keys.get(value);
      keys?.delete(entry.key);
      if (keys?.size === 0) index.keys.delete(value);
    }
  }

  private changed(change: CacheChange): void {
    const events: ListerEvent<T>[] = [];
    if (change.type === 'reset') {
      for (const index of this.indexes.values()) this.refile(index);
      if (this.listeners.size) events.push(...this.differences(change.previous));
    } else if (change.type === 'put') {
      for (const index of this.indexes.values()) {
        if (change.prev) this.unfile(index, change.prev);
        this.file(index, change.entry);
      }
      if (this.listeners.size) {
        events.push(change.prev
          ? { type: 'MODIFIED', object: this.objectOf(change.entry), oldObject: this.objectOf(change.prev) }
          : { type: 'ADDED', object: this.objectOf(change.entry) });
      }
    } else {
      for (const index of this.indexes.values()) this.unfile(index, change.entry);
      if (this.listeners.size) events.push({ type: 'DELETED', object: this.objectOf(change.entry) });
    }
    for (const event of events) this.tell(event);
  }

  /** After a reload: what appeared, changed or vanished compared to what was held before. */
  private differences(previous: ReadonlyMap<string, CacheEntry>): ListerEvent<T>[] {
    const events: ListerEvent<T>[] = [];
    const now = this.entries(this.store.prefix);
    const present = new Set<string>();
    for (const entry of now) {
      present.add(entry.key);
      const before = previous.get(entry.key);
      if (!before) events.push({ type: 'ADDED', object: this.objectOf(entry) });
      else if (before.revision !== entry.revision) events.push({ type: 'MODIFIED', object: this.objectOf(entry), oldObject: this.objectOf(before) });
    }
    for (const [key, before] of previous) if (!present.has(key)) events.push({ type: 'DELETED', object: this.objectOf(before) });
    return events;
  }

  private tell(event: ListerEvent<T>): void {
    for (const fn of this.listeners) {
      try {
        fn(event);
      } catch (e) {
        // A reader's bug must not stop the cache from applying the store's events.
        this.log.error('a lister listener failed', { resource: this.store.prefix, error: e instanceof Error ? e.message : String(e) });
      }
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
