/**
 * The disruption controller (kube-controller-manager's `disruption`): keeps every
 * PodDisruptionBudget's status — expectedPods, currentHealthy, desiredHealthy, disruptionsAllowed,
 * observedGeneration, disruptedPods and the DisruptionAllowed condition — from the pods it selects
 * and their controllers' scale, so that evictions (and `kubectl drain`) know what they may take
 * down. A budget whose expected count cannot be found (a pod without a known controller while the
 * budget counts by controllers) fails safe: no disruption allowed, condition SyncFailed.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Pod } from '../../apis/core/v1/pod.js';
import type { PodDisruptionBudget } from '../../apis/policy/v1/poddisruptionbudget.js';
import { conditionUpToDate, setCondition, setDisruptionAllowedCondition } from '../../apis/policy/v1/disruption-condition.js';
import type { InProcessClient } from '../../client/in-process-client.js';
import { errors, isStatusError } from '../../machinery/errors.js';
import type { ListerSource } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import type { KubeObject } from '../../schema/index.js';
import { WorkQueue } from '../framework/work-queue.js';
import { BudgetSyncError, computeStatus, type ScaleFinder } from './status.js';
import { scaleFinder, type ScaledObject } from './scale-finder.js';

export interface DisruptionControllerDeps {
  client: InProcessClient;
  listers: ListerSource;
  log: Logger;
}

const keyOf = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

export function startDisruptionController(deps: DisruptionControllerDeps): { stop(): void } {
  const { client, listers, log } = deps;
  const policy = 'policy';
  const apps = 'apps';
  const budgets = listers.for<PodDisruptionBudget>(policy, 'poddisruptionbudgets');
  const pods = listers.for<Pod>('', 'pods');
  const owners = {
    replicationControllers: listers.for<ScaledObject>('', 'replicationcontrollers'),
    replicaSets: listers.for<ScaledObject>(apps, 'replicasets'),
    deployments: listers.for<ScaledObject>(apps, 'deployments'),
    statefulSets: listers.for<ScaledObject>(apps, 'statefulsets'),
  };
  const findScale: ScaleFinder = scaleFinder(owners, apps);
  const budgetClient = client.resource(policy, 'poddisruptionbudgets');
  const rechecks = new Map<string, NodeJS.Timeout>();

  const recheckAt = (key: string, when: number): void => {
    clearTimeout(rechecks.get(key));
    const timer = setTimeout(() => {
      rechecks.delete(key);
      queue.add(key);
    }, Math.max(0, when - Date.now()) + 10);
    timer.unref();
    rechecks.set(key, timer);
  };

  const sync = async (key: string): Promise<void> => {
    const [namespace = '', name = ''] = key.split('/');
    const pdb = budgets.get(namespace, name);
    if (!pdb) return;
    let nextExpiry: number | undefined;
    try {
      await budgetClient.update(
        namespace,
        name,
        (current) => {
          if (!current) throw errors.notFound({ group: policy, resource: 'poddisruptionbudgets' }, name);
          const cur = current as PodDisruptionBudget;
          const now = new Date();
          const generation = cur.metadata.generation ?? 0;
          const before = structuredClone(cur.status);
          let computed;
          try {
            computed = computeStatus(cur, pods.list(namespace), findScale, now);
          } catch (e) {
            if (!(e instanceof BudgetSyncError)) throw e;
            // Fail safe: evictions stop until the budget can be computed again.
            cur.status = { ...(cur.status ?? { currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptionsAllowed: 0 }), disruptionsAllowed: 0, observedGeneration: generation };
            setCondition(cur, 'False', 'SyncFailed', e.message, now);
            return isDeepStrictEqual(before, cur.status) ? current : cur;
          }
          nextExpiry = computed.nextExpiry;
          const s = cur.status;
          const same =
            s &&
            s.currentHealthy === computed.currentHealthy &&
            s.desiredHealthy === computed.desiredHealthy &&
            s.expectedPods === computed.expectedPods &&
            s.disruptionsAllowed === computed.disruptionsAllowed &&
            isDeepStrictEqual(s.disruptedPods ?? {}, computed.disruptedPods) &&
            s.observedGeneration === generation &&
            conditionUpToDate(cur);
          if (same) return current;
          cur.status = {
            currentHealthy: computed.currentHealthy,
            desiredHealthy: computed.desiredHealthy,
            expectedPods: computed.expectedPods,
            disruptionsAllowed: computed.disruptionsAllowed,
            ...(Object.keys(computed.disruptedPods).length ? { disruptedPods: computed.disruptedPods } : {}),
            observedGeneration: generation,
            ...(s?.conditions ? { conditions: s.conditions } : {}),
          };
          setDisruptionAllowedCondition(cur, now);
          return cur;
        },
        'status',
      );
    } catch (e) {
      if (isStatusError(e, 'NotFound')) return;
      throw e;
    }
    if (nextExpiry !== undefined) recheckAt(key, nextExpiry);
  };

  const queue = new WorkQueue(sync, (key, error, attempt) => log.warn('disruption budget sync failed; retrying', { budget: key, attempt, error: error instanceof Error ? error.message : String(error) }), {
    workers: 1,
    minRetryMs: 50,
    maxRetryMs: 5_000,
  });
  const enqueueNamespace = (namespace: string): void => {
    for (const b of budgets.list(namespace)) queue.add(keyOf(b as KubeObject));
  };
  const stops = [
    budgets.onChange((ev) => queue.add(keyOf(ev.object as KubeObject))),
    pods.onChange((ev) => enqueueNamespace(ev.object.metadata.namespace ?? '')),
    ...Object.values(owners).map((l) => l.onChange((ev) => enqueueNamespace(ev.object.metadata.namespace ?? ''))),
  ];
  for (const b of budgets.list()) queue.add(keyOf(b as KubeObject));
  return {
    stop() {
      for (const s of stops) s();
      for (const t of rechecks.values()) clearTimeout(t);
      queue.stop();
    },
  };
}
