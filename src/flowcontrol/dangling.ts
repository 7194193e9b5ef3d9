/**
 * The Dangling condition the server writes on each FlowSchema: True (reason NotFound) while the
 * priority level it names does not exist, False (reason Found) while it does, with Kubernetes'
 * messages. Written through `/status` only when status, reason or message differ from what is
 * stored; at most five times a minute per schema (then again half a minute later), as Kubernetes
 * holds back against another server that disagrees.
 */
import type { FlowSchema } from '../apis/flowcontrol/types.js';
import type { Logger } from '../machinery/logger.js';
import type { KubeObject } from '../schema/index.js';
import type { ConfigObjectClient } from './ensure-configuration.js';

export type FlowSchemaStatusWriter = Pick<ConfigObjectClient, 'update'>;

interface Condition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

const WRITES_PER_MINUTE = 5;
const HOLD_BACK_MS = 30_000;

/** The condition `schema` should carry. */
export function danglingCondition(levelName: string, found: boolean, now: Date): Condition {
  return found
    ? { type: 'Dangling', status: 'False', lastTransitionTime: now.toISOString().replace(/\.\d+Z$/, 'Z'), reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" and it exists` }
    : { type: 'Dangling', status: 'True', lastTransitionTime: now.toISOString().replace(/\.\d+Z$/, 'Z'), reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" but there is no such object` };
}

function isCurrent(schema: FlowSchema | KubeObject, want: Condition): boolean {
  const conditions = ((schema as FlowSchema).status?.conditions ?? []) as { type?: string; status?: string; reason?: string; message?: string }[];
  const have = conditions.find((c) => c.type === 'Dangling');
  return have !== undefined && have.status === want.status && have.reason === want.reason && have.message === want.message;
}

/** `obj` with its Dangling condition replaced by `want` (a copy). */
function withCondition(obj: KubeObject, want: Condition): KubeObject {
  const next = structuredClone(obj) as KubeObject & { status?: { conditions?: Condition[] } };
  const status = (next.status ??= {});
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== 'Dangling'), want];
  return next;
}

export function danglingStatusWriter(client: FlowSchemaStatusWriter, log: Logger) {
  const inFlight = new Set<string>();
  const recentWrites = new Map<string, number[]>();
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;
  let lastReferences: readonly { schema: FlowSchema; found: boolean }[] = [];

  const allowed = (name: string, now: number): boolean => {
    const times = (recentWrites.get(name) ?? []).filter((t) => now - t < 60_000);
    recentWrites.set(name, times);
    return times.length < WRITES_PER_MINUTE;
  };

  const sync = (references: readonly { schema: FlowSchema; found: boolean }[]): void => {
    lastReferences = references;
    if (stopped) return;
    for (const { schema, found } of references) {
      const name = schema.metadata.name ?? '';
      const levelName = schema.spec.priorityLevelConfiguration.name;
      const want = danglingCondition(levelName, found, new Date());
      if (isCurrent(schema, want) || inFlight.has(name)) continue;
      const now = Date.now();
      if (!allowed(name, now)) {
        retry ??= setTimeout(() => {
          retry = undefined;
          sync(lastReferences);
        }, HOLD_BACK_MS);
        retry.unref();
        continue;
      }
      recentWrites.get(name)?.push(now);
      inFlight.add(name);
      client
        .update('', name, (latest) => {
          if (!latest) throw new Error('deleted meanwhile');
          return isCurrent(latest, want) ? latest : withCondition(latest, want);
        }, 'status')
        .catch((e: unknown) => {
          const message = e instanceof Error ? e.message : String(e);
          if (message !== 'deleted meanwhile' && !/not found/i.test(message)) log.warn('could not write the Dangling condition of a FlowSchema', { name, error: message });
        })
        .finally(() => inFlight.delete(name));
    }
  };

  return {
    sync,
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
    },
  };
}
