/**
 * The flow-control seam (API Priority and Fairness): classify a request into a flow schema and a
 * priority level, queue it fairly, and run it when a seat is free, or reject it with 429 before
 * any work is done.
 */
import type { RequestContext } from '../machinery/request-context.js';

export interface FlowControl {
  /**
   * Runs `execute` once the request may proceed, having set `ctx.priority`. Throws a 429
   * TooManyRequests StatusError (with retryAfterSeconds) instead of calling it when the queue is
   * full or the request waited too long; rethrows what `execute` throws. Never retried.
   */
  handle(ctx: RequestContext, execute: () => Promise<void>): Promise<void>;
}

export { createApf, type ApfController, type ApfDeps, TOO_MANY_REQUESTS_MESSAGE, RETRY_AFTER_SECONDS } from './apf.js';
export { createMaxInFlight } from './max-inflight.js';
export { noFlowControlMetrics, type FlowControlMetrics } from './metrics.js';
export { startConfigurationProducer, isBootstrapObject, type ConfigObjectClient, type ConfigurationProducer } from './ensure-configuration.js';
export { bootstrapConfiguration, autoupdateSpecAnnotation } from './bootstrap.js';
export { debugDump, DEBUG_DUMP_PATHS } from './debug-dump.js';
