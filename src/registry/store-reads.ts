/**
 * The read side of the generic store: get, list and watch with every resourceVersion semantic,
 * served from the watch cache when it can and from the store at a past revision when it must.
 */
import { errors, StatusError } from '../machinery/errors.js';
import type { FieldSelector } from '../machinery/field-selector.js';
import type { GroupResource } from '../machinery/gvk.js';
import type { LabelSelector } from '../machinery/labels.js';
import type { KubeObject } from '../schema/index.js';
import { TooLargeResourceVersionError, WatchTooOldError, withRevision, type CacheEntry, type EntryFilter, type WatchCache } from '../storage/cacher/cache.js';
import { EncodedObject, type WatchItem } from '../machinery/encoded-object.js';
import { isKVError, KVError, type KVEvent, type RevisionedKV } from '../storage/kv.js';
import { BoundedWatchQueue } from '../storage/cacher/bounded-watch-queue.js';
import { decodeContinue, encodeContinue } from './continue-token.js';
import type { ResourceDefinition } from './define-resource.js';
import { getSemantics, listSemantics, type ListParams, type ReadSemantics, type WatchParams, watchSemantics } from './list-options.js';

export interface Selection {
  labels?: LabelSelector;
  fields?: FieldSelector;
}

export interface ListRequest extends ListParams, Selection {
  /** '' lists across all namespaces (or a cluster-scoped resource). */
  namespace: string;
  signal: AbortSignal;
}

export interface ListResult {
  items: CacheEntry[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface WatchRequest extends WatchParams, Selection {
  namespace: string;
  signal: AbortSignal;
}

const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export class StoreReads {
  constructor(
    protected readonly definition: ResourceDefinition,
    protected readonly kv: RevisionedKV,
    protected readonly cache: WatchCache,
    /** The resource's key prefix, ending in '/'. */
    readonly prefix: string,
    /** `meta.orch.io`: the group ListOptions belong to, named in their validation errors. */
    protected readonly metaGroup: string,
  ) {}

  protected get gr(): GroupResource {
    return { group: this.definition.group, resource: this.definition.resource };
  }

  keyFor(namespace: string, name: string): string {
    return this.definition.namespaced ? `${this.prefix}${namespace}/${name}` : `${this.prefix}${name}`;
  }

  /** The key prefix of a namespace's objects, or of all objects. */
  scopePrefix(namespace: string): string {
    return this.definition.namespaced && namespace ? `${this.prefix}${namespace}/` : this.prefix;
  }

  /** Builds a cache entry from a stored value: the object with its resourceVersion, and its selector attributes. */
  readonly makeEntry = (key: string, value: string, revision: number): CacheEntry => {
    const obj = JSON.parse(value) as KubeObject;
    obj.metadata.resourceVersion = String(revision);
    const fields: Record<string, string> = {
      'metadata.name': obj.metadata.name ?? '',
      'metadata.namespace': obj.metadata.namespace ?? '',
      ...(this.definition.strategy.selectableFields?.(obj) ?? {}),
    };
    return { key, revision, object: EncodedObject.of(obj), labels: obj.metadata.labels, fields };
  };

  /** Maps storage failures to Statuses; a StatusError passes through. */
  protected storageError(e: unknown, name: string): StatusError {
    if (e instanceof StatusError) return e;
    if (e instanceof TooLargeResourceVersionError) return errors.tooLargeResourceVersion(e.requested, e.current, 1);
    if (isKVError(e, 'compacted')) return errors.expired('The resourceVersion for the provided list is too old.');
    if (isKVError(e, 'not-found')) return errors.notFound(this.gr, name);
    if (isKVError(e, 'exists')) return errors.alreadyExists(this.gr, name);
    if (isKVError(e, 'conflict')) return errors.modified(this.gr, name);
    if (isKVError(e, 'closed') || isKVError(e, 'unavailable')) return errors.serviceUnavailable(`storage is unavailable: ${e.message}`);
    if (isKVError(e, 'future-revision')) return errors.tooLargeResourceVersion(0, 0, 1);
    if (isKVError(e, 'too-large')) return new StatusError(413, 'RequestEntityTooLarge', e.message);
    throw e;
  }

  filterOf(sel: Selection): EntryFilter | undefined {
    const labels = sel.labels && !sel.labels.empty ? sel.labels : undefined;
    const fields = sel.fields && !sel.fields.empty ? sel.fields : undefined;
    if (!labels && !fields) return undefined;
    return (e) => (!labels || labels.matches(e.labels)) && (!fields || fields.matches(e.fields));
  }

  /** Waits for the cache as a read's semantics require. */
  private async ready(sem: ReadSemantics, signal: AbortSignal): Promise<void> {
    try {
      if (sem.kind === 'most-recent') await this.cache.syncWithStore(signal);
      else if (sem.kind === 'not-older-than') await this.cache.waitFresh(sem.revision, signal);
    } catch (e) {
      if (signal.aborted) throw errors.timeout('the request ended while waiting for the requested resource version');
      throw this.storageError(e, '');
    }
  }

  async get(namespace: string, name: string, resourceVersion: string | undefined, signal: AbortSignal): Promise<CacheEntry> {
    const sem = getSemantics(resourceVersion);
    await this.ready(sem, signal);
    const { entry } = this.cache.get(this.prefix, this.keyFor(namespace, name));
    if (!entry) throw errors.notFound(this.gr, name);
    return entry;
  }

  async list(req: ListRequest): Promise<ListResult> {
    const sem = listSemantics(req, this.metaGroup);
    const filter = this.filterOf(req);
    const limit = req.limit && req.limit > 0 ? req.limit : undefined;
    const prefix = this.scopePrefix(req.namespace);
    if (sem.kind === 'continue') return this.listFromStore(prefix, filter, limit, decodeContinue(sem.token), req.signal);
    if (sem.kind === 'exact') {
      // Wait for a version the cache has not seen yet; then serve it from the cache only if it is
      // still the cache's version right now (no await between this check and the read).
      try {
        await this.cache.waitFresh(sem.revision, req.signal);
      } catch (e) {
        if (req.signal.aborted) throw errors.timeout('the request ended while waiting for the requested resource version');
        throw this.storageError(e, '');
      }
      if (sem.revision !== this.cache.currentRevision) return this.listFromStore(prefix, filter, limit, { revision: sem.revision, start: '' }, req.signal);
    } else {
      await this.ready(sem, req.signal);
    }
    const page = this.cache.list(this.prefix, prefix, filter, undefined, limit);
    return this.page(page.entries, page.revision, page.remaining, !!filter, limit);
  }

  private page(items: CacheEntry[], revision: number, remaining: number, filtered: boolean, limit: number | undefined): ListResult {
    const result: ListResult = { items, resourceVersion: String(revision) };
    const last = items[items.length - 1];
    if (limit && remaining > 0 && last) {
      result.continue = encodeContinue(revision, `${last.key.slice(this.prefix.length)}\u0000`);
      if (!filtered) result.remainingItemCount = remaining;
    }
    return result;
  }

  /** A page at a past revision, read from the store; selectors may need several reads to fill it. */
  private async listFromStore(
    prefix: string,
    filter: EntryFilter | undefined,
    limit: number | undefined,
    pos: { revision: number; start: string },
    signal: AbortSignal,
  ): Promise<ListResult> {
    const revision = pos.revision < 0 ? 0 : pos.revision;
    let start = pos.start ? this.prefix + pos.start : prefix;
    const items: CacheEntry[] = [];
    let remaining = 0;
    let readAt = revision;
    for (;;) {
      if (signal.aborted) throw errors.timeout('the list request was cancelled');
      let result;
      try {
        result = await this.kv.list(prefix, { revision: readAt, start, limit: limit ? limit - items.length : 0 });
      } catch (e) {
        if (isKVError(e, 'compacted') && pos.start) {
          const err = errors.expired(CONTINUE_EXPIRED);
          err.status.metadata = { continue: encodeContinue(-1, pos.start) };
          throw err;
        }
        throw this.storageError(e, '');
      }
      readAt = result.revision;
      for (const e of result.entries) {
        const entry = this.makeEntry(e.key, e.value, e.modRevision);
        if (!filter || filter(entry)) items.push(entry);
      }
      remaining = result.remaining;
      const last = result.entries[result.entries.length - 1];
      if (!limit || items.length >= limit || remaining === 0 || !last) break;
      start = `${last.key}\u0000`;
    }
    return this.page(items, readAt, remaining, !!filter, limit);
  }

  /**
   * Opens a watch. Errors before the first event (bad parameters) throw; a start older than the
   * kept history yields one ERROR event with a 410 Status, as Kubernetes streams it.
   */
  async watch(req: WatchRequest, bookmark: (revision: number, initialEventsEnd: boolean) => EncodedObject): Promise<AsyncIterable<WatchItem>> {
    const plan = watchSemantics(req, this.metaGroup);
    const filter = this.filterOf(req) ?? (() => true);
    const prefix = this.scopePrefix(req.namespace);
    const start = plan.start;
    const bookmarks = !!req.allowWatchBookmarks;
    if (start.kind === 'most-recent' || start.kind === 'not-older-than') await this.ready(start, req.signal);
    if (!plan.initialEvents) {
      // Start at Exact, or (sendInitialEvents=false) at the version the cache holds now.
      const fromRevision = start.kind === 'exact' ? start.revision : this.cache.currentRevision;
      try {
        return this.cache.watch(this.prefix, prefix, { fromRevision, initial: false, filter, bookmarks, signal: req.signal });
      } catch (e) {
        if (!(e instanceof WatchTooOldError)) throw e;
        return this.watchFromStore(prefix, fromRevision, filter, req.signal);
      }
    }
    const initialEventsEndBookmark = plan.initialEventsEndBookmark
      ? (revision: number): WatchItem => ({ type: 'BOOKMARK', object: bookmark(revision, true), revision })
      : undefined;
    return this.cache.watch(this.prefix, prefix, { initial: true, filter, bookmarks, signal: req.signal, ...(initialEventsEndBookmark ? { initialEventsEndBookmark } : {}) });
  }

  /**
   * A watch from a revision older than the cache window, read from the store's history. Bounded as
   * the cache's watchers are: a reader that falls too far behind is closed, and so is the store's watch.
   */
  private watchFromStore(prefix: string, fromRevision: number, filter: EntryFilter, signal: AbortSignal): AsyncIterable<WatchItem> {
    const stop = new AbortController();
    const bounded = new BoundedWatchQueue(this.cache.watcherBounds, () => stop.abort());
    const out = bounded.queue;
    const events = this.kv.watch(prefix, fromRevision, AbortSignal.any([signal, stop.signal]));
    void (async () => {
      try {
        for await (const ev of events) {
          if (ev.type === 'progress') continue;
          const item = this.itemOf(ev, filter);
          if (item && !bounded.push(item)) return;
        }
        out.end();
      } catch (e) {
        if (isKVError(e, 'compacted')) {
          const oldest = (e as KVError).compactedRevision ?? 0;
          out.push({ type: 'ERROR', object: EncodedObject.of(errors.expired(`too old resource version: ${fromRevision} (${oldest})`).status), revision: 0 });
          out.end();
        } else {
          out.fail(e);
        }
      }
    })();
    return out;
  }

  private itemOf(ev: KVEvent, filter: EntryFilter): WatchItem | undefined {
    const prev = ev.prev ? this.makeEntry(ev.key, ev.prev.value, ev.prev.modRevision) : undefined;
    const before = prev !== undefined && filter(prev);
    if (ev.type === 'delete') {
      if (!before) return undefined;
      return { type: 'DELETED', object: this.makeEntry(ev.key, ev.prev.value, ev.modRevision).object, revision: ev.modRevision };
    }
    const entry = this.makeEntry(ev.key, ev.value, ev.modRevision);
    const now = filter(entry);
    if (now) return { type: before ? 'MODIFIED' : 'ADDED', object: entry.object, revision: ev.modRevision };
    if (before && prev) return { type: 'DELETED', object: withRevision(prev.object, ev.modRevision), revision: ev.modRevision };
    return undefined;
  }
}
