/**
 * Flow control as the composition root builds it: API Priority and Fairness (on by default) with
 * its configuration producer and status writer, or the classic max-in-flight limits when it is
 * off. Flags are checked before anything starts.
 */
import type { FlowSchema, PriorityLevelConfiguration } from '../apis/flowcontrol/types.js';
import type { InProcessClient } from '../client/in-process-client.js';
import {
  createApf,
  createMaxInFlight,
  debugDump,
  isBootstrapObject,
  startConfigurationProducer,
  type ApfController,
  type FlowControl,
} from '../flowcontrol/index.js';
import type { ApiNames } from '../machinery/api-names.js';
import type { ListerSource } from '../machinery/lister.js';
import type { Logger } from '../machinery/logger.js';
import { createFlowControlMetrics } from './flowcontrol-metrics.js';
import type { ServerMetrics } from './metrics.js';
import { DEFAULTS, type ServerOptions } from './options.js';

export interface FlowControlSetup {
  readonly flowControl: FlowControl;
  /** The APF debug dump at a path, or undefined (APF off, or another path). */
  debugDump(path: string, query: URLSearchParams): string | undefined;
  stop(): void;
}

/** Refuses limits Kubernetes refuses; call before the store opens. */
export function checkFlowControlOptions(options: ServerOptions): void {
  const readOnly = options.maxRequestsInflight ?? DEFAULTS.maxRequestsInflight;
  const mutating = options.maxMutatingRequestsInflight ?? DEFAULTS.maxMutatingRequestsInflight;
  if (readOnly < 0) throw new Error('--max-requests-inflight can not be negative value');
  if (mutating < 0) throw new Error('--max-mutating-requests-inflight can not be negative value');
  if ((options.enablePriorityAndFairness ?? true) && readOnly + mutating <= 0) {
    throw new Error(`invalid configuration: MaxRequestsInFlight=${readOnly} and MaxMutatingRequestsInFlight=${mutating}; they must add up to something positive`);
  }
}

/** `X-Kubernetes-PF-FlowSchema-UID` under k8s.io, `X-Orch-PF-FlowSchema-UID` under orch.io. */
export function flowControlHeaders(names: ApiNames): { flowSchemaUid: string; priorityLevelUid: string } {
  const product = names.product.charAt(0).toUpperCase() + names.product.slice(1);
  return { flowSchemaUid: `X-${product}-PF-FlowSchema-UID`, priorityLevelUid: `X-${product}-PF-PriorityLevel-UID` };
}

export async function startFlowControl(deps: {
  options: ServerOptions;
  names: ApiNames;
  listers: ListerSource;
  client: InProcessClient;
  metrics: ServerMetrics;
  log: Logger;
}): Promise<FlowControlSetup> {
  const { options, names } = deps;
  const fcMetrics = createFlowControlMetrics(deps.metrics.registry);
  const readOnly = options.maxRequestsInflight ?? DEFAULTS.maxRequestsInflight;
  const mutating = options.maxMutatingRequestsInflight ?? DEFAULTS.maxMutatingRequestsInflight;
  if (!(options.enablePriorityAndFairness ?? true)) {
    return { flowControl: createMaxInFlight({ readOnly, mutating }, fcMetrics), debugDump: () => undefined, stop: () => undefined };
  }
  const group = names.group('flowcontrol.apiserver');
  const flowSchemaClient = deps.client.resource(group, 'flowschemas');
  const producer = startConfigurationProducer({ names, flowSchemas: flowSchemaClient, priorityLevels: deps.client.resource(group, 'prioritylevelconfigurations'), log: deps.log });
  await producer.ensure();
  const flowSchemas = deps.listers.for<FlowSchema>(group, 'flowschemas');
  const priorityLevels = deps.listers.for<PriorityLevelConfiguration>(group, 'prioritylevelconfigurations');
  await Promise.all([flowSchemas.synced(), priorityLevels.synced()]);
  const stopPoking = [
    flowSchemas.onChange((e) => e.type === 'DELETED' && isBootstrapObject(names, 'FlowSchema', e.object.metadata.name ?? '') && producer.poke()),
    priorityLevels.onChange((e) => e.type === 'DELETED' && isBootstrapObject(names, 'PriorityLevelConfiguration', e.object.metadata.name ?? '') && producer.poke()),
  ];
  const apf: ApfController = createApf({
    flowSchemas,
    priorityLevels,
    serverConcurrencyLimit: readOnly + mutating,
    requestWaitLimitMs: ((options.requestTimeoutSeconds ?? DEFAULTS.requestTimeoutSeconds) * 1000) / 4,
    headers: flowControlHeaders(names),
    metrics: fcMetrics,
    writeFlowSchemaStatus: flowSchemaClient,
    log: deps.log,
  });
  return {
    flowControl: apf,
    debugDump: (path, query) => debugDump(apf.current(), path, query),
    stop() {
      producer.stop();
      for (const stop of stopPoking) stop();
      apf.stop();
    },
  };
}
