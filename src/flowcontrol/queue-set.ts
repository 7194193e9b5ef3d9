/**
 * The queues and seats of one Limited priority level: fair queuing across the level's queues, as
 * Kubernetes 1.25 does it (its "queueset"), with one simplification stated below.
 *
 * - Seats: a request runs when a seat of the level's concurrency limit (its ACV) is free. Every
 *   request takes one seat (Kubernetes estimates more for large lists; see `seats`).
 * - Queues: a request that cannot run waits in one of its flow's hand of queues (shuffle sharding),
 *   the one with the least work waiting. A full queue (queueLengthLimit) while every seat is taken
 *   rejects it: "queue-full". A level without queues (limitResponse Reject) rejects at once:
 *   "concurrency-limit".
 * - Fairness: virtual time R, in seat-seconds, advances at min(seats asked, limit) / active queues per
 *   real second, i.e. as fast as one queue would be served if every active queue got an equal share.
 *   Each queue keeps the R at which its next request may start (`nextDispatchR`): dispatching adds the
 *   request's estimated work (seats × 3 ms), and its finish corrects that by the real service time.
 *   A free seat goes to the queue whose oldest request would finish first in virtual time. A flow
 *   that sends more than its share pushes its own queue's R ahead and waits behind everyone else;
 *   a quiet flow's queue starts at the current R and is served next. No queue starves: R only grows,
 *   and a waiting queue's start is never later than its oldest request's arrival R plus the work ahead.
 * - Waiting is bounded: a request waits at most `waitLimitMs` (and never past its deadline), then is
 *   rejected with "time-out"; one whose client went away is dropped with "cancelled".
 */
import type { RequestInfo } from '../machinery/request-info.js';
import { dealHand } from './shuffle-sharding.js';
import type { FlowControlMetrics } from './metrics.js';

/** Kubernetes' estimate of how long a request runs before anything is known: 3 ms. */
const ESTIMATED_SERVICE_SECONDS = 0.003;

export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

export interface QueuingSettings {
  /** 0: no queuing (limitResponse Reject). */
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
}

export interface QueueSetRequest {
  readonly flowSchema: string;
  readonly distinguisher: string;
  /** The flow's hash (shuffle-sharding.ts), used when the level has queues. */
  readonly hash: bigint;
  /** For the debug dump of requests. */
  readonly userName?: string;
  readonly info?: RequestInfo;
}

/** A running request: finish() gives its seat back (exactly once). */
export interface Ticket {
  finish(): void;
}

export type Admission = { readonly outcome: 'execute'; readonly ticket: Ticket; readonly waitedMs: number } | { readonly outcome: 'reject'; readonly reason: RejectReason; readonly waitedMs: number };

export interface Clock {
  now(): number;
  /** Calls `fn` after `ms`; returns what cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const realClock: Clock = {
  now: () => performance.now(),
  after(ms, fn) {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

interface Waiting {
  readonly request: QueueSetRequest;
  readonly queue: Queue;
  readonly arrivalR: number;
  readonly arrivedAt: number;
  /** Wall-clock arrival, for the dump. */
  readonly arrivedAtDate: Date;
  readonly decide: (a: Admission) => void;
  settled: boolean;
}

interface Queue {
  index: number;
  readonly waiting: Waiting[];
  executing: number;
  seatsInUse: number;
  nextDispatchR: number;
}

export interface QueueDump {
  readonly index: number;
  readonly pending: number;
  readonly executing: number;
  readonly seatsInUse: number;
  readonly nextDispatchR: number;
  /** Work waiting, in seat-seconds. */
  readonly totalWork: number;
  readonly requests: readonly { flowSchema: string; distinguisher: string; arrivedAt: Date; userName?: string; info?: RequestInfo }[];
}

export interface QueueSetDump {
  readonly waiting: number;
  readonly executing: number;
  readonly seatsInUse: number;
  readonly queues: readonly QueueDump[];
}

export class QueueSet {
  private queues: Queue[] = [];
  private settings: QueuingSettings;
  private concurrencyLimit: number;
  private currentR = 0;
  private lastRealTime: number;
  private robinIndex = -1;
  private enqueues = 0;
  private totalWaiting = 0;
  private totalExecuting = 0;
  private totalSeatsInUse = 0;

  constructor(
    readonly name: string,
    settings: QueuingSettings,
    concurrencyLimit: number,
    private readonly metrics: FlowControlMetrics,
    private readonly clock: Clock = realClock,
  ) {
    this.settings = settings;
    this.concurrencyLimit = concurrencyLimit;
    this.lastRealTime = clock.now();
    this.configure(settings, concurrencyLimit);
  }

  /** Applies a changed level: more queues appear now; fewer are removed as they empty. Dispatches what now fits. */
  configure(settings: QueuingSettings, concurrencyLimit: number): void {
    this.syncTime();
    this.settings = settings;
    this.concurrencyLimit = concurrencyLimit;
    while (this.queues.length < settings.queues) this.queues.push({ index: this.queues.length, waiting: [], executing: 0, seatsInUse: 0, nextDispatchR: 0 });
    this.pruneQueues();
    this.metrics.concurrencyLimit.set({ priority_level: this.name }, concurrencyLimit);
    this.dispatchAsMuchAsPossible();
  }

  get limit(): number {
    return this.concurrencyLimit;
  }

  /** Nothing waits and nothing runs. */
  isIdle(): boolean {
    return this.totalWaiting === 0 && this.totalExecuting === 0;
  }

  /**
   * Admits, queues or rejects a request. Resolves once it may run (with a ticket to finish) or is
   * rejected; never rejects the promise. `signal` aborting while it waits drops it ("cancelled").
   */
  start(request: QueueSetRequest, signal: AbortSignal, waitLimitMs: number): Promise<Admission> {
    this.syncTime();
    if (this.settings.queues < 1) {
      if (this.totalSeatsInUse + 1 > this.concurrencyLimit) {
        this.metrics.rejected.inc({ priority_level: this.name, flow_schema: request.flowSchema, reason: 'concurrency-limit' });
        return Promise.resolve({ outcome: 'reject', reason: 'concurrency-limit', waitedMs: 0 });
      }
      return Promise.resolve({ outcome: 'execute', ticket: this.occupy(request, undefined), waitedMs: 0 });
    }
    const queue = this.chooseQueue(request.hash);
    if (this.totalSeatsInUse >= this.concurrencyLimit && queue.waiting.length >= this.settings.queueLengthLimit) {
      this.metrics.rejected.inc({ priority_level: this.name, flow_schema: request.flowSchema, reason: 'queue-full' });
      return Promise.resolve({ outcome: 'reject', reason: 'queue-full', waitedMs: 0 });
    }
    return new Promise<Admission>((resolve) => {
      const arrivedAt = this.clock.now();
      let stopTimer: () => void = () => undefined;
      const onAbort = (): void => this.giveUp(waiting, 'cancelled');
      const waiting: Waiting = {
        request,
        queue,
        arrivalR: this.currentR,
        arrivedAt,
        arrivedAtDate: new Date(),
        settled: false,
        decide: (a) => {
          stopTimer();
          signal.removeEventListener('abort', onAbort);
          resolve(a);
        },
      };
      this.enqueue(waiting);
      this.metrics.queueLength.observe({ priority_level: this.name, flow_schema: request.flowSchema }, queue.waiting.length);
      this.dispatchAsMuchAsPossible();
      if (waiting.settled) return;
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      stopTimer = this.clock.after(Math.max(0, waitLimitMs), () => this.giveUp(waiting, 'time-out'));
    });
  }

  /** The hand's queue with the least work waiting, starting the scan at a rotating offset (as Kubernetes). */
  private chooseQueue(hash: bigint): Queue {
    const deck = Math.min(this.settings.queues, this.queues.length);
    const hand = dealHand(hash, deck, Math.min(this.settings.handSize, deck));
    const offset = this.enqueues++ % hand.length;
    let best: Queue | undefined;
    for (let i = 0; i < hand.length; i++) {
      const q = this.queues[hand[(offset + i) % hand.length] as number] as Queue;
      if (!best || q.waiting.length < best.waiting.length) best = q;
    }
    return best as Queue;
  }

  private enqueue(w: Waiting): void {
    const q = w.queue;
    // A queue that was idle starts now: what it did before earns it nothing and costs it nothing.
    if (q.waiting.length === 0 && q.executing === 0) q.nextDispatchR = this.currentR;
    q.waiting.push(w);
    this.totalWaiting++;
    this.metrics.inQueue.inc({ priority_level: this.name, flow_schema: w.request.flowSchema });
  }

  private removeWaiting(w: Waiting): void {
    const i = w.queue.waiting.indexOf(w);
    if (i < 0) return;
    w.queue.waiting.splice(i, 1);
    this.totalWaiting--;
    this.metrics.inQueue.dec({ priority_level: this.name, flow_schema: w.request.flowSchema });
    this.boundNextDispatch(w.queue);
  }

  private giveUp(w: Waiting, reason: 'time-out' | 'cancelled'): void {
    if (w.settled) return;
    this.syncTime();
    w.settled = true;
    this.removeWaiting(w);
    this.metrics.rejected.inc({ priority_level: this.name, flow_schema: w.request.flowSchema, reason });
    w.decide({ outcome: 'reject', reason, waitedMs: this.clock.now() - w.arrivedAt });
    this.pruneQueues();
  }

  /** Takes a seat for `request` (from `queue`, or none for a level without queues). */
  private occupy(request: QueueSetRequest, queue: Queue | undefined): Ticket {
    const startedAt = this.clock.now();
    this.totalExecuting++;
    this.totalSeatsInUse++;
    if (queue) {
      queue.executing++;
      queue.seatsInUse++;
    }
    const labels = { priority_level: this.name, flow_schema: request.flowSchema };
    this.metrics.executing.inc(labels);
    this.metrics.seatsInUse.inc(labels);
    let finished = false;
    return {
      finish: () => {
        if (finished) return;
        finished = true;
        this.syncTime();
        this.totalExecuting--;
        this.totalSeatsInUse--;
        this.metrics.executing.dec(labels);
        this.metrics.seatsInUse.dec(labels);
        if (queue) {
          queue.executing--;
          queue.seatsInUse--;
          // Dispatch charged the estimate; charge what the request really took.
          const actual = (this.clock.now() - startedAt) / 1000;
          queue.nextDispatchR += actual - ESTIMATED_SERVICE_SECONDS;
          this.boundNextDispatch(queue);
        }
        this.dispatchAsMuchAsPossible();
        this.pruneQueues();
      },
    };
  }

  private dispatchAsMuchAsPossible(): void {
    while (this.totalWaiting > 0 && this.totalSeatsInUse < this.concurrencyLimit && this.dispatchOne());
  }

  private dispatchOne(): boolean {
    let best: Queue | undefined;
    let bestFinish = Infinity;
    const n = this.queues.length;
    // Round-robin start, so that ties go around the queues.
    for (let k = 0; k < n; k++) {
      this.robinIndex = (this.robinIndex + 1) % n;
      const q = this.queues[this.robinIndex] as Queue;
      if (q.waiting.length === 0) continue;
      const finishR = q.nextDispatchR + ESTIMATED_SERVICE_SECONDS;
      if (finishR < bestFinish) {
        bestFinish = finishR;
        best = q;
      }
    }
    if (!best) return false;
    this.robinIndex = best.index;
    const w = best.waiting.shift() as Waiting;
    this.totalWaiting--;
    this.metrics.inQueue.dec({ priority_level: this.name, flow_schema: w.request.flowSchema });
    w.settled = true;
    const ticket = this.occupy(w.request, best);
    best.nextDispatchR += ESTIMATED_SERVICE_SECONDS;
    this.boundNextDispatch(best);
    this.metrics.dispatchR.set({ priority_level: this.name }, this.currentR);
    w.decide({ outcome: 'execute', ticket, waitedMs: this.clock.now() - w.arrivedAt });
    return true;
  }

  /** A queue's next start is never before its oldest request arrived (no credit hoarded while idle). */
  private boundNextDispatch(q: Queue): void {
    const oldest = q.waiting[0];
    if (oldest && q.nextDispatchR < oldest.arrivalR) q.nextDispatchR = oldest.arrivalR;
  }

  /** Advances virtual time to now at the rate of the moment before. */
  private syncTime(): void {
    const now = this.clock.now();
    const elapsed = (now - this.lastRealTime) / 1000;
    this.lastRealTime = now;
    let active = 0;
    let seatsAsked = 0;
    for (const q of this.queues) {
      seatsAsked += q.seatsInUse + q.waiting.length;
      if (q.waiting.length > 0 || q.executing > 0) active++;
    }
    if (active > 0 && elapsed > 0) this.currentR += (Math.min(seatsAsked, this.concurrencyLimit) / active) * elapsed;
    this.metrics.currentR.set({ priority_level: this.name }, this.currentR);
  }

  /** Queues beyond the configured number go once they are empty; indexes close up. */
  private pruneQueues(): void {
    if (this.queues.length <= this.settings.queues) return;
    const keep = this.queues.filter((q, i) => i < this.settings.queues || q.waiting.length > 0 || q.executing > 0);
    if (keep.length === this.queues.length) return;
    keep.forEach((q, i) => (q.index = i));
    this.queues = keep;
    this.robinIndex = -1;
  }

  dump(): QueueSetDump {
    return {
      waiting: this.totalWaiting,
      executing: this.totalExecuting,
      seatsInUse: this.totalSeatsInUse,
      queues: this.queues.map((q) => ({
        index: q.index,
        pending: q.waiting.length,
        executing: q.executing,
        seatsInUse: q.seatsInUse,
        nextDispatchR: q.nextDispatchR,
        totalWork: q.waiting.length * ESTIMATED_SERVICE_SECONDS,
        requests: q.waiting.map((w) => ({
          flowSchema: w.request.flowSchema,
          distinguisher: w.request.distinguisher,
          arrivedAt: w.arrivedAtDate,
          ...(w.request.userName !== undefined ? { userName: w.request.userName } : {}),
          ...(w.request.info ? { info: w.request.info } : {}),
        })),
      })),
    };
  }
}
