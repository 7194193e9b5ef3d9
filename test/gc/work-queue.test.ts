import { describe, expect, it } from 'vitest';
import { WorkQueue } from '../../src/controllers/framework/work-queue.js';

const timeouts = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
const opts = { workers: 2, minRetryMs: 1, maxRetryMs: 5 };

describe('garbage collector work queue', () => {
  it('retries a failing key until it succeeds, quietly reporting each failure', async () => {
    const calls: string[] = [];
    const failures: number[] = [];
    let finish!: () => void;
    const finished = new Promise<void>((r) => (finish = r));
    const q = new WorkQueue(
      async (key) => {
        calls.push(key);
        if (calls.length < 3) throw new Error('conflict');
        finish();
      },
      (_key, _e, attempt) => failures.push(attempt),
      opts,
    );
    q.add('a');
    await finished;
    expect(calls).toEqual(['a', 'a', 'a']);
    expect(failures).toEqual([1, 2]);
    q.stop();
  });

  it('never runs one key twice at once; an add during a run brings one more run', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let done!: () => void;
    const allDone = new Promise<void>((r) => (done = r));
    const q = new WorkQueue(
      async () => {
        running++;
        most = Math.max(most, running);
        runs++;
        if (runs === 1) await gate;
        running--;
        if (runs === 2) done();
      },
      () => undefined,
      opts,
    );
    q.add('k');
    q.add('k');
    q.add('k');
    release();
    await allDone;
    expect(most).toBe(1);
    expect(runs).toBe(2);
    q.stop();
  });

  it('stop() drops pending retries and leaves no timer behind', async () => {
    const before = timeouts();
    let calls = 0;
    let failed!: () => void;
    const firstFailure = new Promise<void>((r) => (failed = r));
    const q = new WorkQueue(
      async () => {
        calls++;
        throw new Error('always');
      },
      () => failed(),
      { workers: 1, minRetryMs: 60_000, maxRetryMs: 60_000 },
    );
    q.add('x');
    await firstFailure;
    await new Promise((r) => setImmediate(r));
    expect(timeouts()).toBe(before + 1);
    q.stop();
    expect(timeouts()).toBe(before);
    q.add('x');
    expect(calls).toBe(1);
  });
});
