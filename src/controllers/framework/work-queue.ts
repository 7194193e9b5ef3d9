/**
 * The work queue every controller shares (client-go's rate-limited work queue, small): a key
 * waiting is held once however often it is added, one key is never worked on twice at the same
 * time (an add while it runs schedules one more run), a failed key comes back after an
 * exponentially growing delay, and a key may be scheduled for later (a request to clean up when it
 * gets old). stop() drops everything and clears every timer.
 */
export interface WorkQueueOptions {
  workers: number;
  minRetryMs: number;
  maxRetryMs: number;
}

/** Works on one key; a throw brings the key back after a backoff delay. */
export type WorkHandler = (key: string) => Promise<void>;

export class WorkQueue {
  private readonly waiting: string[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Set<string>();
  private readonly again = new Set<string>();
  private readonly attempts = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly delayed = new Set<NodeJS.Timeout>();
  private active = 0;
  private stopped = false;

  constructor(
    private readonly handle: WorkHandler,
    private readonly onError: (key: string, error: unknown, attempt: number) => void,
    private readonly opts: WorkQueueOptions,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    if (this.running.has(key)) {
      this.again.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.waiting.push(key);
    this.pump();
  }

  /** Adds `key` after `delayMs` (a later add of the same key before then does not cancel it). */
  addAfter(key: string, delayMs: number): void {
    if (this.stopped) return;
    if (delayMs <= 0) return this.add(key);
    const timer = setTimeout(() => {
      this.delayed.delete(timer);
      this.add(key);
    }, delayMs);
    this.delayed.add(timer);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const t of this.delayed) clearTimeout(t);
    this.delayed.clear();
    this.waiting.length = 0;
    this.queued.clear();
    this.again.clear();
  }

  private pump(): void {
    while (!this.stopped && this.active < this.opts.workers && this.waiting.length > 0) {
      const key = this.waiting.shift() as string;
      this.queued.delete(key);
      this.running.add(key);
      this.active++;
      void this.run(key);
    }
  }

  private async run(key: string): Promise<void> {
    try {
      await this.handle(key);
      this.attempts.delete(key);
    } catch (e) {
      this.onError(key, e, (this.attempts.get(key) ?? 0) + 1);
      this.retryLater(key);
    } finally {
      this.running.delete(key);
      this.active--;
      if (this.again.delete(key)) this.add(key);
      this.pump();
    }
  }

  private retryLater(key: string): void {
    if (this.stopped || this.timers.has(key)) return;
    const n = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, n);
    const delay = Math.min(this.opts.maxRetryMs, this.opts.minRetryMs * 2 ** Math.min(n - 1, 16));
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, delay);
    this.timers.set(key, timer);
  }
}
