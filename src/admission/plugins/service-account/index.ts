/**
 * ServiceAccount admission (document 3's five steps, Kubernetes 1.25's plugin), for pods:
 *
 * 1. a pod that names no account gets `default`;
 * 2. a pod whose account does not exist is refused (403, `error looking up service account ...`);
 * 3. unless automounting is off (see shouldAutomount: the documents and Kubernetes differ), the pod
 *    gets the bound token volume;
 * 4. mounted read-only at the token path in every init container and container;
 * 5. a pod with no imagePullSecrets gets its account's.
 *
 * As Kubernetes, the pod is changed only on create (its spec is immutable afterwards), a mirror pod
 * is never changed and may name no account, Secret or token projection, and an account annotated
 * `<label domain>/enforce-mountable-secrets: "true"` limits its pods (and ephemeral containers added
 * later) to the Secrets it lists. A pod in a namespace that is missing or terminating is left to
 * NamespaceLifecycle, which refuses it with the right reason.
 */
import type { Pod } from '../../../apis/core/v1/pod.js';
import type { ServiceAccount } from '../../../apis/core/v1/serviceaccount.js';
import { DEFAULT_SERVICE_ACCOUNT, mirrorPodAnnotation } from '../../../apis/core/v1/service-account-names.js';
import type { ApiNames } from '../../../machinery/api-names.js';
import { errors } from '../../../machinery/errors.js';
import type { Lister } from '../../../machinery/lister.js';
import { generateName as generateObjectName } from '../../../registry/object-meta.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../types.js';
import { phaseOf, type NamespaceInfo } from '../namespace-lifecycle/index.js';
import { disallowedEphemeralSecretReference, disallowedSecretReference, enforcesMountableSecrets, podSecretNames } from './secret-references.js';
import { mountServiceAccountToken, shouldAutomount } from './token-volume.js';

export const SERVICE_ACCOUNT_PLUGIN = 'ServiceAccount';

export interface ServiceAccountAdmissionDeps {
  serviceAccounts: Lister<ServiceAccount>;
  namespaces: Lister<NamespaceInfo>;
  /**
   * How long a pod waits for its namespace's `default` account, which the serviceaccount
   * controller makes just after the namespace (Kubernetes retries for up to about 2 s).
   */
  defaultAccountWaitMs?: number;
  /** Names new token volumes (tests fix it). */
  generateName?: (prefix: string) => string;
}

const POD_RESOURCE = { group: '', resource: 'pods' } as const;

/** Whether the plugin looks at this request at all: pods and their ephemeral containers. */
function podOf(a: AdmissionAttributes): Pod | undefined {
  if (a.group !== '' || a.resource !== 'pods' || (a.subresource !== '' && a.subresource !== 'ephemeralcontainers') || !a.object) return undefined;
  return a.object as unknown as Pod;
}

export function serviceAccountAdmission(names: ApiNames, deps: ServiceAccountAdmissionDeps): AdmissionPlugin {
  const { serviceAccounts, namespaces } = deps;
  const waitMs = deps.defaultAccountWaitMs ?? 2_000;
  const generateName = deps.generateName ?? generateObjectName;
  const mirrorAnnotation = mirrorPodAnnotation(names);
  const enforceAnnotation = names.labelKey('enforce-mountable-secrets');
  const forbid = (a: AdmissionAttributes, why: string) => errors.forbidden(POD_RESOURCE, a.name, why);

  /** The account, or undefined once it is certainly missing (waiting a little for `default`). */
  const lookUp = async (namespace: string, name: string, signal: AbortSignal): Promise<ServiceAccount | undefined> => {
    const found = serviceAccounts.get(namespace, name);
    if (found) return found;
    await serviceAccounts.synced(signal);
    const synced = serviceAccounts.get(namespace, name);
    if (synced || name !== DEFAULT_SERVICE_ACCOUNT) return synced;
    return waitForAccount(serviceAccounts, namespace, name, waitMs, signal);
  };

  /** The account, or a 403 in Kubernetes' words; undefined when the namespace is NamespaceLifecycle's to refuse. */
  const accountFor = async (a: AdmissionAttributes, pod: Pod): Promise<ServiceAccount | undefined> => {
    const name = pod.spec.serviceAccountName ?? '';
    if (!serviceAccounts.get(a.namespace, name)) {
      await namespaces.synced(a.signal);
      if (phaseOf(namespaces.get('', a.namespace)) !== 'active') return undefined;
    }
    const sa = await lookUp(a.namespace, name, a.signal);
    if (!sa) throw forbid(a, `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`);
    return sa;
  };

  const checkMirrorPod = (a: AdmissionAttributes, pod: Pod): void => {
    if (pod.spec.serviceAccountName) throw forbid(a, 'a mirror pod may not reference service accounts');
    if (podSecretNames(pod.spec).length > 0) throw forbid(a, 'a mirror pod may not reference secrets');
    for (const v of pod.spec.volumes ?? []) {
      if (v.projected?.sources?.some((s) => s.serviceAccountToken)) throw forbid(a, 'a mirror pod may not use ServiceAccountToken volume projections');
    }
  };

  const isMirror = (pod: Pod): boolean => pod.metadata.annotations?.[mirrorAnnotation] !== undefined;

  const validate = async (a: AdmissionAttributes): Promise<void> => {
    const pod = podOf(a);
    if (!pod) return;
    if (a.operation === 'UPDATE' && a.subresource === 'ephemeralcontainers') {
      if (!pod.spec.serviceAccountName) throw forbid(a, `no service account specified for pod ${a.namespace}/${a.name}`);
      const sa = await accountFor(a, pod);
      const refused = sa && enforcesMountableSecrets(sa, enforceAnnotation) ? disallowedEphemeralSecretReference(sa, pod.spec) : undefined;
      if (refused) throw forbid(a, refused);
      return;
    }
    if (a.operation !== 'CREATE' || a.subresource !== '') return;
    if (isMirror(pod)) return checkMirrorPod(a, pod);
    if (!pod.spec.serviceAccountName) throw forbid(a, `no service account specified for pod ${a.namespace}/${a.name}`);
    const sa = await accountFor(a, pod);
    const refused = sa && enforcesMountableSecrets(sa, enforceAnnotation) ? disallowedSecretReference(sa, pod.spec) : undefined;
    if (refused) throw forbid(a, refused);
  };

  return {
    name: SERVICE_ACCOUNT_PLUGIN,
    async admit(a) {
      const pod = podOf(a);
      if (!pod || a.operation !== 'CREATE' || a.subresource !== '') return;
      if (isMirror(pod)) return checkMirrorPod(a, pod);
      if (!pod.spec.serviceAccountName) pod.spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT;
      // The deprecated spelling always follows the new one on a stored pod.
      pod.spec.serviceAccount = pod.spec.serviceAccountName;
      const sa = await accountFor(a, pod);
      if (!sa) return;
      if (shouldAutomount(names, sa, pod)) mountServiceAccountToken(names, pod, generateName);
      if (!pod.spec.imagePullSecrets?.length && sa.imagePullSecrets?.length) {
        pod.spec.imagePullSecrets = sa.imagePullSecrets.map((s) => ({ name: s.name ?? '' }));
      }
      await validate(a);
    },
    validate,
  };
}

/** Resolves with the account once the lister has it, or undefined after `ms`. */
function waitForAccount(lister: Lister<ServiceAccount>, namespace: string, name: string, ms: number, signal: AbortSignal): Promise<ServiceAccount | undefined> {
  return new Promise((resolve) => {
    const done = (sa: ServiceAccount | undefined): void => {
      clearTimeout(timer);
      off();
      signal.removeEventListener('abort', onAbort);
      resolve(sa);
    };
    const onAbort = (): void => done(undefined);
    const off = lister.onChange((ev) => {
      if (ev.type !== 'DELETED' && ev.object.metadata.namespace === namespace && ev.object.metadata.name === name) done(ev.object);
    });
    const timer = setTimeout(() => done(lister.get(namespace, name)), ms);
    signal.addEventListener('abort', onAbort);
    // Made between the synced read and subscribing: seen now.
    const now = lister.get(namespace, name);
    if (now) done(now);
  });
}
