/**
 * PersistentVolume (core/v1, cluster-scoped): a piece of storage in the cluster, with exactly one
 * volume source. Its source, volume mode and (once set) node affinity never change; status is
 * written through `/status` by the volume controller.
 */
import { isDeepStrictEqual } from 'node:util';
import { posix } from 'node:path';
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { isDns1123Subdomain, nameValidators } from '../../../machinery/name-validation.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { defaultPersistentVolumeSource } from './volume-defaults.js';
import { ACCESS_MODES, AccessModeList, NodeSelector, ObjectReference, ResourceList, VOLUME_MODES } from './types/index.js';
import { PERSISTENT_VOLUME_SOURCE_KEYS, PersistentVolumeSource, type PersistentVolumeSource as Source } from './types/volume-sources.js';
import { validateBasicResource, validatePositiveQuantity } from './validation/resources.js';
import { validateNodeSelector } from './validation/scheduling.js';
import { sourceValidators } from './validation/volume-sources.js';
import { persistentVolumeTable } from './tables.js';

export const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'] as const;
export const PV_PHASES = ['Available', 'Bound', 'Failed', 'Pending', 'Released'] as const;

export const VolumeNodeAffinity = t.struct('core.v1.VolumeNodeAffinity', {
  required: t.field(1, NodeSelector, { pointer: true, description: 'The nodes this volume can be reached from; a pod using it is scheduled onto one of them.' }),
});

export const PersistentVolumeSpec = t.struct('core.v1.PersistentVolumeSpec', {
  capacity: t.field(1, ResourceList, { description: 'The size of the volume: only `storage` is allowed.' }),
  ...t.inline(2, 'persistentVolumeSource', PersistentVolumeSource),
  accessModes: t.field(3, AccessModeList, { description: 'The ways the volume can be mounted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany.' }),
  claimRef: t.field(4, ObjectReference, { pointer: true, structType: 'granular', description: 'The claim bound to this volume, set when binding (or ahead of it, to reserve the volume for a claim).' }),
  persistentVolumeReclaimPolicy: t.field(5, t.string({ enum: RECLAIM_POLICIES }), {
    description: 'What happens when the claim is released: Retain (the default), Delete or Recycle (deprecated).',
  }),
  storageClassName: t.field(6, t.string(), { description: 'The StorageClass the volume belongs to; empty means no class.' }),
  mountOptions: t.field(7, t.list(t.string()), { description: 'Mount options passed on when mounting, for the sources that support them.' }),
  volumeMode: t.field(8, t.string({ enum: VOLUME_MODES }), { pointer: true, description: 'Filesystem (the default) or Block. Never changes.' }),
  nodeAffinity: t.field(9, VolumeNodeAffinity, { pointer: true, description: 'Which nodes can reach the volume; required for local volumes. Fixed once set.' }),
}, { description: 'What the volume is and how it may be used.' });

export const PersistentVolumeStatus = t.struct('core.v1.PersistentVolumeStatus', {
  phase: t.field(1, t.string({ enum: PV_PHASES }), { description: 'Pending, Available, Bound, Released or Failed.' }),
  message: t.field(2, t.string(), { description: 'Why the volume is in its phase, for people.' }),
  reason: t.field(3, t.string(), { description: 'Why the volume is in its phase, as a CamelCase word for tools.' }),
}, { description: 'What the volume is, as last observed.' });

export const PersistentVolumeSchema = t.struct('core.v1.PersistentVolume', {
  ...objectHeader,
  spec: t.field(2, PersistentVolumeSpec, { description: 'What the volume is, set by an administrator or a provisioner.' }),
  status: t.field(3, PersistentVolumeStatus, { description: 'What the volume is, as last observed. Read-only.' }),
}, { description: 'A piece of storage in the cluster, provisioned by an administrator or dynamically, which claims bind to.' });
export type PersistentVolume = ObjectOf<typeof PersistentVolumeSchema>;
type Spec = PersistentVolume['spec'];

/** Sources whose plugins take mount options (the rest refuse the legacy annotation). */
const MOUNT_OPTION_SOURCES: readonly (keyof Source)[] = [
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'nfs',
  'rbd',
  'quobyte',
  'iscsi',
  'cinder',
  'cephfs',
  'azureFile',
  'vsphereVolume',
  'azureDisk',
  'photonPersistentDisk',
];

/** Where Kubernetes names a second source in its "more than 1 volume type" error. */
const FORBIDDEN_PATH: Partial<Record<keyof Source, string>> = { cephfs: 'cephFS' };

/** The volume source members of a spec, for comparing and counting. */
export function sourceOf(spec: Spec): Source {
  const out: Record<string, unknown> = {};
  for (const k of PERSISTENT_VOLUME_SOURCE_KEYS) if (spec[k] !== undefined) out[k] = spec[k];
  return out as Source;
}

function validateSources(spec: Spec, pvName: string, names: ApiNames, path: FieldPath): { errs: FieldError[]; count: number } {
  const errs: FieldError[] = [];
  const validators = sourceValidators(names, pvName);
  let count = 0;
  for (const key of PERSISTENT_VOLUME_SOURCE_KEYS) {
    const source = spec[key];
    if (source === undefined) continue;
    // flexVolume is never refused as a second source: Kubernetes does not check it.
    if (count > 0 && key !== 'flexVolume') {
      errs.push(fieldErr.forbidden(path.child(FORBIDDEN_PATH[key] ?? key), 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    const v = validators[key];
    errs.push(...v.check(source as never, path.child(v.path ?? key)));
    if (key === 'local' && !spec.nodeAffinity) errs.push(fieldErr.required(path.child('nodeAffinity'), 'Local volume requires node affinity'));
  }
  return { errs, count };
}

export function validatePersistentVolumeSpec(spec: Spec, pvName: string, names: ApiNames, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const modes = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(fieldErr.required(path.child('accessModes')));
  for (const m of modes) if (!(ACCESS_MODES as readonly string[]).includes(m)) errs.push(fieldErr.notSupported(path.child('accessModes'), m, ACCESS_MODES));

  const capacity = spec.capacity ?? {};
  const capPath = path.child('capacity');
  if (Object.keys(capacity).length === 0) errs.push(fieldErr.required(capPath));
  if (!('storage' in capacity) || Object.keys(capacity).length > 1) errs.push(fieldErr.notSupported(capPath, capacity, ['storage']));
  for (const [r, q] of Object.entries(capacity)) {
    errs.push(...validateBasicResource(q, capPath.key(r)), ...validatePositiveQuantity(q, capPath.key(r)));
  }

  const policy = spec.persistentVolumeReclaimPolicy ?? '';
  if (policy && !(RECLAIM_POLICIES as readonly string[]).includes(policy)) errs.push(fieldErr.notSupported(path.child('persistentVolumeReclaimPolicy'), policy, RECLAIM_POLICIES));

  const affinityPath = path.child('nodeAffinity');
  if (spec.nodeAffinity) {
    if (spec.nodeAffinity.required) errs.push(...validateNodeSelector(spec.nodeAffinity.required, affinityPath.child('required')));
    else errs.push(fieldErr.required(affinityPath.child('required'), 'must specify required node constraints'));
  }

  const sources = validateSources(spec, pvName, names, path);
  errs.push(...sources.errs);
  if (sources.count === 0) errs.push(fieldErr.required(path, 'must specify a volume type'));

  if (spec.hostPath && posix.normalize(spec.hostPath.path || '.') === '/' && policy === 'Recycle') {
    errs.push(fieldErr.forbidden(path.child('persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  }
  if (spec.storageClassName) {
    for (const m of isDns1123Subdomain(spec.storageClassName)) errs.push(fieldErr.invalid(path.child('storageClassName'), spec.storageClassName, m));
  }
  if (spec.volumeMode !== undefined && !(VOLUME_MODES as readonly string[]).includes(spec.volumeMode)) {
    errs.push(fieldErr.notSupported(path.child('volumeMode'), spec.volumeMode, VOLUME_MODES));
  }
  return errs;
}

function validateMountOptionAnnotation(pv: PersistentVolume, names: ApiNames): FieldError[] {
  const key = names.labelSubKey('volume.beta', 'mount-options');
  if (MOUNT_OPTION_SOURCES.some((k) => pv.spec[k] !== undefined)) return [];
  if (pv.metadata.annotations?.[key] === undefined) return [];
  return [fieldErr.forbidden(FieldPath.root('metadata').child('annotations').child(key), 'may not specify mount options for this volume type')];
}

function validatePersistentVolume(pv: PersistentVolume, names: ApiNames): FieldError[] {
  return [...validatePersistentVolumeSpec(pv.spec, pv.metadata.name ?? '', names, FieldPath.root('spec')), ...validateMountOptionAnnotation(pv, names)];
}

/** Lines naming each source member that changed, standing in for Kubernetes' diff. */
function sourceDiff(old: Source, next: Source): string {
  const lines: string[] = [];
  for (const k of PERSISTENT_VOLUME_SOURCE_KEYS) {
    if (isDeepStrictEqual(old[k], next[k])) continue;
    if (old[k] !== undefined) lines.push(`- ${k}: ${JSON.stringify(old[k])}`);
    if (next[k] !== undefined) lines.push(`+ ${k}: ${JSON.stringify(next[k])}`);
  }
  return lines.join('\n');
}

function validatePersistentVolumeUpdate(pv: PersistentVolume, old: PersistentVolume): FieldError[] {
  const errs: FieldError[] = [];
  const next = sourceOf(pv.spec);
  // A CSI volume may gain the secret for controller expansion after creation.
  if (old.spec.csi && !old.spec.csi.controllerExpandSecretRef && next.csi?.controllerExpandSecretRef) {
    const { controllerExpandSecretRef: _added, ...csi } = next.csi;
    next.csi = csi as typeof next.csi;
  }
  const before = sourceOf(old.spec);
  if (!isDeepStrictEqual(next, before)) {
    errs.push(fieldErr.forbidden(FieldPath.root('spec').child('persistentvolumesource'), `spec.persistentvolumesource is immutable after creation\n${sourceDiff(before, next)}`));
  }
  if (pv.spec.volumeMode !== old.spec.volumeMode) errs.push(fieldErr.immutable('volumeMode', pv.spec.volumeMode));
  if (old.spec.nodeAffinity && !isDeepStrictEqual(pv.spec.nodeAffinity, old.spec.nodeAffinity)) errs.push(fieldErr.immutable('nodeAffinity', pv.spec.nodeAffinity));
  return errs;
}

/** The node-stage secret for expansion is an alpha field in 1.25: kept only where it was already set. Mutates. */
function dropDisabledFields(spec: Spec, old: Spec | undefined): void {
  if (spec.csi?.nodeExpandSecretRef && !old?.csi?.nodeExpandSecretRef) delete spec.csi.nodeExpandSecretRef;
}

export const persistentVolumeResource = defineResource<PersistentVolume>((names) => ({
  group: '',
  version: 'v1',
  kind: 'PersistentVolume',
  resource: 'persistentvolumes',
  singular: 'persistentvolume',
  namespaced: false,
  shortNames: ['pv'],
  schema: PersistentVolumeSchema,
  table: persistentVolumeTable,
  fixture: () => ({ spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/fixture' } } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    returnDeletedObject: true,
    defaults(pv) {
      if (!pv.status.phase) pv.status.phase = 'Pending';
      if (!pv.spec.persistentVolumeReclaimPolicy) pv.spec.persistentVolumeReclaimPolicy = 'Retain';
      if (pv.spec.volumeMode === undefined) pv.spec.volumeMode = 'Filesystem';
      defaultPersistentVolumeSource(pv.spec);
    },
    prepareForCreate(pv) {
      // Kubernetes clears status and reads it back through its defaults, so a new volume is Pending.
      pv.status = { phase: 'Pending' };
      dropDisabledFields(pv.spec, undefined);
    },
    prepareForUpdate(pv, old) {
      dropDisabledFields(pv.spec, old.spec);
    },
    validate: (pv) => validatePersistentVolume(pv, names),
    validateUpdate: (pv, old) => validatePersistentVolumeUpdate(pv, old),
  },
  subresources: {
    status: statusSubresource<PersistentVolume>(),
  },
}));
