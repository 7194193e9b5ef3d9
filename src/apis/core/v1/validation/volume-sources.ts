/**
 * The rules of each volume source, with Kubernetes' messages and field paths (including the paths
 * it names oddly, such as `persistentDisk` for gcePersistentDisk's fields). The sources a pod's
 * volumes share with persistent volumes, or whose pod variant Kubernetes checks by the same rules,
 * are checked here for both (sharedSourceValidators); the rest of a pod's sources are checked in
 * pod/validation/volumes.ts.
 */
import type { ApiNames } from '../../../../machinery/api-names.js';
import { fieldErr, type FieldError, type FieldPath } from '../../../../machinery/field-errors.js';
import { isDns1123Label, isDns1123Subdomain } from '../../../../machinery/name-validation.js';
import type { Infer } from '../../../../schema/index.js';
import { HOST_PATH_TYPES, AZURE_CACHING_MODES, AZURE_DISK_KINDS, type PersistentVolumeSource } from '../types/volume-sources.js';
import type * as V from '../types/volume-sources.js';
import type { SecretReference } from '../types/references.js';
import { inclusiveRange, validatePathNoBacksteps } from '../types/field-checks.js';

type Src<K extends keyof PersistentVolumeSource> = NonNullable<PersistentVolumeSource[K]>;
type SecretRef = Infer<typeof SecretReference>;

const required = (path: FieldPath, detail?: string): FieldError => fieldErr.required(path, detail);

function dnsLabel(value: string, path: FieldPath): FieldError[] {
  return isDns1123Label(value).map((m) => fieldErr.invalid(path, value, m));
}

export function validateHostPath(s: V.HostPathVolumeSource, at: FieldPath): FieldError[] {
  if (!s.path) return [required(at.child('path'))];
  const errs = validatePathNoBacksteps(s.path, at.child('path'));
  if (s.type !== undefined && !(HOST_PATH_TYPES as readonly string[]).includes(s.type)) {
    errs.push(fieldErr.notSupported(at.child('type'), s.type, [...HOST_PATH_TYPES].sort()));
  }
  return errs;
}

function validateGCEPersistentDisk(s: Src<'gcePersistentDisk'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.pdName) errs.push(required(at.child('pdName')));
  const p = s.partition ?? 0;
  if (p < 0 || p > 255) errs.push(fieldErr.invalid(at.child('partition'), p, inclusiveRange(1, 255)));
  return errs;
}

function validateAWSElasticBlockStore(s: Src<'awsElasticBlockStore'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.volumeID) errs.push(required(at.child('volumeID')));
  const p = s.partition ?? 0;
  if (p < 0 || p > 255) errs.push(fieldErr.invalid(at.child('partition'), p, inclusiveRange(1, 255)));
  return errs;
}

function validateGlusterfs(s: Src<'glusterfs'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.endpoints) errs.push(required(at.child('endpoints')));
  if (!s.path) errs.push(required(at.child('path')));
  if (s.endpointsNamespace !== undefined) {
    const ns = s.endpointsNamespace;
    if (ns === '') errs.push(fieldErr.invalid(at.child('endpointsNamespace'), ns, 'if the endpointnamespace is set, it must be a valid namespace name'));
    else errs.push(...dnsLabel(ns, at.child('endpointsNamespace')));
  }
  return errs;
}

function validateFlocker(s: Src<'flocker'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = s.datasetName ?? '';
  const uuid = s.datasetUUID ?? '';
  if (!name && !uuid) errs.push(required(at, 'one of datasetName and datasetUUID is required'));
  if (name && uuid) errs.push(fieldErr.invalid(at, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) errs.push(fieldErr.invalid(at.child('datasetName'), name, "must not contain '/'"));
  return errs;
}

function validateNFS(s: Src<'nfs'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.server) errs.push(required(at.child('server')));
  if (!s.path) errs.push(required(at.child('path')));
  if (!s.path.startsWith('/')) errs.push(fieldErr.invalid(at.child('path'), s.path, 'must be an absolute path'));
  return errs;
}

function validateRBD(s: Src<'rbd'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if ((s.monitors ?? []).length === 0) errs.push(required(at.child('monitors')));
  if (!s.image) errs.push(required(at.child('image')));
  return errs;
}

/** Go's net.SplitHostPort, as far as deciding whether it would fail. */
function isHostPort(pair: string): boolean {
  if (pair.startsWith('[')) return /^\[[^\]]*\]:[^:]*$/.test(pair);
  return pair.split(':').length === 2;
}

function validateQuobyte(s: Src<'quobyte'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const hostPorts = 'must be a host:port pair or multiple pairs separated by commas';
  if (!s.registry) errs.push(required(at.child('registry'), hostPorts));
  else if ((s.tenant ?? '').length >= 65) errs.push(required(at.child('tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
  else {
    for (const pair of s.registry.split(',')) if (!isHostPort(pair)) errs.push(fieldErr.invalid(at.child('registry'), s.registry, hostPorts));
  }
  if (!s.volume) errs.push(required(at.child('volume')));
  return errs;
}

function validateCephFS(s: Src<'cephfs'>, at: FieldPath): FieldError[] {
  return (s.monitors ?? []).length === 0 ? [required(at.child('monitors'))] : [];
}

const IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9.-]+)(:[^,;*&$|\s]+)$/;
const EUI = /^eui.[A-Za-z0-9]{16}$/;
const NAA = /^naa.[A-Za-z0-9]{32}$/;

/** '' when the name is well formed; else Kubernetes' message. */
function iscsiNameProblem(name: string): string {
  if (!name.startsWith('iqn') && !name.startsWith('eui') && !name.startsWith('naa')) return 'must be valid format';
  if (name.startsWith('iqn') && !IQN.test(name)) return 'must be valid format';
  if (name.startsWith('eui') && !EUI.test(name)) return 'must be valid format';
  if (name.startsWith('naa') && !NAA.test(name)) return 'must be valid format';
  return '';
}

function validateISCSI(s: Src<'iscsi'>, pvName: string, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.targetPortal) errs.push(required(at.child('targetPortal')));
  if (s.initiatorName !== undefined && `${pvName}:${s.targetPortal}`.length > 64) {
    errs.push(
      fieldErr.invalid(at.child('targetportal'), s.targetPortal, 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'),
    );
  }
  if (!s.iqn) errs.push(required(at.child('iqn')));
  else if (iscsiNameProblem(s.iqn)) errs.push(fieldErr.invalid(at.child('iqn'), s.iqn, iscsiNameProblem(s.iqn)));
  if (s.lun < 0 || s.lun > 255) errs.push(fieldErr.invalid(at.child('lun'), s.lun, inclusiveRange(0, 255)));
  if ((s.chapAuthDiscovery || s.chapAuthSession) && !s.secretRef) errs.push(required(at.child('secretRef')));
  if (s.secretRef && !s.secretRef.name) errs.push(required(at.child('secretRef').child('name')));
  if (s.initiatorName !== undefined) {
    const problem = iscsiNameProblem(s.initiatorName);
    if (problem) errs.push(fieldErr.invalid(at.child('initiatorname'), s.initiatorName, problem));
  }
  return errs;
}

function validateCinder(s: Src<'cinder'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.volumeID) errs.push(required(at.child('volumeID')));
  if (s.secretRef) {
    if (!s.secretRef.name) errs.push(required(at.child('secretRef').child('name')));
    if (!s.secretRef.namespace) errs.push(required(at.child('secretRef').child('namespace')));
  }
  return errs;
}

function validateFC(s: Src<'fc'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const wwns = s.targetWWNs ?? [];
  const wwids = s.wwids ?? [];
  if (wwns.length < 1 && wwids.length < 1) errs.push(required(at.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length !== 0 && wwids.length !== 0) errs.push(fieldErr.invalid(at.child('targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length !== 0) {
    if (s.lun === undefined) errs.push(required(at.child('lun'), 'lun is required if targetWWNs is specified'));
    else if (s.lun < 0 || s.lun > 255) errs.push(fieldErr.invalid(at.child('lun'), s.lun, inclusiveRange(0, 255)));
  }
  return errs;
}

function validateFlex(s: Src<'flexVolume'>, names: ApiNames, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.driver) errs.push(required(at.child('driver')));
  const reserved = [...new Set([names.labelDomain, names.domain])];
  for (const k of Object.keys(s.options ?? {})) {
    const slash = k.indexOf('/');
    const prefix = `.${(slash >= 0 ? k.slice(0, slash) : k).toLowerCase()}`;
    if (reserved.some((d) => prefix.endsWith(`.${d}`))) errs.push(fieldErr.invalid(at.child('options').key(k), k, `${reserved.join(' and ')} namespaces are reserved`));
  }
  return errs;
}

function validateAzureFile(s: Src<'azureFile'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.secretName) errs.push(required(at.child('secretName')));
  if (!s.shareName) errs.push(required(at.child('shareName')));
  if (s.secretNamespace !== undefined && s.secretNamespace === '') errs.push(required(at.child('secretNamespace')));
  return errs;
}

function validateAzureDisk(s: Src<'azureDisk'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.diskName) errs.push(required(at.child('diskName')));
  if (!s.diskURI) errs.push(required(at.child('diskURI')));
  if (s.cachingMode !== undefined && !(AZURE_CACHING_MODES as readonly string[]).includes(s.cachingMode)) {
    errs.push(fieldErr.notSupported(at.child('cachingMode'), s.cachingMode, AZURE_CACHING_MODES));
  }
  if (s.kind !== undefined && !(AZURE_DISK_KINDS as readonly string[]).includes(s.kind)) errs.push(fieldErr.notSupported(at.child('kind'), s.kind, AZURE_DISK_KINDS));
  if (s.kind === 'Managed' && !s.diskURI.startsWith('/subscriptions/')) {
    errs.push(fieldErr.notSupported(at.child('diskURI'), s.diskURI, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
  }
  if (s.kind !== undefined && s.kind !== 'Managed' && !s.diskURI.startsWith('https://')) {
    errs.push(fieldErr.notSupported(at.child('diskURI'), s.diskURI, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
  }
  return errs;
}

function validateScaleIO(s: Src<'scaleIO'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.gateway) errs.push(required(at.child('gateway')));
  if (!s.system) errs.push(required(at.child('system')));
  if (!s.volumeName) errs.push(required(at.child('volumeName')));
  return errs;
}

function validateLocal(s: Src<'local'>, at: FieldPath): FieldError[] {
  if (!s.path) return [required(at.child('path'))];
  return validatePathNoBacksteps(s.path, at.child('path'));
}

function validateStorageOS(s: Src<'storageos'>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.volumeName) errs.push(required(at.child('volumeName')));
  else errs.push(...dnsLabel(s.volumeName, at.child('volumeName')));
  if (s.volumeNamespace) errs.push(...dnsLabel(s.volumeNamespace, at.child('volumeNamespace')));
  if (s.secretRef) {
    if (!s.secretRef.name) errs.push(required(at.child('secretRef').child('name')));
    if (!s.secretRef.namespace) errs.push(required(at.child('secretRef').child('namespace')));
  }
  return errs;
}

/** A CSI driver name: a DNS subdomain (case-insensitively) of at most 63 characters. */
export function validateCSIDriverName(driver: string, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!driver) errs.push(required(at));
  if (driver.length > 63) errs.push(fieldErr.tooLong(at, 63));
  for (const m of isDns1123Subdomain(driver.toLowerCase())) errs.push(fieldErr.invalid(at, driver, m));
  return errs;
}

function validatePVSecretReference(ref: SecretRef, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!ref.name) errs.push(required(at.child('name')));
  else errs.push(...dnsLabel(ref.name, at.child('name')));
  if (!ref.namespace) errs.push(required(at.child('namespace')));
  else errs.push(...dnsLabel(ref.namespace, at.child('namespace')));
  return errs;
}

function validateCSI(s: Src<'csi'>, at: FieldPath): FieldError[] {
  const errs = validateCSIDriverName(s.driver, at.child('driver'));
  if (!s.volumeHandle) errs.push(required(at.child('volumeHandle')));
  for (const key of ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef'] as const) {
    const ref = s[key];
    if (ref) errs.push(...validatePVSecretReference(ref, at.child(key)));
  }
  return errs;
}

/** Checks one source; `never` because each takes its own source type. */
export interface SourceValidator {
  /** The path Kubernetes names the source's fields under, when not the source's own name. */
  readonly path?: string;
  check(source: never, at: FieldPath): FieldError[];
}

/**
 * The validators of the sources pods and persistent volumes check alike, and the path Kubernetes
 * reports each source's fields under when that differs from the field's own name. The pod variants
 * of glusterfs, rbd, cephfs, flexVolume, azureFile and scaleIO are other Go types with a subset of
 * the fields (a LocalObjectReference for a secret); Kubernetes checks them by the same rules.
 */
export function sharedSourceValidators(names: ApiNames) {
  return {
    hostPath: { check: validateHostPath },
    gcePersistentDisk: { path: 'persistentDisk', check: validateGCEPersistentDisk },
    awsElasticBlockStore: { check: validateAWSElasticBlockStore },
    glusterfs: { check: validateGlusterfs },
    flocker: { check: validateFlocker },
    nfs: { check: validateNFS },
    rbd: { check: validateRBD },
    quobyte: { check: validateQuobyte },
    cephfs: { check: validateCephFS },
    fc: { check: validateFC },
    flexVolume: { check: (s: Src<'flexVolume'>, at: FieldPath) => validateFlex(s, names, at) },
    azureFile: { check: validateAzureFile },
    vsphereVolume: { check: (s: Src<'vsphereVolume'>, at: FieldPath) => (s.volumePath ? [] : [required(at.child('volumePath'))]) },
    photonPersistentDisk: { check: (s: Src<'photonPersistentDisk'>, at: FieldPath) => (s.pdID ? [] : [required(at.child('pdID'))]) },
    portworxVolume: { check: (s: Src<'portworxVolume'>, at: FieldPath) => (s.volumeID ? [] : [required(at.child('volumeID'))]) },
    azureDisk: { check: validateAzureDisk },
    scaleIO: { check: validateScaleIO },
  } satisfies Partial<Record<keyof PersistentVolumeSource, SourceValidator>>;
}

export type SharedVolumeSourceName = keyof ReturnType<typeof sharedSourceValidators>;

/** The validator of each persistent volume source. */
export function sourceValidators(names: ApiNames, pvName: string): Record<keyof PersistentVolumeSource, SourceValidator> {
  return {
    ...sharedSourceValidators(names),
    iscsi: { check: (s: Src<'iscsi'>, at) => validateISCSI(s, pvName, at) },
    cinder: { check: validateCinder },
    local: { check: validateLocal },
    storageos: { check: validateStorageOS },
    csi: { check: validateCSI },
  };
}
