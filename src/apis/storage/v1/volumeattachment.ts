/**
 * VolumeAttachment (storage.<domain>/v1): a request that a volume be attached to a node, written by
 * the attach/detach controller and answered by the CSI external attacher through /status. The
 * spec never changes after creation; a create starts with an empty status.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { isDns1123Subdomain, nameValidators } from '../../../machinery/name-validation.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { PersistentVolumeSpec } from '../../core/v1/persistentvolume.js';
import { ACCESS_MODES } from '../../core/v1/types/index.js';
import { sourceValidators, validateCSIDriverName } from '../../core/v1/validation/volume-sources.js';
import { volumeAttachmentTable } from './tables.js';

const MAX_METADATA_SIZE = 256 * 1024;
const MAX_ERROR_MESSAGE = 1024;

export const VolumeError = t.struct('storage.v1.VolumeError', {
  time: t.field(1, t.time(), { description: 'When the error happened.' }),
  message: t.field(2, t.string(), { description: 'What went wrong; may be logged.' }),
}, { description: 'An error of an attach or detach operation.' });

export const VolumeAttachmentSource = t.struct('storage.v1.VolumeAttachmentSource', {
  persistentVolumeName: t.field(1, t.string(), { pointer: true, description: 'The persistent volume to attach.' }),
  inlineVolumeSpec: t.field(2, PersistentVolumeSpec, { pointer: true, description: 'An inline volume of a pod (migrated to CSI), described as a persistent volume.' }),
}, { description: 'The volume to attach: exactly one of the two.' });

export const VolumeAttachmentSpec = t.struct('storage.v1.VolumeAttachmentSpec', {
  attacher: t.required(1, t.string(), { always: true, description: 'The CSI driver that attaches the volume.' }),
  source: t.required(2, VolumeAttachmentSource, { description: 'The volume to attach.' }),
  nodeName: t.required(3, t.string(), { always: true, description: 'The node to attach it to.' }),
}, { description: 'Which volume to attach to which node, by which driver.' });

export const VolumeAttachmentStatus = t.struct('storage.v1.VolumeAttachmentStatus', {
  attached: t.required(1, t.bool(), { always: true, description: 'Whether the volume is attached.' }),
  attachmentMetadata: t.field(2, t.map(t.string()), { description: 'What the attach operation returned, for the mount that follows.' }),
  attachError: t.field(3, VolumeError, { pointer: true, description: 'The last error of attaching.' }),
  detachError: t.field(4, VolumeError, { pointer: true, description: 'The last error of detaching.' }),
}, { description: 'How the attachment went.' });

export const VolumeAttachmentSchema = t.struct('storage.v1.VolumeAttachment', {
  ...objectHeader,
  spec: t.required(2, VolumeAttachmentSpec, { description: 'What to attach where. Immutable.' }),
  status: t.field(3, VolumeAttachmentStatus, { description: 'How the attachment went; written by the attacher.' }),
}, { description: 'A request to attach a volume to a node, and its outcome.' });
export type VolumeAttachment = ObjectOf<typeof VolumeAttachmentSchema>;
type InlineSpec = NonNullable<VolumeAttachment['spec']['source']['inlineVolumeSpec']>;

/** A persistent volume spec in the context of an inline volume: CSI only, no capacity, no claim. */
function validateInlineVolumeSpec(spec: InlineSpec, names: ApiNames, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.claimRef) errs.push(fieldErr.forbidden(path.child('claimRef'), 'may not be specified in the context of inline volumes'));
  if (Object.keys(spec.capacity ?? {}).length) errs.push(fieldErr.forbidden(path.child('capacity'), 'may not be specified in the context of inline volumes'));
  if (!spec.csi) errs.push(fieldErr.required(path.child('csi'), 'has to be specified in the context of inline volumes'));
  const modes = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(fieldErr.required(path.child('accessModes')));
  for (const m of modes) if (!(ACCESS_MODES as readonly string[]).includes(m)) errs.push(fieldErr.notSupported(path.child('accessModes'), m, ACCESS_MODES));
  if (spec.csi) errs.push(...sourceValidators(names, '').csi.check(spec.csi as never, path.child('csi')));
  return errs;
}

function validateSpec(va: VolumeAttachment, names: ApiNames): FieldError[] {
  const path = FieldPath.root('spec');
  const { attacher, source, nodeName } = va.spec;
  const errs: FieldError[] = [];
  if (!attacher) errs.push(fieldErr.required(path.child('attacher')));
  const sourcePath = path.child('source');
  const pvName = source.persistentVolumeName;
  if (source.inlineVolumeSpec === undefined && pvName === undefined) errs.push(fieldErr.required(sourcePath, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (source.inlineVolumeSpec !== undefined && pvName !== undefined) errs.push(fieldErr.forbidden(sourcePath, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (pvName !== undefined) {
    if (!pvName) errs.push(fieldErr.required(sourcePath.child('persistentVolumeName'), 'must specify non empty persistentVolumeName'));
  } else if (source.inlineVolumeSpec) errs.push(...validateInlineVolumeSpec(source.inlineVolumeSpec, names, sourcePath.child('inlineVolumeSpec')));
  for (const m of isDns1123Subdomain(nodeName)) errs.push(fieldErr.invalid(path.child('nodeName'), nodeName, m));
  return errs;
}

function validateStatus(va: VolumeAttachment): FieldError[] {
  const path = FieldPath.root('status');
  const s = va.status;
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(s.attachmentMetadata ?? {})) size += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (size > MAX_METADATA_SIZE) errs.push(fieldErr.tooLong(path.child('attachmentMetadata'), MAX_METADATA_SIZE));
  for (const k of ['attachError', 'detachError'] as const) {
    // Kubernetes reports the metadata limit here, although the message limit is what it checks.
    if ((s[k]?.message ?? '').length > MAX_ERROR_MESSAGE) errs.push(fieldErr.tooLong(path.child(k).child('message'), MAX_METADATA_SIZE));
  }
  return errs;
}

/** The checks of the v1 API on top of the common ones: the attacher is a driver name, the volume a volume name. */
function validateV1(va: VolumeAttachment): FieldError[] {
  const errs = validateCSIDriverName(va.spec.attacher, FieldPath.root('spec').child('attacher'));
  const pvName = va.spec.source.persistentVolumeName;
  if (pvName) for (const m of isDns1123Subdomain(pvName)) errs.push(fieldErr.invalid('spec.source.persistentVolumeName', pvName, m));
  return errs;
}

export const volumeAttachmentResource = defineResource<VolumeAttachment>((names) => ({
  group: names.group('storage'),
  version: 'v1',
  kind: 'VolumeAttachment',
  resource: 'volumeattachments',
  singular: 'volumeattachment',
  namespaced: false,
  schema: VolumeAttachmentSchema,
  table: volumeAttachmentTable,
  fixture: () => ({ spec: { attacher: 'example.csi.io', source: { persistentVolumeName: 'pv-1' }, nodeName: 'node-1' } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    prepareForCreate(va) {
      va.status = { attached: false };
    },
    validate: (va) => [...validateSpec(va, names), ...validateStatus(va)],
    validateCreate: validateV1,
    validateUpdate: (va, old) => (isDeepStrictEqual(va.spec, old.spec) ? [] : [fieldErr.invalid(FieldPath.root('spec'), va.spec, 'field is immutable')]),
  },
  subresources: {
    status: statusSubresource<VolumeAttachment>({ validateUpdate: (va) => [...validateSpec(va, names), ...validateStatus(va)] }),
  },
}));
