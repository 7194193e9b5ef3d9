/**
 * A pod's volumes: unique DNS-label names, exactly one source each, and the rules of each source:
 * the pod's own (emptyDir, secret, configMap, persistentVolumeClaim, downwardAPI, projected, csi,
 * ephemeral) here, those it shares with persistent volumes through validation/volume-sources.ts,
 * and an ephemeral claim template through the claim's validator. gitRepo, iscsi, cinder and
 * storageos count as sources but are not checked further.
 */
import type { ApiNames } from '../../../../../machinery/api-names.js';
import { fieldErr, type FieldError, type FieldPath } from '../../../../../machinery/field-errors.js';
import { validateAnnotations, validateLabels } from '../../../../../machinery/meta-validation.js';
import { quantitySign } from '../../../../../machinery/quantity.js';
import type { ObjectMeta } from '../../../../../schema/index.js';
import { validateDns1123Label, validateDns1123Subdomain } from '../../types/index.js';
import { validatePersistentVolumeClaimSpec } from '../../validation/claim-spec.js';
import { quantityOf } from '../../validation/resources.js';
import { sharedSourceValidators, type SharedVolumeSourceName } from '../../validation/volume-sources.js';
import type { DownwardAPIVolumeFile, KeyToPath, PersistentVolumeClaimTemplate, ProjectedVolumeSource, Volume, VolumeSource } from '../volumes.js';
import { validateFileMode, validateLocalNonReservedPath } from './common.js';
import { validateObjectFieldSelector, validateResourceFieldSelector, VOLUME_FIELD_PATHS } from './env.js';

/** The sources in the order Kubernetes checks them; the first one set is the volume's type. */
const SOURCE_ORDER = [
  'emptyDir',
  'hostPath',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'quobyte',
  'downwardAPI',
  'fc',
  'flexVolume',
  'configMap',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'storageos',
  'projected',
  'scaleIO',
  'csi',
  'ephemeral',
] as const satisfies readonly (keyof VolumeSource)[];

export type VolumeSourceName = (typeof SOURCE_ORDER)[number];

/** The source a volume uses (the first set), or undefined when it names none. */
export function volumeSourceOf(v: VolumeSource): VolumeSourceName | undefined {
  return SOURCE_ORDER.find((k) => v[k] !== undefined);
}

function validateKeyToPath(kp: KeyToPath, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!kp.key) errs.push(fieldErr.required(path.child('key')));
  if (!kp.path) errs.push(fieldErr.required(path.child('path')));
  errs.push(...validateLocalNonReservedPath(kp.path, path.child('path')), ...validateFileMode(kp.mode, path.child('mode')));
  return errs;
}

/** One file of a downwardAPI volume or projection; errors name the volume, not the item (as Kubernetes does). */
function validateDownwardAPIFile(file: DownwardAPIVolumeFile, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!file.path) errs.push(fieldErr.required(path.child('path')));
  errs.push(...validateLocalNonReservedPath(file.path, path.child('path')));
  if (file.fieldRef) {
    errs.push(...validateObjectFieldSelector(file.fieldRef, VOLUME_FIELD_PATHS, path.child('fieldRef')));
    if (file.resourceFieldRef) errs.push(fieldErr.invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (file.resourceFieldRef) {
    errs.push(...validateResourceFieldSelector(file.resourceFieldRef, path.child('resourceFieldRef'), true));
  } else {
    errs.push(fieldErr.required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...validateFileMode(file.mode, path.child('mode')));
  return errs;
}

function validateProjected(src: ProjectedVolumeSource, path: FieldPath): FieldError[] {
  const errs = validateFileMode(src.defaultMode, path.child('defaultMode'));
  const paths = new Set<string>();
  const claim = (p: string, value: string): void => {
    if (!p) return;
    if (paths.has(p)) errs.push(fieldErr.invalid(path, value, 'conflicting duplicate paths'));
    paths.add(p);
  };
  (src.sources ?? []).forEach((s, i) => {
    const sp = path.child('sources').index(i);
    let count = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const ref = s[kind];
      if (!ref) continue;
      count++;
      const pp = sp.child(kind);
      if (!ref.name) errs.push(fieldErr.required(pp.child('name')));
      (ref.items ?? []).forEach((kp, j) => {
        errs.push(...validateKeyToPath(kp, pp.child('items').index(j)));
        claim(kp.path, ref.name ?? '');
      });
    }
    if (s.downwardAPI) {
      count++;
      for (const file of s.downwardAPI.items ?? []) {
        errs.push(...validateDownwardAPIFile(file, sp.child('downwardAPI')));
        claim(file.path, file.path);
      }
    }
    if (s.serviceAccountToken) {
      count++;
      const tp = sp.child('serviceAccountToken');
      const exp = s.serviceAccountToken.expirationSeconds ?? 3600;
      if (exp < 600) errs.push(fieldErr.invalid(tp.child('expirationSeconds'), exp, 'may not specify a duration less than 10 minutes'));
      if (exp > 2 ** 32) errs.push(fieldErr.invalid(tp.child('expirationSeconds'), exp, 'may not specify a duration larger than 2^32 seconds'));
      if (!s.serviceAccountToken.path) errs.push(fieldErr.required(path.child('path')));
    }
    if (count > 1) errs.push(fieldErr.forbidden(sp, 'may not specify more than 1 volume type'));
  });
  return errs;
}

/** The claim template of an ephemeral volume: its metadata, and the spec as a claim's. */
function validateClaimTemplate(tpl: PersistentVolumeClaimTemplate, path: FieldPath, names: ApiNames): FieldError[] {
  const meta = path.child('metadata');
  return [
    ...validateLabels(tpl.metadata.labels, meta.child('labels')),
    ...validateAnnotations(tpl.metadata.annotations, meta.child('annotations')),
    ...validatePersistentVolumeClaimSpec(names, tpl.spec, path.child('spec')),
  ];
}

function validateSource(v: Volume, path: FieldPath, podMeta: ObjectMeta | undefined, names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of SOURCE_ORDER) {
    if (v[kind] === undefined) continue;
    if (count > 0) {
      errs.push(fieldErr.forbidden(path.child(kind), 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...validateOneSource(v, kind, path, podMeta, names));
  }
  if (count === 0) errs.push(fieldErr.required(path, 'must specify a volume type'));
  return errs;
}

function isSharedSource(kind: VolumeSourceName, shared: object): kind is SharedVolumeSourceName {
  return kind in shared;
}

/** The rules of the volume's source `kind`; `volumePath` is the volume's own path. */
function validateOneSource(v: Volume, kind: VolumeSourceName, volumePath: FieldPath, podMeta: ObjectMeta | undefined, names: ApiNames): FieldError[] {
  const shared = sharedSourceValidators(names);
  if (isSharedSource(kind, shared)) {
    const validator: { path?: string; check(source: never, at: FieldPath): FieldError[] } = shared[kind];
    return validator.check(v[kind] as never, volumePath.child(validator.path ?? kind));
  }
  const path = volumePath.child(kind);
  const errs: FieldError[] = [];
  switch (kind) {
    case 'emptyDir': {
      const limit = v.emptyDir?.sizeLimit;
      const q = limit === undefined ? undefined : quantityOf(limit);
      if (q && quantitySign(q) < 0) errs.push(fieldErr.forbidden(path.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity'));
      break;
    }
    case 'secret': {
      const s = v.secret;
      if (!s?.secretName) errs.push(fieldErr.required(path.child('secretName')));
      errs.push(...validateFileMode(s?.defaultMode, path.child('defaultMode')));
      (s?.items ?? []).forEach((kp, i) => errs.push(...validateKeyToPath(kp, path.child('items').index(i))));
      break;
    }
    case 'configMap': {
      const c = v.configMap;
      if (!c?.name) errs.push(fieldErr.required(path.child('name')));
      errs.push(...validateFileMode(c?.defaultMode, path.child('defaultMode')));
      (c?.items ?? []).forEach((kp, i) => errs.push(...validateKeyToPath(kp, path.child('items').index(i))));
      break;
    }
    case 'persistentVolumeClaim':
      if (!v.persistentVolumeClaim?.claimName) errs.push(fieldErr.required(path.child('claimName')));
      break;
    case 'downwardAPI':
      errs.push(...validateFileMode(v.downwardAPI?.defaultMode, path.child('defaultMode')));
      for (const file of v.downwardAPI?.items ?? []) errs.push(...validateDownwardAPIFile(file, path));
      break;
    case 'projected':
      if (v.projected) errs.push(...validateProjected(v.projected, path));
      break;
    case 'csi': {
      const csi = v.csi;
      const driver = csi?.driver ?? '';
      if (!driver) errs.push(fieldErr.required(path.child('driver')));
      if (driver.length > 63) errs.push(fieldErr.tooLong(path.child('driver'), 63));
      errs.push(...validateDns1123Subdomain(driver.toLowerCase(), path.child('driver')).map((e) => ({ ...e, value: driver })));
      const ref = csi?.nodePublishSecretRef;
      if (ref) {
        if (!ref.name) errs.push(fieldErr.required(path.child('nodePublishSecretRef').child('name')));
        else errs.push(...validateDns1123Subdomain(ref.name, path.child('name')));
      }
      break;
    }
    case 'ephemeral': {
      const tpl = v.ephemeral?.volumeClaimTemplate;
      if (!tpl) return [fieldErr.required(path.child('volumeClaimTemplate'))];
      errs.push(...validateClaimTemplate(tpl, path.child('volumeClaimTemplate'), names));
      // The claim is named <pod>-<volume>; it must be a valid object name.
      if (podMeta?.name && v.name) {
        const claimName = `${podMeta.name}-${v.name}`;
        for (const e of validateDns1123Subdomain(claimName, path.child('name'))) {
          errs.push(fieldErr.invalid(path.child('name'), v.name, `PVC name ${JSON.stringify(claimName)}: ${e.detail ?? ''}`));
        }
      }
      break;
    }
    default:
      break;
  }
  return errs;
}

/**
 * Validates the volume list and returns the volumes that passed, by name: mounts may refer only to
 * those, as in Kubernetes (a broken volume also makes its mounts "not found").
 */
export function validateVolumes(volumes: readonly Volume[] | undefined, podMeta: ObjectMeta | undefined, path: FieldPath, names: ApiNames): { errs: FieldError[]; byName: Map<string, Volume> } {
  const errs: FieldError[] = [];
  const byName = new Map<string, Volume>();
  const createdClaims = new Set<string>();
  if (podMeta?.name) for (const v of volumes ?? []) if (v.ephemeral) createdClaims.add(`${podMeta.name}-${v.name}`);
  (volumes ?? []).forEach((v, i) => {
    const p = path.index(i);
    const namePath = p.child('name');
    const el = validateSource(v, p, podMeta, names);
    if (!v.name) el.push(fieldErr.required(namePath));
    else el.push(...validateDns1123Label(v.name, namePath));
    if (byName.has(v.name)) el.push(fieldErr.duplicate(namePath, v.name));
    if (el.length === 0) byName.set(v.name, v);
    else errs.push(...el);
    const claim = v.persistentVolumeClaim?.claimName;
    if (claim && createdClaims.has(claim)) {
      errs.push(fieldErr.invalid(p.child('persistentVolumeClaim').child('claimName'), claim, 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return { errs, byName };
}

/** With more than one replica, a GCE persistent disk can be shared only read-only. */
export function validateReadOnlyPersistentDisks(volumes: readonly Volume[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (volumes ?? []).forEach((v, i) => {
    if (v.gcePersistentDisk && !v.gcePersistentDisk.readOnly) {
      errs.push(
        fieldErr.invalid(
          path.index(i).child('gcePersistentDisk').child('readOnly'),
          false,
          'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
        ),
      );
    }
  });
  return errs;
}
