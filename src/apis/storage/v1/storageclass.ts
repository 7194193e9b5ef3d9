/**
 * StorageClass (storage.<domain>/v1): how volumes of a class are provisioned. The provisioner,
 * parameters, reclaim policy and binding mode never change after creation.
 */
import { isDeepStrictEqual } from 'node:util';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { TopologySelectorTerm, validateQualifiedName } from '../../core/v1/types/index.js';
import { storageClassTable } from './tables.js';

export const VOLUME_BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'] as const;
const RECLAIM_POLICIES = ['Delete', 'Retain'] as const;
const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;

export const StorageClassSchema = t.struct('storage.v1.StorageClass', {
  ...objectHeader,
  provisioner: t.required(2, t.string(), { always: true, description: 'The volume plugin (provisioner) that makes volumes of this class. Immutable.' }),
  parameters: t.field(3, t.map(t.string()), { description: 'Parameters for the provisioner, at most 512 of them and 256 KiB in all. Immutable.' }),
  reclaimPolicy: t.field(4, t.string({ enum: RECLAIM_POLICIES }), { pointer: true, description: 'What happens to a released volume: Delete (the default) or Retain. Immutable.' }),
  mountOptions: t.field(5, t.list(t.string()), { description: 'Mount options of the volumes made, e.g. ["ro", "soft"]; not checked.' }),
  allowVolumeExpansion: t.field(6, t.bool(), { pointer: true, description: 'Whether claims of this class may grow.' }),
  volumeBindingMode: t.field(7, t.string({ enum: VOLUME_BINDING_MODES }), { pointer: true, description: 'When volumes are bound: Immediate (the default) or WaitForFirstConsumer. Immutable.' }),
  allowedTopologies: t.field(8, t.list(TopologySelectorTerm, { listType: 'atomic' }), { description: 'Where volumes may be provisioned; anywhere when empty.' }),
}, { description: 'A storage class: a provisioner and its parameters, for claims that name the class.' });
export type StorageClass = ObjectOf<typeof StorageClassSchema>;

function validateParameters(params: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const entries = Object.entries(params ?? {});
  if (entries.length > MAX_PARAMETERS) return [fieldErr.tooLong(path, MAX_PARAMETERS)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(fieldErr.invalid(path, k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > MAX_PARAMETERS_SIZE) errs.push(fieldErr.tooLong(path, MAX_PARAMETERS_SIZE));
  return errs;
}

function validateAllowedTopologies(terms: StorageClass['allowedTopologies'], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen: Map<string, string[]>[] = [];
  (terms ?? []).forEach((term, i) => {
    const exprPath = path.index(i).child('matchLabelExpressions');
    const byKey = new Map<string, string[]>();
    (term.matchLabelExpressions ?? []).forEach((req, j) => {
      const p = exprPath.index(j);
      const values = req.values ?? [];
      if (values.length === 0) errs.push(fieldErr.required(p.child('values')));
      const set = new Set<string>();
      values.forEach((v, k) => {
        if (set.has(v)) errs.push(fieldErr.duplicate(p.child('values').index(k), v));
        set.add(v);
      });
      errs.push(...validateQualifiedName(req.key, p.child('key')));
      if (byKey.has(req.key)) errs.push(fieldErr.duplicate(p.child('key'), req.key));
      byKey.set(req.key, [...set].sort());
    });
    if (seen.some((other) => isDeepStrictEqual(other, byKey))) errs.push(fieldErr.duplicate(exprPath, ''));
    seen.push(byKey);
  });
  return errs;
}

function validateStorageClass(sc: StorageClass): FieldError[] {
  const errs: FieldError[] = [];
  if (!sc.provisioner) errs.push(fieldErr.required(FieldPath.root('provisioner')));
  else errs.push(...validateQualifiedName(sc.provisioner.toLowerCase(), FieldPath.root('provisioner')));
  errs.push(...validateParameters(sc.parameters, FieldPath.root('parameters')));
  const policy = sc.reclaimPolicy ?? '';
  if (policy && !(RECLAIM_POLICIES as readonly string[]).includes(policy)) errs.push(fieldErr.notSupported(FieldPath.root('reclaimPolicy'), policy, RECLAIM_POLICIES));
  const mode = sc.volumeBindingMode;
  if (mode === undefined) errs.push(fieldErr.required(FieldPath.root('volumeBindingMode')));
  else if (!(VOLUME_BINDING_MODES as readonly string[]).includes(mode)) errs.push(fieldErr.notSupported(FieldPath.root('volumeBindingMode'), mode, VOLUME_BINDING_MODES));
  errs.push(...validateAllowedTopologies(sc.allowedTopologies, FieldPath.root('allowedTopologies')));
  return errs;
}

function validateStorageClassUpdate(sc: StorageClass, old: StorageClass): FieldError[] {
  const errs: FieldError[] = [];
  if (!isDeepStrictEqual(sc.parameters ?? {}, old.parameters ?? {})) errs.push(fieldErr.forbidden(FieldPath.root('parameters'), 'updates to parameters are forbidden.'));
  if (sc.provisioner !== old.provisioner) errs.push(fieldErr.forbidden(FieldPath.root('provisioner'), 'updates to provisioner are forbidden.'));
  if (sc.reclaimPolicy !== old.reclaimPolicy) errs.push(fieldErr.forbidden(FieldPath.root('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'));
  if (sc.volumeBindingMode !== old.volumeBindingMode) errs.push(fieldErr.immutable(FieldPath.root('volumeBindingMode'), sc.volumeBindingMode ?? null));
  return errs;
}

export const storageClassResource = defineResource<StorageClass>((names) => ({
  group: names.group('storage'),
  version: 'v1',
  kind: 'StorageClass',
  resource: 'storageclasses',
  singular: 'storageclass',
  namespaced: false,
  shortNames: ['sc'],
  schema: StorageClassSchema,
  table: storageClassTable(names),
  fixture: () => ({ provisioner: 'example.com/fast', parameters: { type: 'ssd' }, allowVolumeExpansion: true }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    defaults(sc) {
      sc.reclaimPolicy ??= 'Delete';
      sc.volumeBindingMode ??= 'Immediate';
    },
    validate: validateStorageClass,
    validateUpdate: validateStorageClassUpdate,
  },
}));
