/**
 * The resource quota controller (kube-controller-manager's `resourcequota`): keeps each quota's
 * `status.hard` equal to its `spec.hard` and recomputes `status.used` from the objects in its
 * namespace. It runs when a quota is created or its limits change, when an object it counts goes
 * away (or a pod finishes, a service or claim changes), and for every quota periodically, which gives
 * back what admission charged for a write that failed afterwards.
 */
import { objectUsage, podCounts, resourceOfQuotaName, sameResources, usageToList, type QuotaPod, type Usage } from '../../apis/core/v1/quota/usage.js';
import { inQuotaScopes, type QuotaInfo } from '../../apis/core/v1/quota/check.js';
import { addUsage } from '../../apis/core/v1/quota/usage.js';
import type { InProcessClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import { isStatusError } from '../../machinery/errors.js';
import type { Lister, ListerSource } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import { WorkQueue } from '../framework/work-queue.js';

interface Named {
  metadata: { name?: string; namespace?: string };
}

export interface ResourceQuotaControllerDeps {
  client: InProcessClient;
  listers: ListerSource;
  names: ApiNames;
  log: Logger;
  /** How often every quota is recomputed (`--resource-quota-sync-period`, 5 minutes). */
  resyncMs?: number;
}

/** Resources whose changes (not only deletions) can change usage. */
const USAGE_ON_UPDATE = new Set(['/pods', '/services', '/persistentvolumeclaims']);
const ALWAYS_WATCHED = ['pods', 'services', 'persistentvolumeclaims', 'configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas'];

/** The quota's status as the objects say it should be. Pure apart from reading the listers. */
export function computeQuotaStatus(q: QuotaInfo, objectsOf: (group: string, resource: string) => readonly unknown[] | undefined, storageGroup: string, now = Date.now()): { hard: Record<string, string>; used: Record<string, string> } {
  const hard = { ...(q.spec?.hard ?? {}) };
  const names = Object.keys(hard);
  const resources = new Map<string, { group: string; resource: string }>();
  for (const n of names) {
    const r = resourceOfQuotaName(n, storageGroup);
    if (r) resources.set(`${r.group}/${r.resource}`, r);
  }
  let total: Usage = new Map();
  for (const { group, resource } of resources.values()) {
    for (const obj of objectsOf(group, resource) ?? []) {
      if (group === '' && resource === 'pods' && !podCounts(obj as QuotaPod, now)) continue;
      if (!inQuotaScopes(q, group, resource, obj)) continue;
      total = addUsage(total, objectUsage(group, resource, obj, storageGroup));
    }
  }
  const used: Record<string, string> = {};
  const computed = usageToList(total);
  for (const n of names.sort()) used[n] = computed[n] ?? '0';
  return { hard, used };
}

export function startResourceQuotaController(deps: ResourceQuotaControllerDeps): { stop(): void } {
  const storageGroup = deps.names.group('storage');
  const quotas = deps.listers.for<QuotaInfo>('', 'resourcequotas');
  const watched = new Map<string, Lister<Named>>();
  const stops: (() => void)[] = [];

  const listerOf = (group: string, resource: string): Lister<Named> | undefined => {
    const key = `${group}/${resource}`;
    const have = watched.get(key);
    if (have) return have;
    let lister: Lister<Named>;
    try {
      lister = deps.listers.for<Named>(group, resource);
      lister.list();
    } catch {
      // `count/` of a resource this server does not store: it counts nothing.
      return undefined;
    }
    watched.set(key, lister);
    stops.push(
      lister.onChange((e) => {
        if (e.type === 'DELETED' || (e.type === 'MODIFIED' && USAGE_ON_UPDATE.has(key) && usageChanged(group, resource, e.oldObject, e.object))) {
          enqueueNamespace(e.object.metadata.namespace ?? '');
        }
      }),
    );
    return lister;
  };

  // A recompute can undo a charge admission made for an object not yet stored: only changes that
  // give usage back start one (Kubernetes' replenishment), not every status write of a pod.
  const usageChanged = (group: string, resource: string, before: unknown, after: unknown): boolean => {
    if (before === undefined) return true;
    if (resource === 'pods' && podCounts(before as QuotaPod) !== podCounts(after as QuotaPod)) return true;
    const a = usageToList(objectUsage(group, resource, before, storageGroup));
    return !sameResources(a, usageToList(objectUsage(group, resource, after, storageGroup)));
  };
  const queue = new WorkQueue(
    async (key) => {
      const [namespace = '', name = ''] = key.split('/');
      const q = quotas.get(namespace, name);
      if (!q) return;
      const status = computeQuotaStatus(q, (g, r) => listerOf(g, r)?.list(namespace), storageGroup);
      if (sameResources(q.status?.hard, status.hard) && sameResources(q.status?.used, status.used)) return;
      try {
        await deps.client.resource('', 'resourcequotas').update(
          namespace,
          name,
          (current) => {
            if (!current) throw new Error('quota vanished');
            // Recomputed against the current spec: a limit changed meanwhile is picked up next round.
            (current as { status?: unknown }).status = status;
            return current;
          },
          'status',
        );
      } catch (e) {
        if (!isStatusError(e, 'NotFound')) throw e;
      }
    },
    (key, error, attempt) => deps.log.warn('resource quota sync failed; retrying', { key, attempt, error: error instanceof Error ? error.message : String(error) }),
    { workers: 1, minRetryMs: 50, maxRetryMs: 5_000 },
  );
  const keyOf = (q: Named): string => `${q.metadata.namespace ?? ''}/${q.metadata.name ?? ''}`;
  const enqueueNamespace = (namespace: string): void => {
    for (const q of quotas.list(namespace)) queue.add(keyOf(q));
  };
  const enqueueAll = (): void => {
    for (const q of quotas.list()) queue.add(keyOf(q));
  };

  for (const r of ALWAYS_WATCHED) listerOf('', r);
  stops.push(
    quotas.onChange((e) => {
      if (e.type === 'DELETED') return;
      // Its own status writes come back as changes too: only a change of limits (or a fresh quota) needs work.
      if (e.type === 'ADDED' || !sameResources(e.object.spec?.hard, e.object.status?.hard)) queue.add(keyOf(e.object));
      for (const n of Object.keys(e.object.spec?.hard ?? {})) {
        const r = resourceOfQuotaName(n, storageGroup);
        if (r) listerOf(r.group, r.resource);
      }
    }),
  );
  enqueueAll();
  const timer = setInterval(enqueueAll, deps.resyncMs ?? 5 * 60_000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      for (const s of stops) s();
      queue.stop();
    },
  };
}
