/**
 * API Priority and Fairness (`--enable-priority-and-fairness`, on by default): every request is
 * classified into the first matching FlowSchema and its priority level, then
 * - at an Exempt level it runs at once, taking nothing from the others;
 * - at a Limited level it runs when a seat of the level's ACV is free, waiting fairly in its flow's
 *   queues (queue-set.ts), or is answered 429 with `Retry-After: 1` (Kubernetes' message) when the
 *   level rejects, its queue is full, or it waited longer than the wait limit (a quarter of
 *   `--request-timeout`, never past the request's deadline).
 * Watches hold their seat only until the watch has started (its response headers went out).
 * Other long-running requests (exec, attach, port-forward, proxy, log) are not tracked, as in
 * Kubernetes. The response names the schema's and the level's UIDs in two headers.
 *
 * The configuration is read through the listers and digested again after any change, on the next
 * request; the Dangling condition of each FlowSchema is written back by the server.
 */
import type { FlowSchema, PriorityLevelConfiguration } from '../apis/flowcontrol/types.js';
import { errors } from '../machinery/errors.js';
import type { Lister } from '../machinery/lister.js';
import type { Logger } from '../machinery/logger.js';
import type { RequestContext } from '../machinery/request-context.js';
import { ConfigurationDigester, type DigestedConfiguration, type LevelState } from './configuration.js';
import { danglingStatusWriter, type FlowSchemaStatusWriter } from './dangling.js';
import type { FlowControl } from './index.js';
import { flowDistinguisher, matchesFlowSchema, type RequestDigest } from './matching.js';
import type { FlowControlMetrics } from './metrics.js';
import type { Clock } from './queue-set.js';
import { hashFlow } from './shuffle-sharding.js';
import { untilResponseStarts } from './watch-start.js';

/** Kubernetes' answer to a request flow control turned away, and how long to wait. */
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests, please try again later.';
export const RETRY_AFTER_SECONDS = 1;

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);

export interface ApfDeps {
  flowSchemas: Lister<FlowSchema>;
  priorityLevels: Lister<PriorityLevelConfiguration>;
  /** `--max-requests-inflight` + `--max-mutating-requests-inflight`; positive. */
  serverConcurrencyLimit: number;
  /** The longest a request waits in a queue (Kubernetes: a quarter of the request timeout). */
  requestWaitLimitMs: number;
  /** The two response headers: `X-Kubernetes-PF-FlowSchema-UID`, `X-Kubernetes-PF-PriorityLevel-UID` (product-named). */
  headers: { flowSchemaUid: string; priorityLevelUid: string };
  metrics: FlowControlMetrics;
  /** Writes a FlowSchema's Dangling condition; without it none is written. */
  writeFlowSchemaStatus?: FlowSchemaStatusWriter;
  log: Logger;
  clock?: Clock;
}

export interface ApfController extends FlowControl {
  /** The current configuration, digested again first if anything changed (for the debug dumps). */
  current(): DigestedConfiguration;
  stop(): void;
}

export function createApf(deps: ApfDeps): ApfController {
  const digester = new ConfigurationDigester(deps.serverConcurrencyLimit, deps.metrics, deps.log, deps.clock);
  const dangling = deps.writeFlowSchemaStatus ? danglingStatusWriter(deps.writeFlowSchemaStatus, deps.log) : undefined;
  let config: DigestedConfiguration | undefined;
  let stale = true;
  let digestSoon: NodeJS.Immediate | undefined;

  const current = (): DigestedConfiguration => {
    if (!config || stale) {
      stale = false;
      config = digester.digest(deps.priorityLevels.list(), deps.flowSchemas.list());
      dangling?.sync(config.references);
    }
    return config;
  };
  // A change is digested on the next request, or right after the change when none comes (so that
  // the status conditions follow without traffic).
  const changed = (): void => {
    stale = true;
    digestSoon ??= setImmediate(() => {
      digestSoon = undefined;
      current();
    });
  };
  const stopWatching = [deps.flowSchemas.onChange(changed), deps.priorityLevels.onChange(changed)];

  const classify = (digest: RequestDigest, cfg: DigestedConfiguration): { fs: FlowSchema; state: LevelState } => {
    let chosen = cfg.flowSchemas.find((fs) => matchesFlowSchema(digest, fs));
    // No schema matched (a request from no group at all): Kubernetes falls back to catch-all.
    chosen ??= cfg.flowSchemas.find((fs) => fs.metadata.name === 'catch-all') as FlowSchema;
    const state = cfg.levels.get(chosen.spec.priorityLevelConfiguration.name) as LevelState;
    return { fs: chosen, state };
  };

  const tooManyRequests = (ctx: RequestContext): never => {
    deps.metrics.dropped.inc({ request_kind: READ_ONLY_VERBS.has(ctx.info.verb) ? 'readOnly' : 'mutating' });
    throw errors.tooManyRequests(TOO_MANY_REQUESTS_MESSAGE, RETRY_AFTER_SECONDS);
  };

  return {
    current,
    stop() {
      for (const stop of stopWatching) stop();
      if (digestSoon) clearImmediate(digestSoon);
      dangling?.stop();
    },
    async handle(ctx, execute) {
      const isWatch = ctx.info.verb === 'watch';
      if (ctx.longRunning && !isWatch) return execute();
      const digest: RequestDigest = { info: ctx.info, user: ctx.user };
      const { fs, state } = classify(digest, current());
      const level = state.level;
      const fsName = fs.metadata.name ?? '';
      const plName = level.metadata.name ?? '';
      ctx.priority = { flowSchema: fsName, priorityLevel: plName };
      // UIDs, not names: the names an operator chose say too much to the client that was throttled.
      ctx.res.setHeader(deps.headers.flowSchemaUid, fs.metadata.uid ?? '');
      ctx.res.setHeader(deps.headers.priorityLevelUid, level.metadata.uid ?? '');
      const labels = { priority_level: plName, flow_schema: fsName };
      const queues = state.queues;
      if (!queues) {
        deps.metrics.dispatched.inc(labels);
        state.exemptExecuting++;
        try {
          return await execute();
        } finally {
          state.exemptExecuting--;
        }
      }
      const queuing = level.spec.limited?.limitResponse.queuing;
      const many = (queuing?.queues ?? 0) > 1;
      const distinguisher = many ? flowDistinguisher(digest, fs.spec.distinguisherMethod) : '';
      deps.metrics.workEstimatedSeats.observe(labels, 1);
      const waitLimitMs = Math.min(deps.requestWaitLimitMs, ctx.deadline !== undefined ? ctx.deadline - Date.now() : Infinity);
      const admission = await queues.start(
        { flowSchema: fsName, distinguisher, hash: many ? hashFlow(fsName, distinguisher) : 0n, ...(ctx.user ? { userName: ctx.user.username } : {}), info: ctx.info },
        ctx.signal,
        waitLimitMs,
      );
      if (queuing) deps.metrics.waitDuration.observe({ ...labels, execute: String(admission.outcome === 'execute') }, admission.waitedMs / 1000);
      // A level whose object is gone is dropped (and its shares given back) once it is idle.
      const reapIfIdle = (): void => {
        if (state.quiescing && queues.isIdle()) changed();
      };
      if (admission.outcome === 'reject') {
        reapIfIdle();
        return tooManyRequests(ctx);
      }
      deps.metrics.dispatched.inc(labels);
      const started = performance.now();
      const done = (): void => {
        admission.ticket.finish();
        reapIfIdle();
        deps.metrics.executionDuration.observe({ ...labels, type: isWatch ? 'watch' : 'regular' }, (performance.now() - started) / 1000);
      };
      if (!isWatch) {
        try {
          return await execute();
        } finally {
          done();
        }
      }
      // A watch counts while it starts: its seat is free once the response begins (or it ends).
      const running = execute();
      await untilResponseStarts(ctx.res, running).finally(done);
      return running;
    },
  };
}
