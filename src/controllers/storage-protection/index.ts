/**
 * The storage protection controllers (kube-controller-manager's pvc-protection and pv-protection): they remove
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
import { WorkQueue } from '../framework/work-queue.js';

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

type Release = (resource: string, namespace: string, name: string, finalizer: string) => Promise<void>;

/** Removes `finalizer` from the object; gone already is fine. */
function releaser(client: InProcessClient): Release {
  return async (resource, namespace, name, finalizer) => {
    try {
      await client.resource('', resource).update(namespace, name, (current) => {
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
}

const waiting = (o: Meta | undefined, finalizer: string): o is Meta => !!o?.metadata.deletionTimestamp && (o.metadata.finalizers ?? []).includes(finalizer);
const QUEUE_OPTIONS = { workers: 1, minRetryMs: 50, maxRetryMs: 5_000 };
const onError = (log: Logger, what: string) => (key: string, error: unknown, attempt: number) =>
  log.warn(`${what} protection failed; retrying`, { key, attempt, error: error instanceof Error ? error.message : String(error) });

/** pvc-protection: a claim being deleted is released once no scheduled, unfinished pod uses it. */
export function startPvcProtectionController(deps: StorageProtectionDeps): { stop(): void } {
  const finalizer = deps.names.labelKey('pvc-protection');
  const claims = deps.listers.for<Meta>('', 'persistentvolumeclaims');
  const pods = deps.listers.for<PodVolumesInfo>('', 'pods');
  const release = releaser(deps.client);
  const queue = new WorkQueue(async (key) => {
    const [namespace = '', name = ''] = key.split('/');
    const claim = claims.get(namespace, name);
    if (!waiting(claim, finalizer)) return;
    if (pods.list(namespace).some((p) => podUsesClaim(p, name))) return;
    await release('persistentvolumeclaims', namespace, name, finalizer);
  }, onError(deps.log, 'claim'), QUEUE_OPTIONS);
  const claimKey = (o: Meta): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
  const enqueueDeletingClaims = (namespace: string): void => {
    for (const c of claims.list(namespace)) if (waiting(c, finalizer)) queue.add(claimKey(c));
  };
  const stops = [
    claims.onChange((e) => e.type !== 'DELETED' && waiting(e.object, finalizer) && queue.add(claimKey(e.object))),
    // A pod that finishes or goes away may free the claims waiting in its namespace.
    pods.onChange((e) => enqueueDeletingClaims(e.object.metadata.namespace ?? '')),
  ];
  enqueueDeletingClaims('');
  return {
    stop() {
      for (const s of stops) s();
      queue.stop();
    },
  };
}

/** pv-protection: a volume being deleted is released once it is not Bound. */
export function startPvProtectionController(deps: StorageProtectionDeps): { stop(): void } {
  const finalizer = deps.names.labelKey('pv-protection');
  const volumes = deps.listers.for<VolumeInfo>('', 'persistentvolumes');
  const release = releaser(deps.client);
  const queue = new WorkQueue(async (name) => {
    const volume = volumes.get('', name);
    if (!waiting(volume, finalizer) || volume.status?.phase === 'Bound') return;
    await release('persistentvolumes', '', name, finalizer);
  }, onError(deps.log, 'volume'), QUEUE_OPTIONS);
  const stop = volumes.onChange((e) => e.type !== 'DELETED' && waiting(e.object, finalizer) && queue.add(e.object.metadata.name ?? ''));
  for (const v of volumes.list()) if (waiting(v, finalizer)) queue.add(v.metadata.name ?? '');
  return {
    stop() {
      stop();
      queue.stop();
    },
  };
}
