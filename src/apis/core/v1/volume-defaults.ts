/**
 * Kubernetes' defaults for volume sources (SetDefaults_* of core/v1), applied wherever a source
 * appears: persistent volumes here, pod volumes sharing the same source types.
 */
import type { AzureDiskVolumeSource, HostPathVolumeSource, PersistentVolumeSource } from './types/volume-sources.js';

/** Mutates. */
export function defaultHostPath(s: HostPathVolumeSource): void {
  if (s.type === undefined) s.type = '';
}

/** Mutates. */
export function defaultAzureDisk(s: AzureDiskVolumeSource): void {
  if (s.cachingMode === undefined) s.cachingMode = 'ReadWrite';
  if (s.kind === undefined) s.kind = 'Shared';
  if (s.fsType === undefined) s.fsType = 'ext4';
  if (s.readOnly === undefined) s.readOnly = false;
}

/** Mutates the sources set in `spec`. */
export function defaultPersistentVolumeSource(spec: PersistentVolumeSource): void {
  if (spec.hostPath) defaultHostPath(spec.hostPath);
  if (spec.azureDisk) defaultAzureDisk(spec.azureDisk);
  if (spec.iscsi && !spec.iscsi.iscsiInterface) spec.iscsi.iscsiInterface = 'default';
  if (spec.rbd) {
    spec.rbd.pool ||= 'rbd';
    spec.rbd.user ||= 'admin';
    spec.rbd.keyring ||= '/etc/ceph/keyring';
  }
  if (spec.scaleIO) {
    spec.scaleIO.storageMode ||= 'ThinProvisioned';
    spec.scaleIO.fsType ||= 'xfs';
  }
}
