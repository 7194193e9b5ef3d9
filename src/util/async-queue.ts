/**
 * A single-consumer queue exposed as an AsyncIterable. Producers push synchronously; `end` ends the
 * iteration cleanly after what is queued, `fail` ends it with an error after what is queued, and
 * `abort` ends it with an error at once, dropping what is queued. Used by watches at every layer.
 *
 * The queue itself does not bound what it holds: a producer that must stay bounded watches `size`
 * (or counts what it pushes and what `onTake` reports taken) and aborts the queue past its limit.
 */
export interface AsyncQueueHooks<T> {
  /** The queue was closed (ended, failed, aborted or returned by its consumer); called once. */
  onClose?: () => void;
  /** The consumer took `item` off the queue (not called for items handed straight to a waiting consumer). */
  onTake?: (item: T) => void;
}

export class AsyncQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private head = 0;
  private waiter: ((r: IteratorResult<T>) => void) | undefined;
  private failWaiter: ((e: unknown) => void) | undefined;
  private done = false;
  private error: unknown;
  private readonly hooks: AsyncQueueHooks<T>;
  private closedWaiters: (() => void)[] | undefined;

  constructor(hooks?: AsyncQueueHooks<T> | (() => void)) {
    this.hooks = typeof hooks === 'function' ? { onClose: hooks } : (hooks ?? {});
  }

  get size(): number {
    return this.items.length - this.head;
  }

  get closed(): boolean {
    return this.done;
  }

  /**
   * Resolves when the producer side closes the queue, possibly before the consumer has taken what
   * is left: lets a consumer blocked elsewhere (on a slow socket) learn that it was dropped.
   */
  whenClosed(): Promise<void> {
    if (this.done) return Promise.resolve();
    return new Promise((resolve) => (this.closedWaiters ??= []).push(resolve));
  }

  push(item: T): void {
    if (this.done) return;
    const w = this.waiter;
    if (w) {
      this.waiter = undefined;
      this.failWaiter = undefined;
      w({ value: item, done: false });
      return;
    }
    this.items.push(item);
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    this.settle();
  }

  fail(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.error = error;
    this.settle();
  }

  /** Fails the queue now: what is queued is dropped (freed), and the consumer's next read throws `error`. */
  abort(error: unknown): void {
    if (this.done) return;
    this.items = [];
    this.head = 0;
    this.fail(error);
  }

  private settle(): void {
    const w = this.waiter;
    const f = this.failWaiter;
    this.waiter = undefined;
    this.failWaiter = undefined;
    if (this.size === 0) {
      if (this.error !== undefined && f) f(this.error);
      else if (w) w({ value: undefined, done: true });
    }
    const closed = this.closedWaiters;
    this.closedWaiters = undefined;
    if (closed) for (const resolve of closed) resolve();
    this.hooks.onClose?.();
  }

  private take(): T {
    const item = this.items[this.head] as T;
    this.items[this.head] = undefined as T;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.hooks.onTake?.(item);
    return item;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.size > 0) return Promise.resolve({ value: this.take(), done: false });
    if (this.done) {
      if (this.error !== undefined) {
        const e = this.error;
        this.error = undefined;
        return Promise.reject(e);
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failWaiter = reject;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      return: () => {
        this.end();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
