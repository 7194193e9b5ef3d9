/**
 * CSIDriver (storage.<domain>/v1): what a CSI volume driver installed in the cluster needs from
 * Kubernetes. Defaults as Kubernetes 1.25; attachRequired, podInfoOnMount, fsGroupPolicy and the
 * lifecycle modes never change. seLinuxMount (alpha in 1.25) is dropped unless already in use.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { csiDriverTable } from './tables.js';

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'] as const;
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'] as const;
const MIN_TOKEN_SECONDS = 10 * 60;
const MAX_TOKEN_SECONDS = 2 ** 32;

export const TokenRequest = t.struct('storage.v1.TokenRequest', {
  audience: t.required(1, t.string(), { always: true, description: 'The audience of the token; the API server\'s own audiences when empty.' }),
  expirationSeconds: t.field(2, t.int64(), { pointer: true, description: 'How long the token lasts, at least ten minutes.' }),
}, { description: 'A service account token the driver receives when a volume is mounted.' });

export const CSIDriverSpec = t.struct('storage.v1.CSIDriverSpec', {
  attachRequired: t.field(1, t.bool(), { pointer: true, description: 'Whether volumes must be attached (ControllerPublishVolume) before they are mounted. Default true. Immutable.' }),
  podInfoOnMount: t.field(2, t.bool(), { pointer: true, description: 'Whether the driver is told the pod\'s name, namespace, UID and service account on mount. Default false. Immutable.' }),
  volumeLifecycleModes: t.field(3, t.list(t.string({ enum: LIFECYCLE_MODES }), { listType: 'set' }), { description: 'Persistent, Ephemeral or both. Default Persistent. Immutable.' }),
  storageCapacity: t.field(4, t.bool(), { pointer: true, description: 'Whether the driver publishes CSIStorageCapacity objects for the scheduler. Default false.' }),
  fsGroupPolicy: t.field(5, t.string({ enum: FS_GROUP_POLICIES }), { pointer: true, description: 'Whether volumes take the pod\'s fsGroup: ReadWriteOnceWithFSType (the default), File or None. Immutable.' }),
  tokenRequests: t.field(6, t.list(TokenRequest, { listType: 'atomic' }), { description: 'Service account tokens passed to the driver on mount, one per audience.' }),
  requiresRepublish: t.field(7, t.bool(), { pointer: true, description: 'Whether NodePublishVolume is called again periodically (to refresh tokens). Default false.' }),
  seLinuxMount: t.field(8, t.bool(), { pointer: true, description: 'Whether the driver mounts volumes with an SELinux context option (alpha in 1.25).' }),
}, { description: 'What a CSI driver needs from Kubernetes.' });

export const CSIDriverSchema = t.struct('storage.v1.CSIDriver', {
  ...objectHeader,
  spec: t.required(2, CSIDriverSpec, { description: 'What the driver needs.' }),
}, { description: 'A CSI driver deployed in the cluster, named as the driver calls itself.' });
export type CSIDriver = ObjectOf<typeof CSIDriverSchema>;

function validateTokenRequests(requests: CSIDriver['spec']['tokenRequests'], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const audiences = new Set<string>();
  (requests ?? []).forEach((r, i) => {
    const p = path.index(i);
    if (audiences.has(r.audience)) {
      errs.push(fieldErr.duplicate(p.child('audience'), r.audience));
      return;
    }
    audiences.add(r.audience);
    const secs = r.expirationSeconds;
    if (secs === undefined) return;
    if (secs < MIN_TOKEN_SECONDS) errs.push(fieldErr.invalid(p.child('expirationSeconds'), secs, 'may not specify a duration less than 10 minutes'));
    if (secs > MAX_TOKEN_SECONDS) errs.push(fieldErr.invalid(p.child('expirationSeconds'), secs, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errs;
}

function validateCSIDriver(d: CSIDriver): FieldError[] {
  const spec = d.spec;
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  // Kubernetes names the first one attachedRequired in its messages.
  if (spec.attachRequired === undefined) errs.push(fieldErr.required(path.child('attachedRequired')));
  if (spec.podInfoOnMount === undefined) errs.push(fieldErr.required(path.child('podInfoOnMount')));
  if (spec.storageCapacity === undefined) errs.push(fieldErr.required(path.child('storageCapacity')));
  if (spec.fsGroupPolicy !== undefined && !(FS_GROUP_POLICIES as readonly string[]).includes(spec.fsGroupPolicy)) {
    errs.push(fieldErr.notSupported(path.child('fsGroupPolicy'), spec.fsGroupPolicy, FS_GROUP_POLICIES));
  }
  errs.push(...validateTokenRequests(spec.tokenRequests, path.child('tokenRequests')));
  for (const mode of spec.volumeLifecycleModes ?? []) {
    if (!(LIFECYCLE_MODES as readonly string[]).includes(mode)) errs.push(fieldErr.notSupported(path.child('volumeLifecycleModes'), mode, LIFECYCLE_MODES));
  }
  return errs;
}

function validateCSIDriverUpdate(d: CSIDriver, old: CSIDriver): FieldError[] {
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const immutable: [keyof CSIDriver['spec'], string][] = [
    ['attachRequired', 'attachedRequired'],
    ['fsGroupPolicy', 'fsGroupPolicy'],
    ['podInfoOnMount', 'podInfoOnMount'],
    ['volumeLifecycleModes', 'volumeLifecycleModes'],
  ];
  for (const [field, name] of immutable) {
    if (JSON.stringify(d.spec[field] ?? null) !== JSON.stringify(old.spec[field] ?? null)) errs.push(fieldErr.immutable(path.child(name), d.spec[field] ?? null));
  }
  return errs;
}

export const csiDriverResource = defineResource<CSIDriver>((names) => ({
  group: names.group('storage'),
  version: 'v1',
  kind: 'CSIDriver',
  resource: 'csidrivers',
  singular: 'csidriver',
  namespaced: false,
  schema: CSIDriverSchema,
  table: csiDriverTable,
  fixture: () => ({ spec: { attachRequired: false, tokenRequests: [{ audience: 'vault', expirationSeconds: 3600 }] } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    defaults(d) {
      const spec = d.spec;
      spec.attachRequired ??= true;
      spec.podInfoOnMount ??= false;
      spec.storageCapacity ??= false;
      spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
      if (!spec.volumeLifecycleModes?.length) spec.volumeLifecycleModes = ['Persistent'];
      spec.requiresRepublish ??= false;
    },
    prepareForCreate(d) {
      delete d.spec.seLinuxMount;
    },
    prepareForUpdate(d, old) {
      if (old.spec.seLinuxMount === undefined) delete d.spec.seLinuxMount;
    },
    validate: validateCSIDriver,
    validateUpdate: validateCSIDriverUpdate,
  },
}));
