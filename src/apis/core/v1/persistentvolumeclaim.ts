/**
 * PersistentVolumeClaim (core/v1): a request for storage. Its spec is fixed once created, except
 * that the volume binder sets `volumeName` once and a bound claim's storage request may grow
 * (volume expansion). Status is written through `/status`.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { compareQuantities } from '../../../machinery/quantity.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { objectHeader, probedConditionFields, t, type ObjectOf } from '../../../schema/index.js';
import { AccessModeList, PersistentVolumeClaimSpec, ResourceList } from './types/index.js';
import { validatePersistentVolumeClaimSpec } from './validation/claim-spec.js';
import { quantityOf, validateBasicResource } from './validation/resources.js';
import { persistentVolumeClaimTable } from './tables.js';

export const PVC_PHASES = ['Bound', 'Lost', 'Pending'] as const;
export const RESIZE_STATUSES = ['', 'ControllerExpansionFailed', 'ControllerExpansionInProgress', 'NodeExpansionFailed', 'NodeExpansionInProgress', 'NodeExpansionPending'] as const;

export const PersistentVolumeClaimCondition = t.struct('core.v1.PersistentVolumeClaimCondition', probedConditionFields());

export const PersistentVolumeClaimStatus = t.struct('core.v1.PersistentVolumeClaimStatus', {
  phase: t.field(1, t.string({ enum: PVC_PHASES }), { description: 'Pending, Bound or Lost.' }),
  accessModes: t.field(2, AccessModeList, { description: 'The access modes of the bound volume.' }),
  capacity: t.field(3, ResourceList, { description: 'The size of the bound volume.' }),
  conditions: t.field(4, t.list(PersistentVolumeClaimCondition, { patchStrategy: 'merge', patchMergeKey: 'type' }), { description: 'The state of a resize, as conditions.' }),
  allocatedResources: t.field(5, ResourceList, { description: 'Alpha (RecoverVolumeExpansionFailure): the storage allotted to the claim.' }),
  resizeStatus: t.field(6, t.string({ enum: RESIZE_STATUSES }), { pointer: true, description: 'Alpha (RecoverVolumeExpansionFailure): how far a resize has got.' }),
}, { description: 'What the claim is, as last observed.' });

export const PersistentVolumeClaimSchema = t.struct('core.v1.PersistentVolumeClaim', {
  ...objectHeader,
  spec: t.field(2, PersistentVolumeClaimSpec, { description: 'The storage the claim asks for.' }),
  status: t.field(3, PersistentVolumeClaimStatus, { description: 'What the claim is, as last observed. Read-only.' }),
}, { description: "A user's request for storage, bound to one persistent volume that satisfies it." });
export type PersistentVolumeClaim = ObjectOf<typeof PersistentVolumeClaimSchema>;
type Spec = PersistentVolumeClaim['spec'];
function betaStorageClassKey(names: ApiNames): string {
  return names.labelSubKey('volume.beta', 'storage-class');
}

/**
 * A claim made with the beta storage-class annotation may gain the same class in
 * spec.storageClassName (the upgrade path from the annotation to the field).
 */
function isStorageClassUpgrade(names: ApiNames, pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): boolean {
  const key = betaStorageClassKey(names);
  const oldAnnotations = old.metadata.annotations ?? {};
  const newAnnotations = pvc.metadata.annotations ?? {};
  if (!(key in oldAnnotations) || old.spec.storageClassName !== undefined) return false;
  const oldClass = oldAnnotations[key];
  return pvc.spec.storageClassName === oldClass && (!(key in newAnnotations) || newAnnotations[key] === oldClass);
}

function validatePersistentVolumeClaimUpdate(names: ApiNames, pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const errs: FieldError[] = [];
  const next = structuredClone(pvc.spec);
  const before = structuredClone(old.spec);
  // The binder sets volumeName once.
  if (!before.volumeName) {
    if (next.volumeName) before.volumeName = next.volumeName;
    else delete before.volumeName;
  }
  const key = betaStorageClassKey(names);
  if (isStorageClassUpgrade(names, pvc, old)) {
    delete next.storageClassName;
  } else if ((pvc.metadata.annotations?.[key] ?? '') !== (old.metadata.annotations?.[key] ?? '')) {
    errs.push(fieldErr.immutable(FieldPath.root('metadata').child('annotations').child(key), pvc.metadata.annotations?.[key] ?? ''));
  }
  // A bound claim may change its storage request (growth is checked below).
  if (pvc.status.phase === 'Bound' && next.resources.requests) {
    const oldStorage = old.spec.resources.requests?.storage;
    if (oldStorage === undefined) delete next.resources.requests.storage;
    else next.resources.requests.storage = oldStorage;
  }
  if (!isDeepStrictEqual(next, before)) {
    errs.push(fieldErr.forbidden('spec', `spec is immutable after creation except resources.requests for bound claims\n${specDiff(before, next)}`));
  }
  const newSize = quantityOf(pvc.spec.resources.requests?.storage ?? '0');
  const oldSize = quantityOf(old.spec.resources.requests?.storage ?? '0');
  if (newSize && oldSize && compareQuantities(newSize, oldSize) < 0) {
    errs.push(fieldErr.forbidden(FieldPath.root('spec').child('resources').child('requests').child('storage'), 'field can not be less than previous value'));
  }
  if (pvc.spec.volumeMode !== old.spec.volumeMode) errs.push(fieldErr.immutable('volumeMode', pvc.spec.volumeMode));
  return errs;
}

/** Lines naming each spec field that changed, standing in for Kubernetes' diff. */
function specDiff(before: Spec, next: Spec): string {
  const lines: string[] = [];
  for (const k of new Set([...Object.keys(before), ...Object.keys(next)]) as Set<keyof Spec>) {
    if (isDeepStrictEqual(before[k], next[k])) continue;
    if (before[k] !== undefined) lines.push(`- ${k}: ${JSON.stringify(before[k])}`);
    if (next[k] !== undefined) lines.push(`+ ${k}: ${JSON.stringify(next[k])}`);
  }
  return lines.join('\n');
}

function validateStatusUpdate(pvc: PersistentVolumeClaim): FieldError[] {
  const errs: FieldError[] = [];
  // Kubernetes spells this path with a capital S.
  if ((pvc.spec.accessModes ?? []).length === 0) errs.push(fieldErr.required('Spec.accessModes'));
  const capPath = FieldPath.root('status').child('capacity');
  for (const [r, q] of Object.entries(pvc.status.capacity ?? {})) errs.push(...validateBasicResource(q, capPath.key(r)));
  return errs;
}

/**
 * With no data source on the old claim and no dataSourceRef, a dataSource other than a claim or a
 * volume snapshot is dropped (KEP 1495); then dataSource and dataSourceRef are made to mirror
 * each other. Mutates `spec`.
 */
function normalizeDataSources(names: ApiNames, spec: Spec, old: Spec | undefined): void {
  const oldInUse = !!old && (old.dataSource !== undefined || old.dataSourceRef !== undefined);
  if (!oldInUse && spec.dataSourceRef === undefined && spec.dataSource) {
    const group = spec.dataSource.apiGroup ?? '';
    const ok =
      (spec.dataSource.kind === 'PersistentVolumeClaim' && group === '') ||
      (spec.dataSource.kind === 'VolumeSnapshot' && group === names.group('snapshot.storage'));
    if (!ok) delete spec.dataSource;
  }
  if (spec.dataSource && !spec.dataSourceRef) spec.dataSourceRef = structuredClone(spec.dataSource);
  else if (spec.dataSourceRef && !spec.dataSource) spec.dataSource = structuredClone(spec.dataSourceRef);
}

export const persistentVolumeClaimResource = defineResource<PersistentVolumeClaim>((names) => ({
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
  resource: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  namespaced: true,
  shortNames: ['pvc'],
  schema: PersistentVolumeClaimSchema,
  table: persistentVolumeClaimTable,
  fixture: () => ({ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    returnDeletedObject: true,
    defaults(pvc) {
      if (!pvc.status.phase) pvc.status.phase = 'Pending';
      if (pvc.spec.volumeMode === undefined) pvc.spec.volumeMode = 'Filesystem';
    },
    prepareForCreate(pvc) {
      // Kubernetes clears status and reads it back through its defaults, so a new claim is Pending.
      pvc.status = { phase: 'Pending' };
      normalizeDataSources(names, pvc.spec, undefined);
    },
    prepareForUpdate(pvc, old) {
      normalizeDataSources(names, pvc.spec, old.spec);
    },
    validate: (pvc) => validatePersistentVolumeClaimSpec(names, pvc.spec, FieldPath.root('spec')),
    validateUpdate: (pvc, old) => validatePersistentVolumeClaimUpdate(names, pvc, old),
  },
  subresources: {
    status: statusSubresource<PersistentVolumeClaim>({
      prepareForUpdate(pvc, old) {
        // Alpha fields in 1.25 (RecoverVolumeExpansionFailure): kept only where already in use.
        if (old.status.allocatedResources === undefined) delete pvc.status.allocatedResources;
        if (old.status.resizeStatus === undefined) delete pvc.status.resizeStatus;
      },
      validateUpdate: (pvc) => validateStatusUpdate(pvc),
    }),
  },
}));
