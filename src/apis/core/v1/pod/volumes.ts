/** Volumes of a pod: the common sources (with their validation elsewhere), projections, CSI and ephemeral claims. */
import { ObjectMeta, t, type Infer } from '../../../../schema/index.js';
import { LocalObjectReference, PersistentVolumeClaimSpec } from '../types/index.js';
import { ObjectFieldSelector, ResourceFieldSelector } from './container.js';
import {
  AWSElasticBlockStoreVolumeSource,
  AzureDiskVolumeSource,
  FCVolumeSource,
  FlockerVolumeSource,
  GCEPersistentDiskVolumeSource,
  HostPathVolumeSource,
  NFSVolumeSource,
  PhotonPersistentDiskVolumeSource,
  PortworxVolumeSource,
  QuobyteVolumeSource,
  VsphereVirtualDiskVolumeSource,
} from '../types/volume-sources.js';
import {
  AzureFileVolumeSource,
  CephFSVolumeSource,
  CinderVolumeSource,
  FlexVolumeSource,
  GitRepoVolumeSource,
  GlusterfsVolumeSource,
  ISCSIVolumeSource,
  RBDVolumeSource,
  ScaleIOVolumeSource,
  StorageOSVolumeSource,
} from './volume-sources-legacy.js';

export const KeyToPath = t.struct('core.v1.KeyToPath', {
  key: t.required(1, t.string(), { always: true }),
  path: t.required(2, t.string(), { always: true }),
  mode: t.field(3, t.int32(), { pointer: true }),
});
export type KeyToPath = Infer<typeof KeyToPath>;

export const EmptyDirVolumeSource = t.struct('core.v1.EmptyDirVolumeSource', {
  medium: t.field(1, t.string()),
  sizeLimit: t.field(2, t.quantity(), { pointer: true }),
});
export type EmptyDirVolumeSource = Infer<typeof EmptyDirVolumeSource>;

export const SecretVolumeSource = t.struct('core.v1.SecretVolumeSource', {
  secretName: t.field(1, t.string()),
  items: t.field(2, t.list(KeyToPath)),
  defaultMode: t.field(3, t.int32(), { pointer: true }),
  optional: t.field(4, t.bool(), { pointer: true }),
});
export type SecretVolumeSource = Infer<typeof SecretVolumeSource>;

export const ConfigMapVolumeSource = t.struct('core.v1.ConfigMapVolumeSource', {
  ...t.inline(1, 'localObjectReference', LocalObjectReference),
  items: t.field(2, t.list(KeyToPath)),
  defaultMode: t.field(3, t.int32(), { pointer: true }),
  optional: t.field(4, t.bool(), { pointer: true }),
});
export type ConfigMapVolumeSource = Infer<typeof ConfigMapVolumeSource>;

export const PersistentVolumeClaimVolumeSource = t.struct('core.v1.PersistentVolumeClaimVolumeSource', {
  claimName: t.required(1, t.string(), { always: true }),
  readOnly: t.field(2, t.bool()),
});
export type PersistentVolumeClaimVolumeSource = Infer<typeof PersistentVolumeClaimVolumeSource>;

export const DownwardAPIVolumeFile = t.struct('core.v1.DownwardAPIVolumeFile', {
  path: t.required(1, t.string(), { always: true }),
  fieldRef: t.field(2, ObjectFieldSelector, { pointer: true }),
  resourceFieldRef: t.field(3, ResourceFieldSelector, { pointer: true }),
  mode: t.field(4, t.int32(), { pointer: true }),
});
export type DownwardAPIVolumeFile = Infer<typeof DownwardAPIVolumeFile>;

export const DownwardAPIVolumeSource = t.struct('core.v1.DownwardAPIVolumeSource', {
  items: t.field(1, t.list(DownwardAPIVolumeFile)),
  defaultMode: t.field(2, t.int32(), { pointer: true }),
});
export type DownwardAPIVolumeSource = Infer<typeof DownwardAPIVolumeSource>;

export const SecretProjection = t.struct('core.v1.SecretProjection', {
  ...t.inline(1, 'localObjectReference', LocalObjectReference),
  items: t.field(2, t.list(KeyToPath)),
  optional: t.field(4, t.bool(), { pointer: true }),
});
export type SecretProjection = Infer<typeof SecretProjection>;

export const ConfigMapProjection = t.struct('core.v1.ConfigMapProjection', {
  ...t.inline(1, 'localObjectReference', LocalObjectReference),
  items: t.field(2, t.list(KeyToPath)),
  optional: t.field(4, t.bool(), { pointer: true }),
});
export type ConfigMapProjection = Infer<typeof ConfigMapProjection>;

export const DownwardAPIProjection = t.struct('core.v1.DownwardAPIProjection', {
  items: t.field(1, t.list(DownwardAPIVolumeFile)),
});
export type DownwardAPIProjection = Infer<typeof DownwardAPIProjection>;

export const ServiceAccountTokenProjection = t.struct('core.v1.ServiceAccountTokenProjection', {
  audience: t.field(1, t.string()),
  expirationSeconds: t.field(2, t.int64(), { pointer: true }),
  path: t.required(3, t.string(), { always: true }),
});
export type ServiceAccountTokenProjection = Infer<typeof ServiceAccountTokenProjection>;

export const VolumeProjection = t.struct('core.v1.VolumeProjection', {
  secret: t.field(1, SecretProjection, { pointer: true }),
  downwardAPI: t.field(2, DownwardAPIProjection, { pointer: true }),
  configMap: t.field(3, ConfigMapProjection, { pointer: true }),
  serviceAccountToken: t.field(4, ServiceAccountTokenProjection, { pointer: true }),
});
export type VolumeProjection = Infer<typeof VolumeProjection>;

export const ProjectedVolumeSource = t.struct('core.v1.ProjectedVolumeSource', {
  sources: t.field(1, t.list(VolumeProjection), { always: true }),
  defaultMode: t.field(2, t.int32(), { pointer: true }),
});
export type ProjectedVolumeSource = Infer<typeof ProjectedVolumeSource>;

export const CSIVolumeSource = t.struct('core.v1.CSIVolumeSource', {
  driver: t.required(1, t.string(), { always: true }),
  readOnly: t.field(2, t.bool(), { pointer: true }),
  fsType: t.field(3, t.string(), { pointer: true }),
  volumeAttributes: t.field(4, t.map(t.string())),
  nodePublishSecretRef: t.field(5, LocalObjectReference, { pointer: true }),
});
export type CSIVolumeSource = Infer<typeof CSIVolumeSource>;

export const PersistentVolumeClaimTemplate = t.struct('core.v1.PersistentVolumeClaimTemplate', {
  metadata: t.field(1, ObjectMeta),
  spec: t.required(2, PersistentVolumeClaimSpec),
});
export type PersistentVolumeClaimTemplate = Infer<typeof PersistentVolumeClaimTemplate>;

export const EphemeralVolumeSource = t.struct('core.v1.EphemeralVolumeSource', {
  volumeClaimTemplate: t.field(1, PersistentVolumeClaimTemplate, { pointer: true }),
});
export type EphemeralVolumeSource = Infer<typeof EphemeralVolumeSource>;

export const VolumeSource = t.struct('core.v1.VolumeSource', {
  hostPath: t.field(1, HostPathVolumeSource, { pointer: true }),
  emptyDir: t.field(2, EmptyDirVolumeSource, { pointer: true }),
  gcePersistentDisk: t.field(3, GCEPersistentDiskVolumeSource, { pointer: true }),
  awsElasticBlockStore: t.field(4, AWSElasticBlockStoreVolumeSource, { pointer: true }),
  gitRepo: t.field(5, GitRepoVolumeSource, { pointer: true }),
  secret: t.field(6, SecretVolumeSource, { pointer: true }),
  nfs: t.field(7, NFSVolumeSource, { pointer: true }),
  iscsi: t.field(8, ISCSIVolumeSource, { pointer: true }),
  glusterfs: t.field(9, GlusterfsVolumeSource, { pointer: true }),
  persistentVolumeClaim: t.field(10, PersistentVolumeClaimVolumeSource, { pointer: true }),
  rbd: t.field(11, RBDVolumeSource, { pointer: true }),
  flexVolume: t.field(12, FlexVolumeSource, { pointer: true }),
  cinder: t.field(13, CinderVolumeSource, { pointer: true }),
  cephfs: t.field(14, CephFSVolumeSource, { pointer: true }),
  flocker: t.field(15, FlockerVolumeSource, { pointer: true }),
  downwardAPI: t.field(16, DownwardAPIVolumeSource, { pointer: true }),
  fc: t.field(17, FCVolumeSource, { pointer: true }),
  azureFile: t.field(18, AzureFileVolumeSource, { pointer: true }),
  configMap: t.field(19, ConfigMapVolumeSource, { pointer: true }),
  vsphereVolume: t.field(20, VsphereVirtualDiskVolumeSource, { pointer: true }),
  quobyte: t.field(21, QuobyteVolumeSource, { pointer: true }),
  azureDisk: t.field(22, AzureDiskVolumeSource, { pointer: true }),
  photonPersistentDisk: t.field(23, PhotonPersistentDiskVolumeSource, { pointer: true }),
  projected: t.field(26, ProjectedVolumeSource, { pointer: true }),
  portworxVolume: t.field(24, PortworxVolumeSource, { pointer: true }),
  scaleIO: t.field(25, ScaleIOVolumeSource, { pointer: true }),
  storageos: t.field(27, StorageOSVolumeSource, { pointer: true }),
  csi: t.field(28, CSIVolumeSource, { pointer: true }),
  ephemeral: t.field(29, EphemeralVolumeSource, { pointer: true }),
});
export type VolumeSource = Infer<typeof VolumeSource>;

export const Volume = t.struct('core.v1.Volume', {
  name: t.required(1, t.string(), { always: true }),
  ...t.inline(2, 'volumeSource', VolumeSource),
});
export type Volume = Infer<typeof Volume>;

