/**
 * In-process publication of committed events to watchers of a KV backend. A watcher registers
 * synchronously, reads its catch-up history synchronously, then receives live events, so nothing
 * is lost or repeated between history and live delivery.
 */
import { AsyncQueue } from '../util/async-queue.js';
import { KVError, type KVEvent, type KVWatchEvent } from './kv.js';

interface Subscriber {
  prefix: string;
  queue: AsyncQueue<KVWatchEvent>;
  progress: boolean;
}

export class WatchHub {
  private readonly subscribers = new Set<Subscriber>();
  private closed = false;

  /** Delivers events committed together, in revision order. */
  publish(events: readonly KVEvent[]): void {
    if (this.subscribers.size === 0) return;
    for (const sub of this.subscribers) {
      for (const ev of events) {
        if (ev.key.startsWith(sub.prefix)) sub.queue.push(ev);
      }
    }
  }

  /**
   * Tells every watcher that asked for progress that it has seen all events up to `revision` (the newest committed one).
   * Queued behind the events already published, so it never overtakes them.
   */
  progress(revision: number): void {
    for (const sub of this.subscribers) if (sub.progress) sub.queue.push({ type: 'progress', revision });
  }

  /**
   * Registers a watcher. `history` runs synchronously right after registration and returns the
   * events the watcher missed; it may throw (e.g. compacted), which fails the watch.
   */
  subscribe(prefix: string, signal: AbortSignal, history: () => KVEvent[], progress = false): AsyncIterable<KVWatchEvent> {
    let sub: Subscriber | undefined;
    const queue = new AsyncQueue<KVWatchEvent>(() => {
      if (sub) this.subscribers.delete(sub);
      signal.removeEventListener('abort', onAbort);
    });
    const onAbort = (): void => queue.end();
    if (this.closed) {
      queue.fail(new KVError('closed', 'the store is closed'));
      return queue;
    }
    if (signal.aborted) {
      queue.end();
      return queue;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    let missed: KVEvent[];
    try {
      missed = history();
    } catch (e) {
      queue.fail(e);
      return queue;
    }
    for (const ev of missed) queue.push(ev);
    sub = { prefix, queue, progress };
    this.subscribers.add(sub);
    return queue;
  }

  close(): void {
    this.closed = true;
    for (const sub of this.subscribers) sub.queue.fail(new KVError('closed', 'the store is closed'));
    this.subscribers.clear();
  }
}
