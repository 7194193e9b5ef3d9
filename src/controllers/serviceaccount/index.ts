/**
 * The serviceaccount controller (kube-controller-manager's `serviceaccount`): every active
 * namespace has the ServiceAccount `default`. A namespace is looked at when it is added or
 * changes, and again when an account in it is deleted, so a deleted `default` comes back. A
 * terminating namespace gets nothing (its deletion would refuse the write anyway).
 *
 * Reads through listers; writes through the in-process client; a failed namespace is retried
 * with backoff.
 */
import type { Namespace } from '../../apis/core/v1/namespace.js';
import type { ServiceAccount } from '../../apis/core/v1/serviceaccount.js';
import { DEFAULT_SERVICE_ACCOUNT } from '../../apis/core/v1/service-account-names.js';
import type { ResourceClient } from '../../client/in-process-client.js';
import { isStatusError } from '../../machinery/errors.js';
import type { Lister } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import { WorkQueue } from '../framework/work-queue.js';
import { isNamespaceTerminating } from '../write-errors.js';

export const SERVICE_ACCOUNT_CONTROLLER = 'serviceaccount';

/** The accounts every namespace must have. */
export const ACCOUNTS_TO_ENSURE: readonly string[] = [DEFAULT_SERVICE_ACCOUNT];

export interface ServiceAccountsControllerDeps {
  /** Where accounts are created (core/v1 serviceaccounts, through the in-process client). */
  serviceAccountClient: ResourceClient;
  namespaces: Lister<Namespace>;
  serviceAccounts: Lister<ServiceAccount>;
  log: Logger;
}

/** The accounts to create in `namespace`: none unless it is active, else those it lacks. Pure. */
export function missingAccounts(namespace: Namespace | undefined, has: (name: string) => boolean): string[] {
  if (!namespace || namespace.metadata.deletionTimestamp || (namespace.status?.phase ?? 'Active') !== 'Active') return [];
  return ACCOUNTS_TO_ENSURE.filter((name) => !has(name));
}

export function startServiceAccountsController(deps: ServiceAccountsControllerDeps): { stop(): void } {
  const { serviceAccountClient, namespaces, serviceAccounts, log } = deps;
  const sync = async (ns: string): Promise<void> => {
    for (const name of missingAccounts(namespaces.get('', ns), (n) => serviceAccounts.get(ns, n) !== undefined)) {
      try {
        await serviceAccountClient.create(ns, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: ns } });
      } catch (e) {
        // Made meanwhile, or the namespace went or began terminating: nothing left to do.
        if (isStatusError(e, 'AlreadyExists') || isStatusError(e, 'NotFound') || isNamespaceTerminating(e)) continue;
        throw e;
      }
    }
  };
  const queue = new WorkQueue(sync, (ns, error, attempt) => log.warn('serviceaccount controller: could not make the default service account; retrying', { namespace: ns, attempt, error: errorText(error) }), {
    workers: 2,
    minRetryMs: 50,
    maxRetryMs: 10_000,
  });
  const offNamespaces = namespaces.onChange((ev) => {
    if (ev.type !== 'DELETED') queue.add(ev.object.metadata.name ?? '');
  });
  const offAccounts = serviceAccounts.onChange((ev) => {
    if (ev.type === 'DELETED') queue.add(ev.object.metadata.namespace ?? '');
  });
  for (const ns of namespaces.list()) queue.add(ns.metadata.name ?? '');
  return {
    stop() {
      offNamespaces();
      offAccounts();
      queue.stop();
    },
  };
}


function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
