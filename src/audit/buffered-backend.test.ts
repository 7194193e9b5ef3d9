import { describe, expect, it } from 'vitest';
import { createBufferedBackend, type BatchConfig, type BatchDelegate, type SendOutcome } from './buffered-backend.js';
import type { AuditMetrics } from './backend.js';
import type { AuditEvent } from './types.js';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const event = (id: number): AuditEvent => ({ kind: 'Event', apiVersion: 'audit.orch.io/v1', level: 'Metadata', auditID: String(id), stage: 'ResponseComplete', requestURI: '/', verb: 'get', user: {}, requestReceivedTimestamp: '', stageTimestamp: '' });
const config = (over: Partial<BatchConfig> = {}): BatchConfig => ({ bufferSize: 100, maxBatchSize: 3, maxBatchWaitMs: 5, throttleEnable: false, throttleQps: 1, throttleBurst: 1, initialBackoffMs: 1, ...over });

function counting(): AuditMetrics & { failed: Record<string, number> } {
  const failed: Record<string, number> = {};
  return { failed, eventGenerated: () => undefined, levelChosen: () => undefined, requestRejected: () => undefined, eventsFailed: (plugin, n) => void (failed[plugin] = (failed[plugin] ?? 0) + n) };
}

/** A receiver that answers each send with the next scripted outcome (then 'ok'), and can be held. */
function receiver(script: SendOutcome[] = []): BatchDelegate & { got: string[]; batches: number; hold: () => () => void } {
  let gate: Promise<void> = Promise.resolve();
  const r = {
    name: 'webhook',
    got: [] as string[],
    batches: 0,
    hold() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
    async send(events: readonly AuditEvent[]) {
      await gate;
      r.batches += 1;
      const outcome = script.shift() ?? 'ok';
      if (outcome === 'ok') r.got.push(...events.map((e) => e.auditID));
      return outcome;
    },
    close: async () => undefined,
  };
  return r;
}

const until = async (cond: () => boolean): Promise<void> => {
  while (!cond()) await new Promise((r) => setTimeout(r, 2));
};

describe('the buffered backend', () => {
  it('takes events at once while the receiver is stuck, then delivers every one in batches of maxBatchSize', async () => {
    const r = receiver();
    const release = r.hold();
    const b = createBufferedBackend(r, config(), silent, counting());
    for (let i = 0; i < 10; i++) expect(b.processEvents([event(i)])).toBe(true);
    release();
    await until(() => r.got.length === 10);
    expect(r.got).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(r.batches).toBe(4);
    await b.shutdown();
  });

  it('keeps a batch that failed transiently and sends it again: nothing accepted is lost', async () => {
    const r = receiver(['retry', 'retry']);
    const metrics = counting();
    const b = createBufferedBackend(r, config(), silent, metrics);
    b.processEvents([event(1), event(2)]);
    await until(() => r.got.length === 2);
    expect(r.got).toEqual(['1', '2']);
    expect(metrics.failed).toEqual({});
    await b.shutdown();
  });

  it('drops what does not fit in the buffer, counting it under plugin "buffered"', async () => {
    const r = receiver();
    const release = r.hold();
    const metrics = counting();
    const b = createBufferedBackend(r, config({ bufferSize: 4, maxBatchSize: 2 }), silent, metrics);
    for (let i = 0; i < 10; i++) b.processEvents([event(i)]);
    expect(metrics.failed).toEqual({ buffered: 6 });
    release();
    await until(() => r.got.length === 4);
    await b.shutdown();
    expect(r.got).toEqual(['0', '1', '2', '3']);
  });

  it('drops a batch the receiver refuses for good (its delegate counts it) and goes on', async () => {
    const r = receiver(['fail']);
    const b = createBufferedBackend(r, config({ maxBatchSize: 1 }), silent, counting());
    b.processEvents([event(1), event(2)]);
    await until(() => r.got.length === 1);
    expect(r.got).toEqual(['2']);
    await b.shutdown();
  });

  it('at shutdown, delivers what is waiting', async () => {
    const r = receiver();
    const b = createBufferedBackend(r, config({ maxBatchWaitMs: 60_000, maxBatchSize: 100 }), silent, counting());
    b.processEvents([event(1), event(2), event(3)]);
    await b.shutdown();
    expect(r.got).toEqual(['1', '2', '3']);
  });
});
