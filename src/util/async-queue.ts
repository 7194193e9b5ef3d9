/**
 * An unbounded single-consumer queue exposed as an AsyncIterable. Producers push synchronously;
 * `fail` ends the iteration with an error, `end` ends it cleanly. Used by watches at every layer.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private head = 0;
  private waiter: ((r: IteratorResult<T>) => void) | undefined;
  private failWaiter: ((e: unknown) => void) | undefined;
  private done = false;
  private error: unknown;
  private readonly onClose: (() => void) | undefined;

  constructor(onClose?: () => void) {
    this.onClose = onClose;
  }

  get size(): number {
    return this.items.length - this.head;
  }

  get closed(): boolean {
    return this.done;
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

  private settle(): void {
    const w = this.waiter;
    const f = this.failWaiter;
    this.waiter = undefined;
    this.failWaiter = undefined;
    if (this.size === 0) {
      if (this.error !== undefined && f) f(this.error);
      else if (w) w({ value: undefined, done: true });
    }
    this.onClose?.();
  }

  private take(): T {
    const item = this.items[this.head] as T;
    this.items[this.head] = undefined as T;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
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
