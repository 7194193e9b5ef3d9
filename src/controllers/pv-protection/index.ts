/**
 * The PV protection controller (kube-controller-manager's `pv-protection`): a volume being deleted
 * keeps its `<label domain>/pv-protection` finalizer (document 3: `orch.io/pv-protection`) while a
 * claim is bound to it, which Kubernetes 1.25 reads from the volume's `status.phase` being
 * `Bound`, and loses it otherwise, so the deletion completes. Adding the finalizer is the
 * StorageObjectInUseProtection admission plugin's work; this controller only removes it.
 */
import type { PersistentVolume } from '../../apis/core/v1/persistentvolume.js';
import type { ResourceClient } from '../../client/in-process-client.js';
import type { ApiNames } from '../../machinery/api-names.js';
import type { Lister } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import { WorkQueue } from '../garbage-collector/work-queue.js';
import { removeFinalizer } from '../remove-finalizer.js';

export const PV_PROTECTION = 'pv-protection';

export function pvProtectionFinalizer(names: ApiNames): string {
  return names.labelKey('pv-protection');
}

export interface PvProtectionDeps {
  names: ApiNames;
  /** core/v1 persistentvolumes, through the in-process client. */
  volumeClient: ResourceClient;
  volumes: Lister<PersistentVolume>;
  log: Logger;
}

/** Whether the volume's finalizer may go now: it is being deleted, holds it, and no claim is bound. Pure. */
export function mayReleaseVolume(pv: PersistentVolume, finalizer: string): boolean {
  return !!pv.metadata.deletionTimestamp && !!pv.metadata.finalizers?.includes(finalizer) && pv.status.phase !== 'Bound';
}

export function startPvProtectionController(deps: PvProtectionDeps): { stop(): void } {
  const { names, volumeClient, volumes, log } = deps;
  const finalizer = pvProtectionFinalizer(names);
  const sync = async (name: string): Promise<void> => {
    const pv = volumes.get('', name);
    if (!pv || !mayReleaseVolume(pv, finalizer)) return;
    await removeFinalizer(volumeClient, '', name, finalizer, pv.metadata.uid);
    log.debug('pv protection: removed the finalizer of a volume no claim is bound to', { volume: name });
  };
  const queue = new WorkQueue(sync, (name, error, attempt) => log.warn('pv protection: could not release a volume; retrying', { volume: name, attempt, error: error instanceof Error ? error.message : String(error) }), {
    workers: 1,
    minRetryMs: 50,
    maxRetryMs: 10_000,
  });
  const off = volumes.onChange((ev) => {
    if (ev.type !== 'DELETED' && ev.object.metadata.deletionTimestamp) queue.add(ev.object.metadata.name ?? '');
  });
  for (const pv of volumes.list()) if (pv.metadata.deletionTimestamp) queue.add(pv.metadata.name ?? '');
  return {
    stop() {
      off();
      queue.stop();
    },
  };
}
