/**
 * CSINode (storage.<domain>/v1): the CSI drivers registered on a node, written by the kubelet and
 * named as the node. A driver's entry never changes once registered; drivers may come and go.
 */
import { isDeepStrictEqual } from 'node:util';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { validateNonNegative, validateQualifiedName } from '../../core/v1/types/index.js';
import { validateCSIDriverName } from '../../core/v1/validation/volume-sources.js';
import { csiNodeTable } from './tables.js';

const MAX_NODE_ID_LENGTH = 256;

export const VolumeNodeResources = t.struct('storage.v1.VolumeNodeResources', {
  count: t.field(1, t.int32(), { pointer: true, description: 'How many volumes of the driver the node may hold; no limit when unset.' }),
}, { description: 'Volume limits of a node for one driver.' });

export const CSINodeDriver = t.struct('storage.v1.CSINodeDriver', {
  name: t.required(1, t.string(), { always: true, description: 'The driver\'s name, as in its CSIDriver.' }),
  nodeID: t.required(2, t.string(), { always: true, description: 'The node as the driver knows it.' }),
  topologyKeys: t.field(3, t.list(t.string()), { always: true, description: 'The topology label keys the driver reports for the node.' }),
  allocatable: t.field(4, VolumeNodeResources, { pointer: true, description: 'The volume limits of the node for this driver.' }),
}, { description: 'One CSI driver registered on the node.' });

export const CSINodeSpec = t.struct('storage.v1.CSINodeSpec', {
  drivers: t.required(1, t.list(CSINodeDriver, { patchStrategy: 'merge', patchMergeKey: 'name' }), { always: true, description: 'The drivers registered on the node.' }),
}, { description: 'The CSI drivers of a node.' });

export const CSINodeSchema = t.struct('storage.v1.CSINode', {
  ...objectHeader,
  spec: t.required(2, CSINodeSpec, { description: 'The drivers registered on the node.' }),
}, { description: 'The CSI drivers installed on a node; named as the node.' });
export type CSINode = ObjectOf<typeof CSINodeSchema>;

function validateCSINode(node: CSINode): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (node.spec.drivers ?? []).forEach((d, i) => {
    const p = FieldPath.root('spec').child('drivers').index(i);
    errs.push(...validateCSIDriverName(d.name, p.child('name')));
    if (!d.nodeID) errs.push(fieldErr.required(p.child('nodeID')));
    if (d.nodeID.length > MAX_NODE_ID_LENGTH) errs.push(fieldErr.invalid(p.child('nodeID'), d.nodeID, `must be ${MAX_NODE_ID_LENGTH} characters or less`));
    if (d.allocatable?.count !== undefined) errs.push(...validateNonNegative(d.allocatable.count, p.child('allocatable').child('count')));
    if (names.has(d.name)) errs.push(fieldErr.duplicate(p.child('name'), d.name));
    names.add(d.name);
    const keys = new Set<string>();
    for (const key of d.topologyKeys ?? []) {
      if (!key) errs.push(fieldErr.required(p));
      if (keys.has(key)) errs.push(fieldErr.duplicate(p, key));
      keys.add(key);
      errs.push(...validateQualifiedName(key, p));
    }
  });
  return errs;
}

function validateCSINodeUpdate(node: CSINode, old: CSINode): FieldError[] {
  const errs: FieldError[] = [];
  for (const before of old.spec.drivers ?? []) {
    for (const now of node.spec.drivers ?? []) {
      if (before.name === now.name && !isDeepStrictEqual(before, now)) errs.push(fieldErr.invalid('CSINodeDriver', now, 'field is immutable'));
    }
  }
  return errs;
}

export const csiNodeResource = defineResource<CSINode>((names) => ({
  group: names.group('storage'),
  version: 'v1',
  kind: 'CSINode',
  resource: 'csinodes',
  singular: 'csinode',
  namespaced: false,
  schema: CSINodeSchema,
  table: csiNodeTable,
  fixture: () => ({ spec: { drivers: [{ name: 'example.csi.io', nodeID: 'node-1', topologyKeys: ['topology.example.com/zone'], allocatable: { count: 16 } }] } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    validate: validateCSINode,
    validateUpdate: validateCSINodeUpdate,
  },
}));
