/**
 * The storage protection controllers (Kubernetes' pvc-protection and pv-protection): they remove
 * the finalizers StorageObjectInUseProtection adds once deletion may go on. A claim being deleted
 * loses `<label domain>/pvc-protection` when no scheduled, unfinished pod in its namespace mounts
 * it (directly, or as a generic ephemeral volume's claim `<pod>-<volume>`); a volume being deleted
 * loses `<label domain>/pv-protection` when it is not Bound. Deleting the last finalizer of an
 * object marked for deletion removes it.
 */
import type { InProcessClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import { isStatusError } from '../../machinery/errors.js';
import type { ListerSource } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import type { KubeObject } from '../../schema/index.js';
import { WorkQueue } from '../garbage-collector/work-queue.js';

interface Meta {
  metadata: { name?: string; namespace?: string; deletionTimestamp?: string; finalizers?: string[] };
}

/** What the controller reads of a Pod. */
export interface PodVolumesInfo extends Meta {
  spec?: { nodeName?: string; volumes?: { name: string; persistentVolumeClaim?: { claimName?: string }; ephemeral?: unknown }[] };
  status?: { phase?: string };
}

interface VolumeInfo extends Meta {
  status?: { phase?: string };
}

/** Whether `pod` keeps the claim `claim` (in the pod's namespace) in use. Pure. */
export function podUsesClaim(pod: PodVolumesInfo, claim: string): boolean {
  // Only a scheduled pod can have started using it; a finished one no longer does.
  if (!pod.spec?.nodeName) return false;
  if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return false;
  return (pod.spec.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === claim || (v.ephemeral !== undefined && `${pod.metadata.name ?? ''}-${v.name}` === claim));
}

export interface StorageProtectionDeps {
  client: InProcessClient;
  listers: ListerSource;
  names: ApiNames;
  log: Logger;
}

export function startStorageProtectionControllers(deps: StorageProtectionDeps): { stop(): void } {
  const pvcFinalizer = deps.names.labelKey('pvc-protection');
  const pvFinalizer = deps.names.labelKey('pv-protection');
  const claims = deps.listers.for<Meta>('', 'persistentvolumeclaims');
  const pods = deps.listers.for<PodVolumesInfo>('', 'pods');
  const volumes = deps.listers.for<VolumeInfo>('', 'persistentvolumes');

  const release = async (resource: string, namespace: string, name: string, finalizer: string): Promise<void> => {
    try {
      await deps.client.resource('', resource).update(namespace, name, (current) => {
        const obj = current as KubeObject;
        const rest = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
        if (rest.length) obj.metadata.finalizers = rest;
        else delete obj.metadata.finalizers;
        return obj;
      });
    } catch (e) {
      if (!isStatusError(e, 'NotFound')) throw e;
    }
  };
  const waiting = (o: Meta | undefined, finalizer: string): o is Meta => !!o?.metadata.deletionTimestamp && (o.metadata.finalizers ?? []).includes(finalizer);

  const onError = (what: string) => (key: string, error: unknown, attempt: number) =>
    deps.log.warn(`${what} protection failed; retrying`, { key, attempt, error: error instanceof Error ? error.message : String(error) });
  const options = { workers: 1, minRetryMs: 50, maxRetryMs: 5_000 };
  const claimQueue = new WorkQueue(async (key) => {
    const [namespace = '', name = ''] = key.split('/');
    const claim = claims.get(namespace, name);
    if (!waiting(claim, pvcFinalizer)) return;
    if (pods.list(namespace).some((p) => podUsesClaim(p, name))) return;
    await release('persistentvolumeclaims', namespace, name, pvcFinalizer);
  }, onError('claim'), options);
  const volumeQueue = new WorkQueue(async (name) => {
    const volume = volumes.get('', name);
    if (!waiting(volume, pvFinalizer) || volume.status?.phase === 'Bound') return;
    await release('persistentvolumes', '', name, pvFinalizer);
  }, onError('volume'), options);

  const claimKey = (o: Meta): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
  const enqueueDeletingClaims = (namespace: string): void => {
    for (const c of claims.list(namespace)) if (waiting(c, pvcFinalizer)) claimQueue.add(claimKey(c));
  };
  const stops = [
    claims.onChange((e) => e.type !== 'DELETED' && waiting(e.object, pvcFinalizer) && claimQueue.add(claimKey(e.object))),
    // A pod that finishes or goes away may free the claims waiting in its namespace.
    pods.onChange((e) => enqueueDeletingClaims(e.object.metadata.namespace ?? '')),
    volumes.onChange((e) => e.type !== 'DELETED' && waiting(e.object, pvFinalizer) && volumeQueue.add(e.object.metadata.name ?? '')),
  ];
  enqueueDeletingClaims('');
  for (const v of volumes.list()) if (waiting(v, pvFinalizer)) volumeQueue.add(v.metadata.name ?? '');
  return {
    stop() {
      for (const s of stops) s();
      claimQueue.stop();
      volumeQueue.stop();
    },
  };
}
