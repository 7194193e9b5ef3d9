/**
 * Volume sources of core/v1: every member of PersistentVolumeSource. Those Kubernetes also uses in
 * a pod's VolumeSource (hostPath, nfs, fc, gcePersistentDisk, ...) are defined only here and the
 * pod's volumes import them; the pod-only sources are in pod/volume-sources-legacy.ts. Protobuf
 * numbers follow Kubernetes' core/v1 generated.proto.
 */
import { t, type Infer } from '../../../../schema/index.js';
import { ObjectReference, SecretReference } from './references.js';

const str = () => t.string();

export const GCEPersistentDiskVolumeSource = t.struct('core.v1.GCEPersistentDiskVolumeSource', {
  pdName: t.required(1, str(), { always: true }),
  fsType: t.field(2, str()),
  partition: t.field(3, t.int32()),
  readOnly: t.field(4, t.bool()),
});
export type GCEPersistentDiskVolumeSource = Infer<typeof GCEPersistentDiskVolumeSource>;

export const AWSElasticBlockStoreVolumeSource = t.struct('core.v1.AWSElasticBlockStoreVolumeSource', {
  volumeID: t.required(1, str(), { always: true }),
  fsType: t.field(2, str()),
  partition: t.field(3, t.int32()),
  readOnly: t.field(4, t.bool()),
});
export type AWSElasticBlockStoreVolumeSource = Infer<typeof AWSElasticBlockStoreVolumeSource>;

export const HOST_PATH_TYPES = ['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'] as const;

export const HostPathVolumeSource = t.struct('core.v1.HostPathVolumeSource', {
  path: t.required(1, str(), { always: true }),
  type: t.field(2, t.string({ enum: HOST_PATH_TYPES }), { pointer: true }),
});

export const GlusterfsPersistentVolumeSource = t.struct('core.v1.GlusterfsPersistentVolumeSource', {
  endpoints: t.required(1, str(), { always: true }),
  path: t.required(2, str(), { always: true }),
  readOnly: t.field(3, t.bool()),
  endpointsNamespace: t.field(4, str(), { pointer: true }),
});

export const NFSVolumeSource = t.struct('core.v1.NFSVolumeSource', {
  server: t.required(1, str(), { always: true }),
  path: t.required(2, str(), { always: true }),
  readOnly: t.field(3, t.bool()),
});
export type NFSVolumeSource = Infer<typeof NFSVolumeSource>;

export const RBDPersistentVolumeSource = t.struct('core.v1.RBDPersistentVolumeSource', {
  monitors: t.required(1, t.list(str()), { always: true }),
  image: t.required(2, str(), { always: true }),
  fsType: t.field(3, str()),
  pool: t.field(4, str()),
  user: t.field(5, str()),
  keyring: t.field(6, str()),
  secretRef: t.field(7, SecretReference, { pointer: true }),
  readOnly: t.field(8, t.bool()),
});

export const ISCSIPersistentVolumeSource = t.struct('core.v1.ISCSIPersistentVolumeSource', {
  targetPortal: t.required(1, str(), { always: true }),
  iqn: t.required(2, str(), { always: true }),
  lun: t.required(3, t.int32(), { always: true }),
  iscsiInterface: t.field(4, str()),
  fsType: t.field(5, str()),
  readOnly: t.field(6, t.bool()),
  portals: t.field(7, t.list(str())),
  chapAuthDiscovery: t.field(8, t.bool()),
  chapAuthSession: t.field(11, t.bool()),
  secretRef: t.field(10, SecretReference, { pointer: true }),
  initiatorName: t.field(12, str(), { pointer: true }),
});

export const CinderPersistentVolumeSource = t.struct('core.v1.CinderPersistentVolumeSource', {
  volumeID: t.required(1, str(), { always: true }),
  fsType: t.field(2, str()),
  readOnly: t.field(3, t.bool()),
  secretRef: t.field(4, SecretReference, { pointer: true }),
});

export const CephFSPersistentVolumeSource = t.struct('core.v1.CephFSPersistentVolumeSource', {
  monitors: t.required(1, t.list(str()), { always: true }),
  path: t.field(2, str()),
  user: t.field(3, str()),
  secretFile: t.field(4, str()),
  secretRef: t.field(5, SecretReference, { pointer: true }),
  readOnly: t.field(6, t.bool()),
});

export const FCVolumeSource = t.struct('core.v1.FCVolumeSource', {
  targetWWNs: t.field(1, t.list(str())),
  lun: t.field(2, t.int32(), { pointer: true }),
  fsType: t.field(3, str()),
  readOnly: t.field(4, t.bool()),
  wwids: t.field(5, t.list(str())),
});
export type FCVolumeSource = Infer<typeof FCVolumeSource>;

export const FlockerVolumeSource = t.struct('core.v1.FlockerVolumeSource', {
  datasetName: t.field(1, str()),
  datasetUUID: t.field(2, str()),
});
export type FlockerVolumeSource = Infer<typeof FlockerVolumeSource>;

export const FlexPersistentVolumeSource = t.struct('core.v1.FlexPersistentVolumeSource', {
  driver: t.required(1, str(), { always: true }),
  fsType: t.field(2, str()),
  secretRef: t.field(3, SecretReference, { pointer: true }),
  readOnly: t.field(4, t.bool()),
  options: t.field(5, t.map(str())),
});

export const AzureFilePersistentVolumeSource = t.struct('core.v1.AzureFilePersistentVolumeSource', {
  secretName: t.required(1, str(), { always: true }),
  shareName: t.required(2, str(), { always: true }),
  readOnly: t.field(3, t.bool()),
  secretNamespace: t.field(4, str(), { pointer: true }),
});

export const VsphereVirtualDiskVolumeSource = t.struct('core.v1.VsphereVirtualDiskVolumeSource', {
  volumePath: t.required(1, str(), { always: true }),
  fsType: t.field(2, str()),
  storagePolicyName: t.field(3, str()),
  storagePolicyID: t.field(4, str()),
});
export type VsphereVirtualDiskVolumeSource = Infer<typeof VsphereVirtualDiskVolumeSource>;

export const QuobyteVolumeSource = t.struct('core.v1.QuobyteVolumeSource', {
  registry: t.required(1, str(), { always: true }),
  volume: t.required(2, str(), { always: true }),
  readOnly: t.field(3, t.bool()),
  user: t.field(4, str()),
  group: t.field(5, str()),
  tenant: t.field(6, str()),
});
export type QuobyteVolumeSource = Infer<typeof QuobyteVolumeSource>;

export const AZURE_CACHING_MODES = ['None', 'ReadOnly', 'ReadWrite'] as const;
export const AZURE_DISK_KINDS = ['Dedicated', 'Managed', 'Shared'] as const;

export const AzureDiskVolumeSource = t.struct('core.v1.AzureDiskVolumeSource', {
  diskName: t.required(1, str(), { always: true }),
  diskURI: t.required(2, str(), { always: true }),
  cachingMode: t.field(3, t.string({ enum: AZURE_CACHING_MODES }), { pointer: true }),
  fsType: t.field(4, str(), { pointer: true }),
  readOnly: t.field(5, t.bool(), { pointer: true }),
  kind: t.field(6, t.string({ enum: AZURE_DISK_KINDS }), { pointer: true }),
});

export const PhotonPersistentDiskVolumeSource = t.struct('core.v1.PhotonPersistentDiskVolumeSource', {
  pdID: t.required(1, str(), { always: true }),
  fsType: t.field(2, str()),
});
export type PhotonPersistentDiskVolumeSource = Infer<typeof PhotonPersistentDiskVolumeSource>;

export const PortworxVolumeSource = t.struct('core.v1.PortworxVolumeSource', {
  volumeID: t.required(1, str(), { always: true }),
  fsType: t.field(2, str()),
  readOnly: t.field(3, t.bool()),
});
export type PortworxVolumeSource = Infer<typeof PortworxVolumeSource>;

export const ScaleIOPersistentVolumeSource = t.struct('core.v1.ScaleIOPersistentVolumeSource', {
  gateway: t.required(1, str(), { always: true }),
  system: t.required(2, str(), { always: true }),
  secretRef: t.required(3, SecretReference, { pointer: true }),
  sslEnabled: t.field(4, t.bool()),
  protectionDomain: t.field(5, str()),
  storagePool: t.field(6, str()),
  storageMode: t.field(7, str()),
  volumeName: t.field(8, str()),
  fsType: t.field(9, str()),
  readOnly: t.field(10, t.bool()),
});

export const LocalVolumeSource = t.struct('core.v1.LocalVolumeSource', {
  path: t.required(1, str(), { always: true }),
  fsType: t.field(2, str(), { pointer: true }),
});

export const StorageOSPersistentVolumeSource = t.struct('core.v1.StorageOSPersistentVolumeSource', {
  volumeName: t.field(1, str()),
  volumeNamespace: t.field(2, str()),
  fsType: t.field(3, str()),
  readOnly: t.field(4, t.bool()),
  secretRef: t.field(5, ObjectReference, { pointer: true }),
});

export const CSIPersistentVolumeSource = t.struct('core.v1.CSIPersistentVolumeSource', {
  driver: t.required(1, str(), { always: true }),
  volumeHandle: t.required(2, str(), { always: true }),
  readOnly: t.field(3, t.bool()),
  fsType: t.field(4, str()),
  volumeAttributes: t.field(5, t.map(str())),
  controllerPublishSecretRef: t.field(6, SecretReference, { pointer: true }),
  nodeStageSecretRef: t.field(7, SecretReference, { pointer: true }),
  nodePublishSecretRef: t.field(8, SecretReference, { pointer: true }),
  controllerExpandSecretRef: t.field(9, SecretReference, { pointer: true }),
  nodeExpandSecretRef: t.field(10, SecretReference, { pointer: true }),
});

/** Exactly one member is set on a valid persistent volume. */
export const PersistentVolumeSource = t.struct('core.v1.PersistentVolumeSource', {
  gcePersistentDisk: t.field(1, GCEPersistentDiskVolumeSource, { pointer: true }),
  awsElasticBlockStore: t.field(2, AWSElasticBlockStoreVolumeSource, { pointer: true }),
  hostPath: t.field(3, HostPathVolumeSource, { pointer: true }),
  glusterfs: t.field(4, GlusterfsPersistentVolumeSource, { pointer: true }),
  nfs: t.field(5, NFSVolumeSource, { pointer: true }),
  rbd: t.field(6, RBDPersistentVolumeSource, { pointer: true }),
  iscsi: t.field(7, ISCSIPersistentVolumeSource, { pointer: true }),
  cinder: t.field(8, CinderPersistentVolumeSource, { pointer: true }),
  cephfs: t.field(9, CephFSPersistentVolumeSource, { pointer: true }),
  fc: t.field(10, FCVolumeSource, { pointer: true }),
  flocker: t.field(11, FlockerVolumeSource, { pointer: true }),
  flexVolume: t.field(12, FlexPersistentVolumeSource, { pointer: true }),
  azureFile: t.field(13, AzureFilePersistentVolumeSource, { pointer: true }),
  vsphereVolume: t.field(14, VsphereVirtualDiskVolumeSource, { pointer: true }),
  quobyte: t.field(15, QuobyteVolumeSource, { pointer: true }),
  azureDisk: t.field(16, AzureDiskVolumeSource, { pointer: true }),
  photonPersistentDisk: t.field(17, PhotonPersistentDiskVolumeSource, { pointer: true }),
  portworxVolume: t.field(18, PortworxVolumeSource, { pointer: true }),
  scaleIO: t.field(19, ScaleIOPersistentVolumeSource, { pointer: true }),
  local: t.field(20, LocalVolumeSource, { pointer: true }),
  storageos: t.field(21, StorageOSPersistentVolumeSource, { pointer: true }),
  csi: t.field(22, CSIPersistentVolumeSource, { pointer: true }),
});
export type PersistentVolumeSource = Infer<typeof PersistentVolumeSource>;
export type AzureDiskVolumeSource = Infer<typeof AzureDiskVolumeSource>;
export type HostPathVolumeSource = Infer<typeof HostPathVolumeSource>;

/** The members of PersistentVolumeSource in Kubernetes' validation order (the first set one wins). */
export const PERSISTENT_VOLUME_SOURCE_KEYS = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'flocker',
  'nfs',
  'rbd',
  'quobyte',
  'cephfs',
  'iscsi',
  'cinder',
  'fc',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'scaleIO',
  'local',
  'storageos',
  'csi',
] as const satisfies readonly (keyof PersistentVolumeSource)[];
