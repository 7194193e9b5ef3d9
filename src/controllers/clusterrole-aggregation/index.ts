/**
 * The ClusterRole aggregation controller (Kubernetes' clusterrole-aggregation-controller): a
 * ClusterRole with an aggregationRule gets as its rules the rules of every other ClusterRole its
 * selectors match, in selector order, then by role name, each rule once. Any ClusterRole change
 * re-examines every aggregated role, so admin, edit and view follow what is labelled into them.
 */
import type { ClusterRole } from '../../apis/rbac/v1/clusterrole.js';
import type { PolicyRule } from '../../apis/rbac/v1/types.js';
import type { InProcessClient } from '../../client/in-process-client.js';
import { isDeepStrictEqual } from 'node:util';
import { isStatusError } from '../../machinery/errors.js';
import { labelSelectorFromStructured, type StructuredLabelSelector } from '../../machinery/labels.js';
import type { Lister } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import { WorkQueue } from '../framework/work-queue.js';

export interface AggregationControllerDeps {
  client: InProcessClient;
  clusterRoles: Lister<ClusterRole>;
  /** The RBAC group as served. */
  rbacGroup: string;
  log: Logger;
}

/** The rules an aggregated role should hold, from the roles the lister has now. Pure. */
export function aggregatedRules(role: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const sel of role.aggregationRule?.clusterRoleSelectors ?? []) {
    const selector = labelSelectorFromStructured(sel as StructuredLabelSelector);
    const matched = all
      .filter((r) => r.metadata.name !== role.metadata.name && selector.matches(r.metadata.labels ?? {}))
      .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    for (const r of matched) for (const rule of r.rules ?? []) if (!rules.some((x) => isDeepStrictEqual(x, rule))) rules.push(rule);
  }
  return rules;
}

export function startClusterRoleAggregationController(deps: AggregationControllerDeps): { stop(): void } {
  const { client, clusterRoles, log } = deps;
  const roles = client.resource(deps.rbacGroup, 'clusterroles');
  const sync = async (name: string): Promise<void> => {
    const role = clusterRoles.get('', name);
    if (!role?.aggregationRule) return;
    const want = aggregatedRules(role, clusterRoles.list());
    if (isDeepStrictEqual(plain(role.rules ?? []), plain(want))) return;
    try {
      await roles.update('', name, (current) => {
        const cur = current as ClusterRole;
        // Recomputed from the current state so a concurrent relabel is not lost on retry.
        cur.rules = structuredClone(aggregatedRules(cur, clusterRoles.list()));
        return cur;
      });
    } catch (e) {
      if (isStatusError(e, 'NotFound')) return;
      throw e;
    }
  };
  const queue = new WorkQueue(sync, (key, error, attempt) => log.warn('cluster role aggregation failed; retrying', { clusterRole: key, attempt, error: error instanceof Error ? error.message : String(error) }), {
    workers: 1,
    minRetryMs: 50,
    maxRetryMs: 5_000,
  });
  const enqueueAggregated = (): void => {
    for (const r of clusterRoles.list()) if (r.aggregationRule) queue.add(r.metadata.name ?? '');
  };
  const unsubscribe = clusterRoles.onChange(() => enqueueAggregated());
  enqueueAggregated();
  return {
    stop() {
      unsubscribe();
      queue.stop();
    },
  };
}

/** Frozen lister objects and fresh ones compare alike once copied to plain values. */
function plain(rules: readonly PolicyRule[]): unknown {
  return JSON.parse(JSON.stringify(rules));
}
