/**
 * The request deadline for everything but long-running requests: after `seconds` the request's
 * signal aborts and the client gets a 504 Timeout Status, whether or not the handler noticed.
 *
 * One controller and one timer per request, chained to the connection's signal by hand: Node 20's
 * AbortSignal.timeout and AbortSignal.any each make a transferable signal, which showed up in the
 * profile of every write.
 */
import type { Filter } from '../http/context.js';
import { errors } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';
import { respondError } from '../endpoints/respond.js';

export function withDeadline(seconds: number): Filter<RequestContext> {
  return async (ctx, next) => {
    if (ctx.longRunning) return next();
    ctx.deadline = Date.now() + seconds * 1000;
    const connection = ctx.signal;
    const deadline = new AbortController();
    const closed = (): void => deadline.abort(connection.reason);
    if (connection.aborted) closed();
    else connection.addEventListener('abort', closed, { once: true });
    ctx.signal = deadline.signal;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        deadline.abort(new Error('request deadline'));
        resolve('timeout');
      }, seconds * 1000);
    });
    try {
      const handled = next().then(() => 'done' as const);
      const outcome = await Promise.race([handled, expired]);
      if (outcome === 'timeout' && !ctx.res.headersSent) {
        respondError(ctx, errors.timeout('request did not complete within the allotted timeout', 0));
        // The handler may still finish; its late response is dropped by the transport.
        handled.catch(() => undefined);
      }
    } finally {
      clearTimeout(timer);
      connection.removeEventListener('abort', closed);
    }
  };
}
