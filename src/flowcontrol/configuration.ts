/**
 * The configuration flow control works from, digested from the stored FlowSchemas and
 * PriorityLevelConfigurations (read through their listers, so a change applies without a restart):
 * - every well-formed level gets a state: Exempt levels none, Limited levels a queue set whose
 *   limit is their ACV; a level that disappears while requests wait or run stays (quiescing, still
 *   counted in the shares) until it is idle;
 * - the missing mandatory `exempt` and `catch-all` are imagined from their fixed specs;
 * - schemas whose level does not exist are left out (and reported Dangling); the rest are sorted by
 *   matchingPrecedence, then name, with the mandatory schemas imagined when missing.
 */
import type { FlowSchema, PriorityLevelConfiguration } from '../apis/flowcontrol/types.js';
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS } from '../apis/flowcontrol/v1beta2/mandatory.js';
import type { Logger } from '../machinery/logger.js';
import { assuredConcurrencyValues } from './concurrency.js';
import { byPrecedence } from './matching.js';
import type { FlowControlMetrics } from './metrics.js';
import { QueueSet, type Clock, type QueuingSettings } from './queue-set.js';

export interface LevelState {
  level: PriorityLevelConfiguration;
  /** Limited levels only. */
  queues: QueueSet | undefined;
  /** The level's object is gone; kept until its queues are idle. */
  quiescing: boolean;
  /** Requests of an Exempt level running now (for the dump). */
  exemptExecuting: number;
}

export interface DigestedConfiguration {
  /** In the order they are tried. */
  readonly flowSchemas: readonly FlowSchema[];
  readonly levels: ReadonlyMap<string, LevelState>;
  /** Per stored schema: whether its level exists (for the Dangling condition). */
  readonly references: readonly { schema: FlowSchema; found: boolean }[];
}

const imagined = <T extends { metadata: { name?: string } }>(name: string, spec: unknown): T => ({ metadata: { name, uid: '' }, spec: structuredClone(spec), status: {} }) as unknown as T;

/** Why a level cannot be used, or undefined. Validation keeps stored levels from all of these. */
function brokenLevel(pl: PriorityLevelConfiguration): string | undefined {
  const { type, limited } = pl.spec;
  if ((type === 'Exempt') !== (limited === undefined)) return 'broken union structure at the top';
  if ((type === 'Exempt') !== (pl.metadata.name === 'exempt')) return 'non-alignment between name and type';
  if (!limited) return undefined;
  const lr = limited.limitResponse;
  if ((lr.type === 'Reject') !== (lr.queuing === undefined)) return 'broken union structure for limit response';
  const q = lr.queuing;
  if (q && !(q.queues > 0 && q.handSize > 0 && q.handSize <= q.queues && q.queueLengthLimit > 0)) return 'invalid queuing configuration';
  return undefined;
}

function queuingOf(pl: PriorityLevelConfiguration): QueuingSettings {
  const q = pl.spec.limited?.limitResponse.queuing;
  return q ? { queues: q.queues, handSize: q.handSize, queueLengthLimit: q.queueLengthLimit } : { queues: 0, handSize: 0, queueLengthLimit: 0 };
}

export class ConfigurationDigester {
  private states = new Map<string, LevelState>();

  constructor(
    private readonly serverConcurrencyLimit: number,
    private readonly metrics: FlowControlMetrics,
    private readonly log: Logger,
    private readonly clock?: Clock,
  ) {}

  digest(storedLevels: readonly PriorityLevelConfiguration[], storedSchemas: readonly FlowSchema[]): DigestedConfiguration {
    const next = new Map<string, LevelState>();
    for (const pl of storedLevels) {
      const name = pl.metadata.name ?? '';
      const broken = brokenLevel(pl);
      if (broken) {
        this.log.warn('ignoring a PriorityLevelConfiguration whose spec is broken', { name, problem: broken });
        continue;
      }
      const old = this.states.get(name);
      next.set(name, { level: pl, queues: old?.queues, quiescing: false, exemptExecuting: old?.exemptExecuting ?? 0 });
    }
    // Levels gone from the store keep serving what they hold; the mandatory ones are imagined.
    for (const [name, old] of this.states) {
      if (next.has(name)) continue;
      const mandatory = name === 'exempt' || name === 'catch-all';
      if (!mandatory && (!old.queues || old.queues.isIdle()) && old.exemptExecuting === 0) continue;
      next.set(name, { ...old, quiescing: !mandatory });
    }
    for (const name of ['exempt', 'catch-all'] as const) {
      if (!next.has(name)) next.set(name, { level: imagined<PriorityLevelConfiguration>(name, MANDATORY_PRIORITY_LEVELS[name]), queues: undefined, quiescing: false, exemptExecuting: 0 });
    }

    const shares = new Map<string, number>();
    for (const [name, s] of next) if (s.level.spec.limited) shares.set(name, s.level.spec.limited.assuredConcurrencyShares);
    const acv = assuredConcurrencyValues(this.serverConcurrencyLimit, shares);
    for (const [name, s] of next) {
      const limit = acv.get(name);
      if (limit === undefined) {
        s.queues = undefined;
        continue;
      }
      const settings = queuingOf(s.level);
      if (s.queues) s.queues.configure(settings, limit);
      else s.queues = new QueueSet(name, settings, limit, this.metrics, this.clock);
    }
    this.states = next;

    const references = storedSchemas.map((schema) => ({ schema, found: next.has(schema.spec.priorityLevelConfiguration.name) && !next.get(schema.spec.priorityLevelConfiguration.name)?.quiescing }));
    const usable = references.filter((r) => r.found).map((r) => r.schema);
    const sorted = byPrecedence(usable);
    if (!sorted.some((fs) => fs.metadata.name === 'exempt')) sorted.unshift(imagined<FlowSchema>('exempt', MANDATORY_FLOW_SCHEMAS.exempt));
    if (!sorted.some((fs) => fs.metadata.name === 'catch-all')) sorted.push(imagined<FlowSchema>('catch-all', MANDATORY_FLOW_SCHEMAS['catch-all']));
    return { flowSchemas: sorted, levels: next, references };
  }
}
