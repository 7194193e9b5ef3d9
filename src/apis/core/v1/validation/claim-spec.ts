/**
 * The rules of a PersistentVolumeClaimSpec (Kubernetes' ValidatePersistentVolumeClaimSpec), for
 * claims and for the claim templates of ephemeral volumes. Pure; returns FieldError[].
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../../machinery/api-names.js';
import { fieldErr, type FieldError, type FieldPath } from '../../../../machinery/field-errors.js';
import { validateLabelSelector } from '../../../../machinery/label-selector-validation.js';
import { ACCESS_MODES, VOLUME_MODES, validateDns1123Subdomain, type PersistentVolumeClaimSpec, type TypedLocalObjectReference } from '../types/index.js';
import { validatePositiveQuantity, validateResourceQuantityValue } from './resources.js';

function validateDataSource(ds: TypedLocalObjectReference, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!ds.name) errs.push(fieldErr.required(path.child('name')));
  if (!ds.kind) errs.push(fieldErr.required(path.child('kind')));
  if (!ds.apiGroup && ds.kind !== 'PersistentVolumeClaim') errs.push(fieldErr.invalid(path, ds.kind, ''));
  return errs;
}

export function validatePersistentVolumeClaimSpec(names: ApiNames, spec: PersistentVolumeClaimSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const modes = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(fieldErr.required(path.child('accessModes'), 'at least 1 access mode is required'));
  errs.push(...validateLabelSelector(spec.selector, path.child('selector')));
  for (const m of modes) if (!(ACCESS_MODES as readonly string[]).includes(m)) errs.push(fieldErr.notSupported(path.child('accessModes'), m, ACCESS_MODES));

  // Kubernetes names the storage request `resources[storage]`.
  const storagePath = path.child('resources').key('storage');
  const storage = spec.resources.requests?.storage;
  if (storage === undefined) errs.push(fieldErr.required(storagePath));
  else {
    const positive = validatePositiveQuantity(storage, storagePath);
    errs.push(...(positive.length ? positive : validateResourceQuantityValue(names, 'storage', storage, storagePath)));
  }
  if (spec.storageClassName) errs.push(...validateDns1123Subdomain(spec.storageClassName, path.child('storageClassName')));
  if (spec.volumeMode !== undefined && !(VOLUME_MODES as readonly string[]).includes(spec.volumeMode)) {
    errs.push(fieldErr.notSupported(path.child('volumeMode'), spec.volumeMode, VOLUME_MODES));
  }
  if (spec.dataSource) errs.push(...validateDataSource(spec.dataSource, path.child('dataSource')));
  if (spec.dataSourceRef) errs.push(...validateDataSource(spec.dataSourceRef, path.child('dataSourceRef')));
  if (spec.dataSource && spec.dataSourceRef && !isDeepStrictEqual(spec.dataSource, spec.dataSourceRef)) {
    errs.push(fieldErr.invalid(path, String(path.child('dataSource')), 'must match dataSourceRef'));
  }
  return errs;
}
