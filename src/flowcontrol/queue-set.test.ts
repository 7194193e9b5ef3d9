import { describe, expect, it } from 'vitest';
import { noFlowControlMetrics } from './metrics.js';
import { QueueSet, type Admission, type Clock, type QueueSetRequest } from './queue-set.js';
import { dealHand, hashFlow } from './shuffle-sharding.js';

/** A clock tests move by hand; timers fire when it passes them. */
function fakeClock(): Clock & { advance(ms: number): void } {
  let now = 0;
  let timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    after(ms, fn) {
      const t = { at: now + ms, fn };
      timers.push(t);
      return () => (timers = timers.filter((x) => x !== t));
    },
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.fn();
    },
  };
}

const req = (flow: string, schema = 'fs'): QueueSetRequest => ({ flowSchema: schema, distinguisher: flow, hash: hashFlow(schema, flow) });
const never = new AbortController().signal;
const settle = () => new Promise((r) => setImmediate(r));

/** Starts a request and records its outcome once known. */
function track(qs: QueueSet, r: QueueSetRequest, signal = never, waitMs = 60_000) {
  const state: { admission?: Admission } = {};
  void qs.start(r, signal, waitMs).then((a) => (state.admission = a));
  return state;
}

describe('QueueSet', () => {
  it('a level without queues runs up to its limit and rejects the rest at once (concurrency-limit)', async () => {
    const qs = new QueueSet('l', { queues: 0, handSize: 0, queueLengthLimit: 0 }, 2, noFlowControlMetrics, fakeClock());
    const a = await qs.start(req('x'), never, 1000);
    const b = await qs.start(req('x'), never, 1000);
    const c = await qs.start(req('x'), never, 1000);
    expect([a.outcome, b.outcome, c]).toEqual(['execute', 'execute', { outcome: 'reject', reason: 'concurrency-limit', waitedMs: 0 }]);
    if (a.outcome === 'execute') a.ticket.finish();
    expect((await qs.start(req('x'), never, 1000)).outcome).toBe('execute');
  });

  it('queues up to queueLengthLimit while every seat is taken, then rejects (queue-full); a finish dispatches the oldest', async () => {
    const qs = new QueueSet('l', { queues: 1, handSize: 1, queueLengthLimit: 2 }, 1, noFlowControlMetrics, fakeClock());
    const first = await qs.start(req('x'), never, 1000);
    const second = track(qs, req('x'));
    const third = track(qs, req('x'));
    const fourth = await qs.start(req('x'), never, 1000);
    expect(first.outcome).toBe('execute');
    expect(fourth).toMatchObject({ outcome: 'reject', reason: 'queue-full' });
    await settle();
    expect(second.admission).toBeUndefined();
    expect(qs.dump()).toMatchObject({ waiting: 2, executing: 1 });
    if (first.outcome === 'execute') first.ticket.finish();
    await settle();
    expect(second.admission?.outcome).toBe('execute');
    expect(third.admission).toBeUndefined();
  });

  it('a request that waits past its wait limit is rejected (time-out); one whose client leaves is dropped (cancelled)', async () => {
    const clock = fakeClock();
    const qs = new QueueSet('l', { queues: 4, handSize: 2, queueLengthLimit: 10 }, 1, noFlowControlMetrics, clock);
    await qs.start(req('x'), never, 1000);
    const late = track(qs, req('y'), never, 500);
    const leaving = new AbortController();
    const gone = track(qs, req('z'), leaving.signal, 5000);
    clock.advance(499);
    await settle();
    expect(late.admission).toBeUndefined();
    clock.advance(1);
    leaving.abort();
    await settle();
    expect(late.admission).toEqual({ outcome: 'reject', reason: 'time-out', waitedMs: 500 });
    expect(gone.admission).toMatchObject({ outcome: 'reject', reason: 'cancelled' });
    expect(qs.dump().waiting).toBe(0);
  });

  it('a raised limit dispatches what waits', async () => {
    const qs = new QueueSet('l', { queues: 1, handSize: 1, queueLengthLimit: 10 }, 1, noFlowControlMetrics, fakeClock());
    await qs.start(req('x'), never, 1000);
    const waiting = track(qs, req('x'));
    qs.configure({ queues: 1, handSize: 1, queueLengthLimit: 10 }, 2);
    await settle();
    expect(waiting.admission?.outcome).toBe('execute');
  });

  /**
   * One seat; a noisy flow keeps 10 requests waiting, then a quiet flow asks 3 times. Each request
   * runs 10 ms. Returns the order in which requests ran.
   */
  async function serve(queues: number): Promise<string[]> {
    const clock = fakeClock();
    const qs = new QueueSet('l', { queues, handSize: 1, queueLengthLimit: 50 }, 1, noFlowControlMetrics, clock);
    const order: string[] = [];
    const running: { flow: string; finish: () => void }[] = [];
    const submit = (flow: string) =>
      void qs.start(req(flow), never, 60_000).then((a) => {
        if (a.outcome !== 'execute') throw new Error(`${flow} was rejected: ${a.reason}`);
        order.push(flow);
        running.push({ flow, finish: a.ticket.finish });
      });
    for (let i = 0; i < 10; i++) submit('noisy');
    await settle();
    for (let i = 0; i < 3; i++) submit('quiet');
    await settle();
    while (order.length < 13) {
      clock.advance(10);
      running.shift()?.finish();
      await settle();
    }
    return order;
  }

  it('serves a quiet flow between the requests of a noisy one at the same level (fair queuing across queues)', async () => {
    // The two flows' queues differ (handSize 1 of 8 queues).
    expect(dealHand(hashFlow('fs', 'noisy'), 8, 1)).not.toEqual(dealHand(hashFlow('fs', 'quiet'), 8, 1));
    const fair = await serve(8);
    // The quiet flow's three requests run among the first requests after it arrived, not after the noisy backlog.
    const quietPositions = fair.flatMap((f, i) => (f === 'quiet' ? [i] : []));
    expect(quietPositions.at(-1)).toBeLessThanOrEqual(6);
    // With one queue (no fairness possible) they would wait behind all ten.
    const fifo = await serve(1);
    expect(fifo.slice(-3)).toEqual(['quiet', 'quiet', 'quiet']);
  });
});
