/**
 * The in-tree volume plugins only a pod's VolumeSource has (Kubernetes 1.25; mostly deprecated).
 * The sources persistent volumes share with pods are in types/volume-sources.ts.
 */
import { t, type Infer } from '../../../../schema/index.js';
import { LocalObjectReference } from '../types/index.js';

export const GitRepoVolumeSource = t.struct('core.v1.GitRepoVolumeSource', {
  repository: t.required(1, t.string(), { always: true }),
  revision: t.field(2, t.string()),
  directory: t.field(3, t.string()),
});
export type GitRepoVolumeSource = Infer<typeof GitRepoVolumeSource>;

export const ISCSIVolumeSource = t.struct('core.v1.ISCSIVolumeSource', {
  targetPortal: t.required(1, t.string(), { always: true }),
  iqn: t.required(2, t.string(), { always: true }),
  lun: t.required(3, t.int32(), { always: true }),
  iscsiInterface: t.field(4, t.string()),
  fsType: t.field(5, t.string()),
  readOnly: t.field(6, t.bool()),
  portals: t.field(7, t.list(t.string())),
  chapAuthDiscovery: t.field(8, t.bool()),
  chapAuthSession: t.field(11, t.bool()),
  secretRef: t.field(10, LocalObjectReference, { pointer: true }),
  initiatorName: t.field(12, t.string(), { pointer: true }),
});
export type ISCSIVolumeSource = Infer<typeof ISCSIVolumeSource>;

export const GlusterfsVolumeSource = t.struct('core.v1.GlusterfsVolumeSource', {
  endpoints: t.required(1, t.string(), { always: true }),
  path: t.required(2, t.string(), { always: true }),
  readOnly: t.field(3, t.bool()),
});
export type GlusterfsVolumeSource = Infer<typeof GlusterfsVolumeSource>;

export const RBDVolumeSource = t.struct('core.v1.RBDVolumeSource', {
  monitors: t.required(1, t.list(t.string()), { always: true }),
  image: t.required(2, t.string(), { always: true }),
  fsType: t.field(3, t.string()),
  pool: t.field(4, t.string()),
  user: t.field(5, t.string()),
  keyring: t.field(6, t.string()),
  secretRef: t.field(7, LocalObjectReference, { pointer: true }),
  readOnly: t.field(8, t.bool()),
});
export type RBDVolumeSource = Infer<typeof RBDVolumeSource>;

export const FlexVolumeSource = t.struct('core.v1.FlexVolumeSource', {
  driver: t.required(1, t.string(), { always: true }),
  fsType: t.field(2, t.string()),
  secretRef: t.field(3, LocalObjectReference, { pointer: true }),
  readOnly: t.field(4, t.bool()),
  options: t.field(5, t.map(t.string())),
});
export type FlexVolumeSource = Infer<typeof FlexVolumeSource>;

export const CinderVolumeSource = t.struct('core.v1.CinderVolumeSource', {
  volumeID: t.required(1, t.string(), { always: true }),
  fsType: t.field(2, t.string()),
  readOnly: t.field(3, t.bool()),
  secretRef: t.field(4, LocalObjectReference, { pointer: true }),
});
export type CinderVolumeSource = Infer<typeof CinderVolumeSource>;

export const CephFSVolumeSource = t.struct('core.v1.CephFSVolumeSource', {
  monitors: t.required(1, t.list(t.string()), { always: true }),
  path: t.field(2, t.string()),
  user: t.field(3, t.string()),
  secretFile: t.field(4, t.string()),
  secretRef: t.field(5, LocalObjectReference, { pointer: true }),
  readOnly: t.field(6, t.bool()),
});
export type CephFSVolumeSource = Infer<typeof CephFSVolumeSource>;

export const AzureFileVolumeSource = t.struct('core.v1.AzureFileVolumeSource', {
  secretName: t.required(1, t.string(), { always: true }),
  shareName: t.required(2, t.string(), { always: true }),
  readOnly: t.field(3, t.bool()),
});
export type AzureFileVolumeSource = Infer<typeof AzureFileVolumeSource>;

export const ScaleIOVolumeSource = t.struct('core.v1.ScaleIOVolumeSource', {
  gateway: t.required(1, t.string(), { always: true }),
  system: t.required(2, t.string(), { always: true }),
  secretRef: t.required(3, LocalObjectReference, { pointer: true }),
  sslEnabled: t.field(4, t.bool()),
  protectionDomain: t.field(5, t.string()),
  storagePool: t.field(6, t.string()),
  storageMode: t.field(7, t.string()),
  volumeName: t.field(8, t.string()),
  fsType: t.field(9, t.string()),
  readOnly: t.field(10, t.bool()),
});
export type ScaleIOVolumeSource = Infer<typeof ScaleIOVolumeSource>;

export const StorageOSVolumeSource = t.struct('core.v1.StorageOSVolumeSource', {
  volumeName: t.field(1, t.string()),
  volumeNamespace: t.field(2, t.string()),
  fsType: t.field(3, t.string()),
  readOnly: t.field(4, t.bool()),
  secretRef: t.field(5, LocalObjectReference, { pointer: true }),
});
export type StorageOSVolumeSource = Infer<typeof StorageOSVolumeSource>;

