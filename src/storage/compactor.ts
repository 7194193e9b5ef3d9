/**
 * Keeps the store's history to the configured window: samples the current revision on a timer and
 * compacts to the newest sample older than the window. A failed compaction is logged and retried
 * on the next tick; it never stops the loop.
 */
import type { Logger } from '../machinery/logger.js';
import type { WatchCache } from './cacher/cache.js';
import type { RevisionedKV } from './kv.js';

export interface Compactor {
  stop(): void;
  /** Runs one sampling and compaction step now (for tests). */
  tick(): Promise<void>;
}

export function startCompactor(deps: { kv: RevisionedKV; cache: WatchCache; windowMs: number; log: Logger }): Compactor {
  const { kv, cache, windowMs, log } = deps;
  const samples: { at: number; revision: number }[] = [];
  let running = false;
  const tick = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      const now = Date.now();
      samples.push({ at: now, revision: await kv.currentRevision() });
      let target: number | undefined;
      while (samples.length > 0 && (samples[0] as { at: number }).at <= now - windowMs) {
        target = (samples.shift() as { revision: number }).revision;
      }
      if (target !== undefined && target > 0) {
        await kv.compact(target);
        cache.compacted(target);
      }
    } catch (e) {
      log.warn('compaction failed; it is retried on the next tick', { error: (e as Error).message });
    } finally {
      running = false;
    }
  };
  const interval = Math.max(50, Math.min(30_000, Math.floor(windowMs / 4)));
  const timer = setInterval(() => void tick(), interval);
  timer.unref();
  return { stop: () => clearInterval(timer), tick };
}
