/**
 * Batch mode: events are accepted into a bounded buffer at once (the request never waits) and
 * delivered in the background in batches of up to `maxBatchSize`, sent when full or `maxBatchWaitMs`
 * after the batch's first event, at most `throttleQps` batches a second (bursts of `throttleBurst`).
 *
 * An accepted event is not lost to a slow or failing receiver: a batch that fails transiently stays
 * at the head and is sent again, backing off from `initialBackoffMs` by 1.5 up to a minute, while the
 * buffer keeps taking events. The buffer (events waiting plus the batch being sent) never holds more
 * than `bufferSize` events: when it is full, new events are dropped, logged and counted in
 * `apiserver_audit_error_total{plugin="buffered"}`. A batch the receiver refuses for good (a 4xx) is
 * dropped and counted under the receiver's plugin name. At shutdown what is left gets one last
 * attempt within `shutdownGraceMs`; whatever is still undelivered then is counted as failed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../machinery/logger.js';
import type { AuditBackend, AuditMetrics } from './backend.js';
import type { AuditEvent } from './types.js';

export interface BatchConfig {
  bufferSize: number;
  maxBatchSize: number;
  maxBatchWaitMs: number;
  throttleEnable: boolean;
  throttleQps: number;
  throttleBurst: number;
  initialBackoffMs: number;
  shutdownGraceMs?: number;
}

export type SendOutcome = 'ok' | 'retry' | 'fail';

/** What a batch is handed to: 'retry' keeps the batch for another attempt; 'fail' drops it, the delegate having logged and counted it. */
export interface BatchDelegate {
  readonly name: string;
  send(events: readonly AuditEvent[], signal: AbortSignal): Promise<SendOutcome>;
  close(): Promise<void>;
}

const MAX_BACKOFF_MS = 60_000;
const DROP_LOG_INTERVAL_MS = 10_000;

export function createBufferedBackend(delegate: BatchDelegate, config: BatchConfig, log: Logger, metrics: AuditMetrics): AuditBackend {
  const queue: AuditEvent[] = [];
  let inFlight = 0;
  let stopping = false;
  let wake: (() => void) | undefined;
  const stop = new AbortController();
  let dropped = 0;
  let lastDropLog = 0;
  let tokens = config.throttleBurst;
  let tokensAt = Date.now();

  const signalWork = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  /** Resolves on the next event or shutdown, or after `ms` (never, without). */
  function waitForWork(ms?: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(resolve, ms);
      timer?.unref();
      wake = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
    });
  }

  /**
   * Resolves when a full batch is waiting, `maxBatchWaitMs` after the first event of the batch, or
   * when shutdown begins. An empty buffer waits for an event, with no timer running.
   */
  async function collect(): Promise<void> {
    while (!stopping && queue.length === 0) await waitForWork();
    const deadline = Date.now() + config.maxBatchWaitMs;
    while (!stopping && queue.length < config.maxBatchSize) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      await waitForWork(left);
    }
  }

  async function throttle(): Promise<void> {
    if (!config.throttleEnable) return;
    for (;;) {
      const now = Date.now();
      tokens = Math.min(config.throttleBurst, tokens + ((now - tokensAt) / 1000) * config.throttleQps);
      tokensAt = now;
      if (tokens >= 1 || stopping) {
        tokens -= 1;
        return;
      }
      await sleep(((1 - tokens) / config.throttleQps) * 1000, undefined, { ref: false });
    }
  }

  async function deliver(batch: AuditEvent[]): Promise<void> {
    let backoff = config.initialBackoffMs;
    for (;;) {
      let outcome: SendOutcome;
      try {
        outcome = await delegate.send(batch, stop.signal);
      } catch (e) {
        log.error(`error in audit plugin "${delegate.name}"`, { error: (e as Error).message });
        outcome = 'retry';
      }
      if (outcome === 'ok') return;
      // A refusal was logged and counted by the delegate.
      if (outcome === 'fail') return;
      if (stopping || stop.signal.aborted) {
        metrics.eventsFailed(delegate.name, batch.length);
        log.error(`audit plugin "${delegate.name}" is shutting down with ${batch.length} undelivered audit events`);
        return;
      }
      try {
        await sleep(backoff * (1 + Math.random() * 0.2), undefined, { signal: stop.signal, ref: false });
      } catch {
        // Shutdown: one last attempt above decides.
      }
      backoff = Math.min(backoff * 1.5, MAX_BACKOFF_MS);
    }
  }

  const loop = (async () => {
    while (!stopping || queue.length > 0) {
      await collect();
      if (queue.length === 0) continue;
      const batch = queue.splice(0, config.maxBatchSize);
      inFlight = batch.length;
      await throttle();
      await deliver(batch);
      inFlight = 0;
    }
  })();

  return {
    name: 'buffered',
    processEvents(events) {
      for (const ev of events) {
        if (stopping || queue.length + inFlight >= config.bufferSize) {
          dropped += 1;
          continue;
        }
        queue.push(ev);
      }
      if (dropped > 0) {
        metrics.eventsFailed('buffered', dropped);
        const now = Date.now();
        if (now - lastDropLog >= DROP_LOG_INTERVAL_MS) {
          lastDropLog = now;
          log.error('error in audit plugin "buffered": audit buffer queue blocked; events dropped', { dropped, bufferSize: config.bufferSize, plugin: delegate.name });
        }
        dropped = 0;
      }
      signalWork();
      // Accepted or counted: the request goes on either way, as in Kubernetes.
      return true;
    },
    async shutdown() {
      stopping = true;
      signalWork();
      const grace = setTimeout(() => stop.abort(), config.shutdownGraceMs ?? 5_000);
      grace.unref();
      await loop;
      clearTimeout(grace);
      await delegate.close();
    },
  };
}
