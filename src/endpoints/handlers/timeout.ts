/** Bounds a request by its `timeoutSeconds`, answering 504 when it runs out. */
import { errors } from '../../machinery/errors.js';
import type { RequestContext } from '../../machinery/request-context.js';

export async function withRequestTimeout<T>(ctx: RequestContext, timeoutSeconds: number | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (!timeoutSeconds) return run(ctx.signal);
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutSeconds * 1000)]);
  try {
    return await run(signal);
  } catch (e) {
    if (signal.aborted && !ctx.signal.aborted) throw errors.timeout(`the request did not complete within ${timeoutSeconds}s (timeoutSeconds)`);
    throw e;
  }
}
