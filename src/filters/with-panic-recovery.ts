/**
 * The outermost filter: whatever a later stage throws becomes a Status response (a 500 without
 * internals for anything that is not a StatusError), and the cause is logged for the operator.
 */
import type { Filter } from '../http/context.js';
import { StatusError } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';
import { respondError } from '../endpoints/respond.js';
import type { Logger } from '../machinery/logger.js';

export function withPanicRecovery(log: Logger): Filter<RequestContext> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof StatusError)) {
        log.error('request failed with an unexpected error', { method: ctx.req.method, path: ctx.path, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      }
      if (ctx.res.headersSent) {
        ctx.res.end();
        return;
      }
      respondError(ctx, err);
    }
  };
}
