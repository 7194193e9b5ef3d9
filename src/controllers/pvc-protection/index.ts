/**
 * The PVC protection controller (kube-controller-manager's `pvc-protection`): a claim being
 * deleted keeps its `<label domain>/pvc-protection` finalizer (document 3: `orch.io/pvc-protection`)
 * while a pod uses it, and loses it once none does, so the deletion completes. As Kubernetes 1.25,
 * a pod uses a claim when it is scheduled (has a node) and names the claim in a
 * `persistentVolumeClaim` volume, or owns it through a generic ephemeral volume and has not shut
 * down (deleted with a zero grace period). Before a finalizer goes, the pods are listed from the
 * store, not the cache, so a pod created an instant ago still counts.
 *
 * Adding the finalizer is the StorageObjectInUseProtection admission plugin's work; this
 * controller only removes it.
 */
import type { PersistentVolumeClaim } from '../../apis/core/v1/persistentvolumeclaim.js';
import type { Pod } from '../../apis/core/v1/pod.js';
import type { ResourceClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import type { Lister } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import { WorkQueue } from '../garbage-collector/work-queue.js';
import { removeFinalizer } from '../remove-finalizer.js';

export const PVC_PROTECTION = 'pvc-protection';

export function pvcProtectionFinalizer(names: ApiNames): string {
  return names.labelKey('pvc-protection');
}

export interface PvcProtectionDeps {
  names: ApiNames;
  /** core/v1 persistentvolumeclaims and pods, through the in-process client. */
  claimClient: ResourceClient;
  podClient: ResourceClient;
  claims: Lister<PersistentVolumeClaim>;
  pods: Lister<Pod>;
  log: Logger;
}

/** Kubelet is done with the pod, or it was force-deleted: it holds no claim any more. */
function isShutDown(pod: Pod): boolean {
  return !!pod.metadata.deletionTimestamp && pod.metadata.deletionGracePeriodSeconds === 0;
}

/** The claims a pod names, by claim name: its own claims and its generic ephemeral volumes' (`<pod>-<volume>`). Pure. */
export function claimNamesOf(pod: Pod): string[] {
  return (pod.spec.volumes ?? []).flatMap((v) => {
    if (v.persistentVolumeClaim) return [v.persistentVolumeClaim.claimName];
    if (v.ephemeral) return [`${pod.metadata.name ?? ''}-${v.name}`];
    return [];
  });
}

/** Whether `pod` keeps `claim` in use, as Kubernetes 1.25's podUsesPVC decides. Pure. */
export function podUsesClaim(pod: Pod, claim: PersistentVolumeClaim): boolean {
  if (!pod.spec.nodeName || pod.metadata.namespace !== claim.metadata.namespace) return false;
  const name = claim.metadata.name ?? '';
  return (pod.spec.volumes ?? []).some((v) => {
    if (v.persistentVolumeClaim) return v.persistentVolumeClaim.claimName === name;
    if (!v.ephemeral || isShutDown(pod) || `${pod.metadata.name ?? ''}-${v.name}` !== name) return false;
    // An ephemeral claim of that name counts only when this pod owns it.
    return (claim.metadata.ownerReferences ?? []).some((o) => o.controller === true && o.uid === pod.metadata.uid);
  });
}

export function startPvcProtectionController(deps: PvcProtectionDeps): { stop(): void } {
  const { names, claimClient, podClient, claims, pods, log } = deps;
  const finalizer = pvcProtectionFinalizer(names);
  const sync = async (key: string): Promise<void> => {
    const [ns, name] = splitKey(key);
    const claim = claims.get(ns, name);
    if (!claim?.metadata.deletionTimestamp || !claim.metadata.finalizers?.includes(finalizer)) return;
    if (pods.list(ns).some((p) => podUsesClaim(p, claim))) return;
    // The cache may not have a pod made an instant ago; the store has.
    const live = (await podClient.list(ns)) as unknown as Pod[];
    if (live.some((p) => podUsesClaim(p, claim))) return;
    await removeFinalizer(claimClient, ns, name, finalizer, claim.metadata.uid);
    log.debug('pvc protection: removed the finalizer of a claim no pod uses', { claim: key });
  };
  const queue = new WorkQueue(sync, (key, error, attempt) => log.warn('pvc protection: could not release a claim; retrying', { claim: key, attempt, error: error instanceof Error ? error.message : String(error) }), {
    workers: 2,
    minRetryMs: 50,
    maxRetryMs: 10_000,
  });
  const offClaims = claims.onChange((ev) => {
    if (ev.type !== 'DELETED' && ev.object.metadata.deletionTimestamp) queue.add(keyOf(ev.object));
  });
  const offPods = pods.onChange((ev) => {
    // A pod that goes, shuts down or changes may release its claims; one that appears holds them (nothing to do).
    const ns = ev.object.metadata.namespace ?? '';
    const names = new Set([...claimNamesOf(ev.object), ...(ev.oldObject ? claimNamesOf(ev.oldObject) : [])]);
    for (const claimName of names) {
      const c = claims.get(ns, claimName);
      if (c?.metadata.deletionTimestamp) queue.add(`${ns}/${claimName}`);
    }
  });
  for (const c of claims.list()) if (c.metadata.deletionTimestamp) queue.add(keyOf(c));
  return {
    stop() {
      offClaims();
      offPods();
      queue.stop();
    },
  };
}

function keyOf(o: { metadata: { namespace?: string; name?: string } }): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}
