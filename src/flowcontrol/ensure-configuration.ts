/**
 * Keeps the bootstrap configuration objects in the store, as kube-apiserver's
 * priority-and-fairness config producer does, at start and then every minute (and soon after one
 * of them is deleted):
 * - a missing mandatory or suggested object is created;
 * - a mandatory object's spec is always put back to the fixed value, its annotation set "true";
 * - a suggested object's spec is brought up to date only while its auto-update annotation says
 *   "true" (or, without a boolean there, while the object was never changed: generation 1), and
 *   the annotation is then set to what was decided. An operator who sets it "false" keeps their spec.
 * Conflicts with other writers are retried; other failures are logged and tried again next round.
 */
import { isDeepStrictEqual } from 'node:util';
import type { FlowSchema, PriorityLevelConfiguration } from '../apis/flowcontrol/types.js';
import { semanticallyEqual } from '../apis/flowcontrol/v1beta2/mandatory.js';
import type { ApiNames } from '../machinery/api-names.js';
import { isStatusError } from '../machinery/errors.js';
import type { Logger } from '../machinery/logger.js';
import type { UpdateTransform } from '../registry/generic-store.js';
import type { KubeObject } from '../schema/index.js';
import { autoupdateSpecAnnotation, bootstrapConfiguration } from './bootstrap.js';

/** What the producer needs of a cluster-scoped kind's client (the in-process client fits). */
export interface ConfigObjectClient {
  get(namespace: string, name: string): Promise<KubeObject | undefined>;
  create(namespace: string, obj: KubeObject): Promise<KubeObject>;
  update(namespace: string, name: string, transform: UpdateTransform, subresource?: string): Promise<KubeObject>;
}

type ConfigObject = FlowSchema | PriorityLevelConfiguration;

const ATTEMPTS = 5;

/** Go's strconv.ParseBool. */
function parseBool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(value)) return false;
  return undefined;
}

/**
 * What to write over `current` so that it follows `wanted` (undefined: nothing). Pure; `current`
 * is not changed.
 */
export function reconcileConfigObject(current: KubeObject, wanted: ConfigObject, mandatory: boolean, annotationKey: string): KubeObject | undefined {
  const annotations = (current.metadata.annotations ?? {}) as Record<string, string>;
  const stated = parseBool(annotations[annotationKey]);
  const autoUpdate = mandatory || (stated ?? current.metadata.generation === 1);
  const annotationStale = stated !== autoUpdate;
  const specStale = autoUpdate && !semanticallyEqual(current.spec, wanted.spec);
  if (!annotationStale && !specStale) return undefined;
  const next = structuredClone(current);
  if (specStale) next.spec = structuredClone(wanted.spec);
  if (annotationStale) next.metadata.annotations = { ...annotations, [annotationKey]: String(autoUpdate) };
  return next;
}

export interface ConfigurationProducer {
  /** Runs one round now (the first one is awaited at start). */
  ensure(): Promise<void>;
  /** Asks for a round soon (a bootstrap object was deleted). */
  poke(): void;
  stop(): void;
}

export function startConfigurationProducer(deps: {
  names: ApiNames;
  flowSchemas: ConfigObjectClient;
  priorityLevels: ConfigObjectClient;
  log: Logger;
  intervalMs?: number;
}): ConfigurationProducer {
  const boot = bootstrapConfiguration(deps.names);
  const key = autoupdateSpecAnnotation(deps.names);
  // Levels first, so that the schemas that reference them are never dangling for long.
  const work: [ConfigObjectClient, ConfigObject, boolean][] = [
    ...boot.mandatoryPriorityLevels.map((o) => [deps.priorityLevels, o, true] as [ConfigObjectClient, ConfigObject, boolean]),
    ...boot.suggestedPriorityLevels.map((o) => [deps.priorityLevels, o, false] as [ConfigObjectClient, ConfigObject, boolean]),
    ...boot.mandatoryFlowSchemas.map((o) => [deps.flowSchemas, o, true] as [ConfigObjectClient, ConfigObject, boolean]),
    ...boot.suggestedFlowSchemas.map((o) => [deps.flowSchemas, o, false] as [ConfigObjectClient, ConfigObject, boolean]),
  ];

  const ensureOne = async (client: ConfigObjectClient, wanted: ConfigObject, mandatory: boolean): Promise<void> => {
    const name = wanted.metadata.name as string;
    for (let attempt = 1; ; attempt++) {
      try {
        const current = await client.get('', name);
        if (!current) {
          await client.create('', structuredClone(wanted) as unknown as KubeObject);
          return;
        }
        if (!reconcileConfigObject(current, wanted, mandatory, key)) return;
        await client.update('', name, (latest) => {
          if (!latest) throw new Error(`${name} was deleted meanwhile`);
          return reconcileConfigObject(latest, wanted, mandatory, key) ?? latest;
        });
        return;
      } catch (e) {
        const retry = isStatusError(e, 'Conflict') || isStatusError(e, 'AlreadyExists') || isStatusError(e, 'NotFound');
        if (!retry || attempt >= ATTEMPTS) throw e;
      }
    }
  };

  let running: Promise<void> | undefined;
  let again = false;
  const ensure = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        for (const [client, wanted, mandatory] of work) {
          try {
            await ensureOne(client, wanted, mandatory);
          } catch (e) {
            deps.log.warn('could not ensure an API Priority and Fairness configuration object', { kind: wanted.kind, name: wanted.metadata.name, error: e instanceof Error ? e.message : String(e) });
          }
        }
      } while (again);
    })().finally(() => (running = undefined));
    return running;
  };

  let stopped = false;
  let soon: NodeJS.Timeout | undefined;
  const timer = setInterval(() => void ensure(), deps.intervalMs ?? 60_000);
  timer.unref();
  return {
    ensure,
    poke() {
      if (stopped || soon) return;
      soon = setTimeout(() => {
        soon = undefined;
        if (!stopped) void ensure();
      }, 100);
      soon.unref();
    },
    stop() {
      stopped = true;
      clearInterval(timer);
      if (soon) clearTimeout(soon);
    },
  };
}

/** Whether `name` of `kind` is one of the bootstrap objects (a deletion of one brings the producer). */
export function isBootstrapObject(names: ApiNames, kind: 'FlowSchema' | 'PriorityLevelConfiguration', name: string): boolean {
  const boot = bootstrapConfiguration(names);
  const list = kind === 'FlowSchema' ? [...boot.mandatoryFlowSchemas, ...boot.suggestedFlowSchemas] : [...boot.mandatoryPriorityLevels, ...boot.suggestedPriorityLevels];
  return list.some((o) => isDeepStrictEqual(o.metadata.name, name));
}
