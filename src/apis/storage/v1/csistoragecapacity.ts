/**
 * CSIStorageCapacity (storage.<domain>/v1): how much storage of a class a CSI driver can provide in
 * a topology segment, published for the scheduler. The segment and the class never change.
 */
import { isDeepStrictEqual } from 'node:util';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { hasInvalidLabelValueInSelector, validateLabelSelector } from '../../../machinery/label-selector-validation.js';
import { isDns1123Subdomain, nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { LabelSelector, objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { validateNonnegativeQuantity } from '../../core/v1/validation/resources.js';
import { csiStorageCapacityTable } from './tables.js';

/** The fields of CSIStorageCapacity, the same in v1 and v1beta1. */
export function csiStorageCapacitySchema(version: 'v1' | 'v1beta1') {
  return t.struct(`storage.${version}.CSIStorageCapacity`, {
    ...objectHeader,
    nodeTopology: t.field(2, LabelSelector, { pointer: true, description: 'The nodes that reach the storage; none when unset, all when empty. Immutable.' }),
    storageClassName: t.required(3, t.string(), { always: true, description: 'The storage class the capacity is for. Immutable.' }),
    capacity: t.field(4, t.quantity(), { pointer: true, description: 'The capacity available; unknown when unset.' }),
    maximumVolumeSize: t.field(5, t.quantity(), { pointer: true, description: 'The largest volume that can be made; capacity when unset.' }),
  }, { description: 'Storage capacity a CSI driver can provide for a class in a topology segment.' });
}

export const CSIStorageCapacitySchema = csiStorageCapacitySchema('v1');
export type CSIStorageCapacity = ObjectOf<typeof CSIStorageCapacitySchema>;

function validateCapacity(c: CSIStorageCapacity, allowInvalidLabelValueInSelector: boolean): FieldError[] {
  const errs = validateLabelSelector(c.nodeTopology, FieldPath.root('nodeTopology'), { allowInvalidLabelValueInSelector });
  for (const m of isDns1123Subdomain(c.storageClassName)) errs.push(fieldErr.invalid(FieldPath.root('storageClassName'), c.storageClassName, m));
  if (c.capacity !== undefined) errs.push(...validateNonnegativeQuantity(c.capacity, FieldPath.root('capacity')));
  return errs;
}

function validateCapacityUpdate(c: CSIStorageCapacity, old: CSIStorageCapacity): FieldError[] {
  const errs = validateCapacity(c, hasInvalidLabelValueInSelector(old.nodeTopology));
  if (!isDeepStrictEqual(c.nodeTopology ?? null, old.nodeTopology ?? null)) errs.push(fieldErr.invalid(FieldPath.root('nodeTopology'), c.nodeTopology ?? null, 'field is immutable'));
  if (c.storageClassName !== old.storageClassName) errs.push(fieldErr.invalid(FieldPath.root('storageClassName'), c.storageClassName, 'field is immutable'));
  return errs;
}

export const csiStorageCapacityResource = defineResource<CSIStorageCapacity>((names) => ({
  group: names.group('storage'),
  version: 'v1',
  kind: 'CSIStorageCapacity',
  resource: 'csistoragecapacities',
  singular: 'csistoragecapacity',
  namespaced: true,
  schema: CSIStorageCapacitySchema,
  table: csiStorageCapacityTable,
  fixture: () => ({ storageClassName: 'fast', nodeTopology: { matchLabels: { 'topology.example.com/zone': 'a' } }, capacity: '100Gi' }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    validateCreate: (c) => validateCapacity(c, false),
    validateUpdate: validateCapacityUpdate,
  },
}));
