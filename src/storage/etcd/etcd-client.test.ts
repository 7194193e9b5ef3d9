import { BrokenCircuitError } from 'cockatiel';
import { GRPCDeadlineExceededError, GRPCInvalidArgumentError, GRPCUnavailableError, GRPCUnknownError } from 'etcd3';
import { describe, expect, it } from 'vitest';
import { wasNotApplied, withRetries } from './etcd-client.js';

const timeouts = { attemptTimeoutMs: 100, callTimeoutMs: 5_000 };

describe('etcd call retries', () => {
  it('tells failures that prove a request was not applied from those that leave it open', () => {
    expect(wasNotApplied(new BrokenCircuitError())).toBe(true);
    expect(wasNotApplied(new GRPCUnavailableError('14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 127.0.0.1:2379'))).toBe(true);
    expect(wasNotApplied(new GRPCUnavailableError('14 UNAVAILABLE: etcdserver: no leader'))).toBe(true);
    expect(wasNotApplied(new GRPCUnknownError('2 UNKNOWN: raft proposal dropped'))).toBe(true);
    expect(wasNotApplied(new GRPCDeadlineExceededError('4 DEADLINE_EXCEEDED: Deadline exceeded'))).toBe(false);
    expect(wasNotApplied(new GRPCUnavailableError('14 UNAVAILABLE: etcdserver: request timed out, possibly due to previous leader failure'))).toBe(false);
  });

  it('retries transient failures, marks attempts after an uncertain one, and gives up on others at once', async () => {
    const seen: boolean[] = [];
    const failures = [new GRPCUnavailableError('14 UNAVAILABLE: etcdserver: no leader'), new GRPCDeadlineExceededError('4 DEADLINE_EXCEEDED')];
    const result = await withRetries(timeouts, async (a) => {
      seen.push(a.uncertain);
      const f = failures.shift();
      if (f) throw f;
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual([false, false, true]);

    let calls = 0;
    const invalid = new GRPCInvalidArgumentError('3 INVALID_ARGUMENT: etcdserver: request is too large');
    await expect(withRetries(timeouts, async () => (calls++, Promise.reject(invalid)))).rejects.toBe(invalid);
    expect(calls).toBe(1);
  });

  it('retries a write that could apply twice only while its failures prove it was not applied', async () => {
    let calls = 0;
    const timedOut = new GRPCDeadlineExceededError('4 DEADLINE_EXCEEDED');
    await expect(withRetries(timeouts, async () => (calls++, Promise.reject(calls === 1 ? new BrokenCircuitError() : timedOut)), wasNotApplied)).rejects.toBe(timedOut);
    expect(calls).toBe(2);
  });
});
