/**
 * The queue of one watcher, bounded: live events that its reader has not taken yet may number at
 * most `maxEvents` and carry at most `maxBytes` of object text. Queuing past either bound closes the
 * watcher instead, as Kubernetes' cacher terminates a watcher that blocks: what was queued is
 * dropped at once and the reader's next read fails, so it resumes from the last resourceVersion it
 * saw (or lists again). Items queued when the watch starts (initial events, a replay of history)
 * come first and do not count: they are the start the reader asked for, not a backlog.
 */
import { AsyncQueue } from '../../util/async-queue.js';
import type { WatchItem } from '../../machinery/encoded-object.js';
import { KVError } from '../kv.js';

export interface WatchBounds {
  maxEvents: number;
  maxBytes: number;
}

export const TOO_SLOW_MESSAGE = 'the watcher fell too far behind and was closed; watch again from the last resourceVersion';

export class BoundedWatchQueue {
  readonly queue: AsyncQueue<WatchItem>;
  private startLeft = 0;
  private events = 0;
  private bytes = 0;

  constructor(
    private readonly bounds: WatchBounds,
    onClose: () => void,
  ) {
    this.queue = new AsyncQueue<WatchItem>({
      onClose,
      onTake: (item) => {
        if (this.startLeft > 0) {
          this.startLeft--;
          return;
        }
        this.events--;
        this.bytes -= item.object.json.length;
      },
    });
  }

  /** Live events queued and not taken yet. */
  get backlog(): number {
    return this.events;
  }

  /** The length of their objects' text (an object shared with other watchers counts for each). */
  get backlogBytes(): number {
    return this.bytes;
  }

  /** Queues one item of the watch's start; call before the reader begins. */
  pushStart(item: WatchItem): void {
    this.queue.push(item);
    this.startLeft = this.queue.size;
  }

  /**
   * Queues a live item; false when the item would exceed the bounds, in which case the watcher is
   * closed by this call. An item for a closed watcher is ignored.
   */
  push(item: WatchItem): boolean {
    if (this.queue.closed) return true;
    const size = item.object.json.length;
    if (this.events + 1 > this.bounds.maxEvents || this.bytes + size > this.bounds.maxBytes) {
      this.drop();
      return false;
    }
    const before = this.queue.size;
    this.queue.push(item);
    // Handed straight to a waiting reader, the item is not held here.
    if (this.queue.size > before) {
      this.events++;
      this.bytes += size;
    }
    return true;
  }

  /** Closes the watcher as too slow, dropping what is queued. */
  drop(): void {
    this.events = 0;
    this.bytes = 0;
    this.startLeft = 0;
    this.queue.abort(new KVError('unavailable', TOO_SLOW_MESSAGE));
  }
}
