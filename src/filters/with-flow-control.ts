/** API Priority and Fairness: the request waits for a seat of its priority level, or gets 429 before any work. */
import type { FlowControl } from '../flowcontrol/index.js';
import type { Filter } from '../http/context.js';
import type { RequestContext } from '../machinery/request-context.js';

export function withFlowControl(flowControl: FlowControl): Filter<RequestContext> {
  return (ctx, next) => flowControl.handle(ctx, next);
}
