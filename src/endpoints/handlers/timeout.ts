/** Bounds a request by its `timeoutSeconds`, answering 504 when it runs out. */
import { errors } from '../../machinery/errors.js';
import type { RequestContext } from '../../machinery/request-context.js';

/**
 * The longest delay a Node timer keeps (about 24.8 days); a longer one fires at once. Kubernetes
 * takes any int64 `timeoutSeconds`; a span this server cannot time is as good as unbounded.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The timer delay for a `timeoutSeconds`, clamped to what a timer can hold. */
export function timerDelayMs(timeoutSeconds: number): number {
  return Math.min(timeoutSeconds * 1000, MAX_TIMER_MS);
}

export async function withRequestTimeout<T>(ctx: RequestContext, timeoutSeconds: number | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  // Longer than a timer holds: the request's own deadline is the sooner bound anyway.
  if (!timeoutSeconds || timeoutSeconds * 1000 > MAX_TIMER_MS) return run(ctx.signal);
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutSeconds * 1000)]);
  try {
    return await run(signal);
  } catch (e) {
    if (signal.aborted && !ctx.signal.aborted) throw errors.timeout(`the request did not complete within ${timeoutSeconds}s (timeoutSeconds)`);
    throw e;
  }
}
