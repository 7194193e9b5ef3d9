/**
 * The root CA publisher (kube-controller-manager's `root-ca-cert-publisher`): every namespace holds
 * a ConfigMap with the CA that verifies this server (`kube-root-ca.crt` under k8s.io,
 * `orch-root-ca.crt` under orch.io, see rootCaConfigMapName) under the key `ca.crt`, with
 * Kubernetes' description annotation. The token volume of every pod projects it. A namespace is
 * looked at when it is added or becomes active, and when its ConfigMap changes or goes, so an
 * edited or deleted one is put back.
 */
import type { ConfigMap } from '../../apis/core/v1/configmap.js';
import type { Namespace } from '../../apis/core/v1/namespace.js';
import { ROOT_CA_KEY, rootCaConfigMapName } from '../../apis/core/v1/service-account-names.js';
import type { ResourceClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import { isStatusError } from '../../machinery/errors.js';
import type { Lister } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import { WorkQueue } from '../framework/work-queue.js';
import { isNamespaceTerminating } from '../write-errors.js';

export const ROOT_CA_CERT_PUBLISHER = 'root-ca-cert-publisher';

export interface RootCaPublisherDeps {
  names: ApiNames;
  /** core/v1 configmaps, through the in-process client. */
  configMapClient: ResourceClient;
  namespaces: Lister<Namespace>;
  configMaps: Lister<ConfigMap>;
  /** PEM of the CA clients in pods should trust ('' when the server has none). */
  caPem: string;
  log: Logger;
}

/** The description annotation, in Kubernetes' words with the domain's names. */
export function rootCaDescription(names: ApiNames): { key: string; value: string } {
  const server = names.domain === 'k8s.io' ? 'kube-apiserver' : 'API server';
  const cluster = names.domain === 'k8s.io' ? 'Kubernetes clusters' : 'clusters';
  return {
    key: names.labelKey('description'),
    value:
      `Contains a CA bundle that can be used to verify the ${server} when using internal endpoints such as the internal service IP or kubernetes.default.svc. ` +
      `No other usage is guaranteed across distributions of ${cluster}.`,
  };
}

/**
 * What to do about a namespace's ConfigMap: create it, update it (data other than exactly the CA,
 * or the description missing), or nothing. Pure.
 */
export function rootCaAction(current: ConfigMap | undefined, caPem: string, descriptionKey: string): 'create' | 'update' | 'none' {
  if (!current) return 'create';
  const data = current.data ?? {};
  const exact = Object.keys(data).length === 1 && data[ROOT_CA_KEY] === caPem;
  return exact && current.metadata.annotations?.[descriptionKey] ? 'none' : 'update';
}

export function startRootCaPublisher(deps: RootCaPublisherDeps): { stop(): void } {
  const { names, configMapClient, namespaces, configMaps, caPem, log } = deps;
  const name = rootCaConfigMapName(names);
  const description = rootCaDescription(names);
  const sync = async (ns: string): Promise<void> => {
    const namespace = namespaces.get('', ns);
    if (!namespace) return;
    const action = rootCaAction(configMaps.get(ns, name), caPem, description.key);
    if (action === 'none') return;
    try {
      if (action === 'create') {
        await configMapClient.create(ns, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, namespace: ns, annotations: { [description.key]: description.value } },
          data: { [ROOT_CA_KEY]: caPem },
        } as ConfigMap);
        return;
      }
      await configMapClient.update(ns, name, (current) => {
        const cm = current as ConfigMap;
        cm.data = { [ROOT_CA_KEY]: caPem };
        cm.metadata.annotations = { ...cm.metadata.annotations, [description.key]: description.value };
        return cm;
      });
    } catch (e) {
      // A namespace that went or is terminating needs no ConfigMap; one made meanwhile is looked at again on its event.
      if (isStatusError(e, 'NotFound') || isStatusError(e, 'AlreadyExists') || isNamespaceTerminating(e)) return;
      throw e;
    }
  };
  const queue = new WorkQueue(sync, (ns, error, attempt) => log.warn('root CA publisher: could not publish the root CA ConfigMap; retrying', { namespace: ns, attempt, error: error instanceof Error ? error.message : String(error) }), {
    workers: 2,
    minRetryMs: 50,
    maxRetryMs: 10_000,
  });
  const offNamespaces = namespaces.onChange((ev) => {
    if (ev.type === 'ADDED' || (ev.type === 'MODIFIED' && (ev.object.status?.phase ?? 'Active') === 'Active')) queue.add(ev.object.metadata.name ?? '');
  });
  const offConfigMaps = configMaps.onChange((ev) => {
    if (ev.object.metadata.name === name && ev.type !== 'ADDED') queue.add(ev.object.metadata.namespace ?? '');
  });
  for (const ns of namespaces.list()) queue.add(ns.metadata.name ?? '');
  return {
    stop() {
      offNamespaces();
      offConfigMaps();
      queue.stop();
    },
  };
}
