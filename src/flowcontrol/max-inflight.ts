/**
 * The classic limits, in force when API Priority and Fairness is off
 * (`--enable-priority-and-fairness=false`), as Kubernetes applies them: at most
 * `--max-requests-inflight` read-only requests (get, list, watch) and
 * `--max-mutating-requests-inflight` others at once; 0 lifts a limit. Beyond it the request is
 * answered 429 at once (no queue), except for members of system:masters, who always get an answer.
 * Long-running requests (watches included) are not counted.
 */
import { errors } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';
import { RETRY_AFTER_SECONDS, TOO_MANY_REQUESTS_MESSAGE } from './apf.js';
import type { FlowControl } from './index.js';
import type { FlowControlMetrics } from './metrics.js';

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);
const PRIVILEGED_GROUP = 'system:masters';

export function createMaxInFlight(limits: { readOnly: number; mutating: number }, metrics: Pick<FlowControlMetrics, 'dropped'>): FlowControl {
  const inFlight = { readOnly: 0, mutating: 0 };
  return {
    async handle(ctx: RequestContext, execute: () => Promise<void>): Promise<void> {
      if (ctx.longRunning) return execute();
      const kind = READ_ONLY_VERBS.has(ctx.info.verb) ? 'readOnly' : 'mutating';
      const limit = limits[kind];
      if (limit === 0) return execute();
      if (inFlight[kind] >= limit) {
        if (ctx.user?.groups.includes(PRIVILEGED_GROUP)) return execute();
        metrics.dropped.inc({ request_kind: kind });
        throw errors.tooManyRequests(TOO_MANY_REQUESTS_MESSAGE, RETRY_AFTER_SECONDS);
      }
      inFlight[kind]++;
      try {
        await execute();
      } finally {
        inFlight[kind]--;
      }
    },
  };
}
