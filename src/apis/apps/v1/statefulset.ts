/**
 * StatefulSet (apps/v1): pods with stable names and storage. Defaults, validation, `/status` and
 * `/scale` as Kubernetes 1.25 has them. Kubernetes checks only the labels and annotations of the
 * template (its volumes may name the claim templates), and forbids changing anything in the spec
 * but replicas, template, updateStrategy, persistentVolumeClaimRetentionPolicy and minReadySeconds.
 * The two alpha fields of 1.25 (rollingUpdate.maxUnavailable, persistentVolumeClaimRetentionPolicy)
 * are dropped unless the stored object already uses them, as with their feature gates off.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { validateLabelSelector } from '../../../machinery/label-selector-validation.js';
import { validateAnnotations, validateLabels } from '../../../machinery/meta-validation.js';
import { labelSelectorFromStructured, type StructuredLabelSelector } from '../../../machinery/labels.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { LabelSelector, objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { defaultPodTemplateSpec } from '../../core/v1/pod/defaults.js';
import { PodTemplateSpec } from '../../core/v1/pod/pod-spec.js';
import { isEmptySelector } from '../../core/v1/pod/validation/common.js';
import { PersistentVolumeClaimSchema } from '../../core/v1/persistentvolumeclaim.js';
import { validateNonNegative } from '../../core/v1/types/index.js';
import { intOrPercentValue, validateIntOrPercent, validateNotMoreThan100Percent } from './int-or-percent.js';
import { scaleSubresource } from './scale.js';
import { statefulSetTable } from './tables.js';
import { validateCollisionCountNotDecremented, validateReplicaCounts } from './workload-validation.js';

export const RollingUpdateStatefulSetStrategy = t.struct('apps.v1.RollingUpdateStatefulSetStrategy', {
  partition: t.field(1, t.int32(), { pointer: true, description: 'Pods with an ordinal below the partition keep the old template. Default 0.' }),
  maxUnavailable: t.field(2, t.intOrString(), { pointer: true, description: 'How many pods may be unavailable during the update (alpha in 1.25).' }),
});

export const StatefulSetUpdateStrategy = t.struct('apps.v1.StatefulSetUpdateStrategy', {
  type: t.field(1, t.string({ enum: ['RollingUpdate', 'OnDelete'] }), { description: 'RollingUpdate (the default) or OnDelete.' }),
  rollingUpdate: t.field(2, RollingUpdateStatefulSetStrategy, { pointer: true, description: 'The rolling update parameters; only with type RollingUpdate.' }),
});

export const StatefulSetPersistentVolumeClaimRetentionPolicy = t.struct('apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy', {
  whenDeleted: t.field(1, t.string({ enum: ['Retain', 'Delete'] })),
  whenScaled: t.field(2, t.string({ enum: ['Retain', 'Delete'] })),
});

export const StatefulSetSpec = t.struct('apps.v1.StatefulSetSpec', {
  replicas: t.field(1, t.int32(), { pointer: true, description: 'The desired number of pods. Default 1.' }),
  selector: t.required(2, LabelSelector, { pointer: true, description: "Selects the set's pods; must match the template's labels. Immutable." }),
  template: t.required(3, PodTemplateSpec, { description: 'The pods to create, each named <set>-<ordinal>.' }),
  volumeClaimTemplates: t.field(4, t.list(PersistentVolumeClaimSchema), { description: 'Claims each pod gets, named <template>-<pod>. Immutable.' }),
  serviceName: t.required(5, t.string(), { always: true, description: 'The headless service that gives the pods their network identity. Immutable.' }),
  podManagementPolicy: t.field(6, t.string({ enum: ['OrderedReady', 'Parallel'] }), { description: 'OrderedReady (the default) or Parallel. Immutable.' }),
  updateStrategy: t.field(7, StatefulSetUpdateStrategy, { description: 'How pods are replaced when the template changes.' }),
  revisionHistoryLimit: t.field(8, t.int32(), { pointer: true, description: 'How many old revisions are kept. Default 10.' }),
  minReadySeconds: t.field(9, t.int32(), { description: 'How long a new pod must be ready to count as available.' }),
  persistentVolumeClaimRetentionPolicy: t.field(10, StatefulSetPersistentVolumeClaimRetentionPolicy, { pointer: true, description: 'What happens to the claims when the set is deleted or scaled down (alpha in 1.25).' }),
});

export const StatefulSetCondition = t.struct('apps.v1.StatefulSetCondition', {
  type: t.required(1, t.string(), { always: true }),
  status: t.required(2, t.string(), { always: true }),
  lastTransitionTime: t.field(3, t.time()),
  reason: t.field(4, t.string()),
  message: t.field(5, t.string()),
});

export const StatefulSetStatus = t.struct('apps.v1.StatefulSetStatus', {
  observedGeneration: t.field(1, t.int64()),
  replicas: t.required(2, t.int32(), { always: true }),
  readyReplicas: t.field(3, t.int32()),
  currentReplicas: t.field(4, t.int32()),
  updatedReplicas: t.field(5, t.int32()),
  currentRevision: t.field(6, t.string()),
  updateRevision: t.field(7, t.string()),
  collisionCount: t.field(9, t.int32(), { pointer: true }),
  conditions: t.field(10, t.list(StatefulSetCondition, { patchStrategy: 'merge', patchMergeKey: 'type' })),
  availableReplicas: t.field(11, t.int32(), { always: true }),
});

export const StatefulSetSchema = t.struct('apps.v1.StatefulSet', {
  ...objectHeader,
  spec: t.field(2, StatefulSetSpec, { description: 'What the stateful set should be.' }),
  status: t.field(3, StatefulSetStatus, { description: 'What the stateful set is, as last observed. Read-only.' }),
}, { description: 'A stateful set: pods with stable identities and their own storage.' });
export type StatefulSet = ObjectOf<typeof StatefulSetSchema>;

function validateUpdateStrategy(strategy: StatefulSet['spec']['updateStrategy'], path: FieldPath): FieldError[] {
  switch (strategy.type) {
    case undefined:
    case '':
      return [fieldErr.required(path)];
    case 'OnDelete':
      return strategy.rollingUpdate ? [fieldErr.invalid(path.child('rollingUpdate'), strategy.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate': {
      const ru = strategy.rollingUpdate;
      if (!ru) return [];
      const rp = path.child('rollingUpdate');
      const errs = validateNonNegative(ru.partition, rp.child('partition'));
      if (ru.maxUnavailable !== undefined) {
        const mp = rp.child('maxUnavailable');
        errs.push(...validateIntOrPercent(ru.maxUnavailable, mp));
        if (intOrPercentValue(ru.maxUnavailable) === 0) errs.push(fieldErr.invalid(mp, ru.maxUnavailable, 'cannot be 0'));
        errs.push(...validateNotMoreThan100Percent(ru.maxUnavailable, mp));
      }
      return errs;
    }
    default:
      return [fieldErr.invalid(path, strategy, "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

function validateRetentionPolicy(policy: StatefulSet['spec']['persistentVolumeClaimRetentionPolicy'], path: FieldPath): FieldError[] {
  if (!policy) return [];
  const errs: FieldError[] = [];
  for (const k of ['whenDeleted', 'whenScaled'] as const) {
    const v = policy[k] ?? '';
    if (v !== 'Retain' && v !== 'Delete') errs.push(fieldErr.notSupported(path.child(k), v, ['Retain', 'Delete']));
  }
  return errs;
}

function validateSpec(spec: StatefulSet['spec']): FieldError[] {
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const policy = spec.podManagementPolicy ?? '';
  if (!policy) errs.push(fieldErr.required(path.child('podManagementPolicy')));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(fieldErr.invalid(path.child('podManagementPolicy'), policy, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...validateUpdateStrategy(spec.updateStrategy, path.child('updateStrategy')));
  errs.push(...validateRetentionPolicy(spec.persistentVolumeClaimRetentionPolicy, path.child('persistentVolumeClaimRetentionPolicy')));
  errs.push(...validateNonNegative(spec.replicas ?? 0, path.child('replicas')));
  errs.push(...validateNonNegative(spec.minReadySeconds, path.child('minReadySeconds')));
  const selPath = path.child('selector');
  let selectorErrs: FieldError[] = [];
  if (!spec.selector) errs.push(fieldErr.required(selPath));
  else {
    selectorErrs = validateLabelSelector(spec.selector, selPath);
    errs.push(...selectorErrs);
    if (isEmptySelector(spec.selector)) errs.push(fieldErr.invalid(selPath, spec.selector, 'empty selector is invalid for statefulset'));
  }
  const tpl = path.child('template');
  if (selectorErrs.length) errs.push(fieldErr.invalid(selPath, spec.selector, ''));
  else {
    // A missing selector selects nothing and is not compared; an empty one is reported above.
    const selector = labelSelectorFromStructured(spec.selector as StructuredLabelSelector | undefined);
    if (spec.selector && !isEmptySelector(spec.selector) && !selector.matches(spec.template.metadata.labels ?? {})) {
      errs.push(fieldErr.invalid(tpl.child('metadata').child('labels'), spec.template.metadata.labels ?? {}, '`selector` does not match template `labels`'));
    }
    errs.push(...validateLabels(spec.template.metadata.labels, tpl.child('labels')));
    errs.push(...validateAnnotations(spec.template.metadata.annotations, tpl.child('annotations')));
  }
  const restartPolicy = spec.template.spec.restartPolicy ?? '';
  if (restartPolicy !== 'Always') errs.push(fieldErr.notSupported(tpl.child('spec').child('restartPolicy'), restartPolicy, ['Always']));
  if (spec.template.spec.activeDeadlineSeconds !== undefined) {
    errs.push(fieldErr.forbidden(tpl.child('spec').child('activeDeadlineSeconds'), 'activeDeadlineSeconds in StatefulSet is not Supported'));
  }
  return errs;
}

const MUTABLE = ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'persistentVolumeClaimRetentionPolicy'] as const;

function validateSpecUpdate(sts: StatefulSet, old: StatefulSet): FieldError[] {
  const rest = (s: StatefulSet['spec']): Record<string, unknown> => {
    const copy: Record<string, unknown> = { ...s };
    for (const k of MUTABLE) delete copy[k];
    return JSON.parse(JSON.stringify(copy)) as Record<string, unknown>;
  };
  if (isDeepStrictEqual(rest(sts.spec), rest(old.spec))) return [];
  return [
    fieldErr.forbidden(
      FieldPath.root('spec'),
      "updates to statefulset spec for fields other than 'replicas', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

function validateStatus(sts: StatefulSet, old: StatefulSet): FieldError[] {
  const s = sts.status;
  const path = FieldPath.root('status');
  const errs: FieldError[] = [];
  for (const f of ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'] as const) {
    errs.push(...validateNonNegative(s[f], path.child(f)));
  }
  errs.push(...validateReplicaCounts(s, ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'], path));
  return [...errs, ...validateCollisionCountNotDecremented(s.collisionCount, old.status.collisionCount, path)];
}

/** Drops the alpha fields of 1.25 unless the stored object already has them. */
function dropDisabledFields(sts: StatefulSet, old: StatefulSet | undefined): void {
  if (!old?.spec.persistentVolumeClaimRetentionPolicy) delete sts.spec.persistentVolumeClaimRetentionPolicy;
  const ru = sts.spec.updateStrategy.rollingUpdate;
  if (ru && old?.spec.updateStrategy.rollingUpdate?.maxUnavailable === undefined) delete ru.maxUnavailable;
}

export const statefulSetResource = defineResource<StatefulSet>((names: ApiNames) => ({
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  resource: 'statefulsets',
  singular: 'statefulset',
  namespaced: true,
  shortNames: ['sts'],
  categories: ['all'],
  schema: StatefulSetSchema,
  table: statefulSetTable,
  fixture: () => ({
    spec: {
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres:16', volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql' }] }] } },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    },
  }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults(sts) {
      const spec = sts.spec;
      spec.podManagementPolicy ||= 'OrderedReady';
      const strategy = spec.updateStrategy;
      if (!strategy.type) {
        strategy.type = 'RollingUpdate';
        strategy.rollingUpdate ??= {};
      }
      if (strategy.type === 'RollingUpdate' && strategy.rollingUpdate) strategy.rollingUpdate.partition ??= 0;
      spec.replicas ??= 1;
      spec.revisionHistoryLimit ??= 10;
      defaultPodTemplateSpec(spec.template);
      // Claim templates get a claim's defaults, status included.
      for (const claim of spec.volumeClaimTemplates ?? []) {
        if (!claim.status.phase) claim.status.phase = 'Pending';
        claim.spec.volumeMode ??= 'Filesystem';
      }
    },
    prepareForCreate: (sts) => dropDisabledFields(sts, undefined),
    prepareForUpdate: (sts, old) => dropDisabledFields(sts, old),
    validate: (sts) => validateSpec(sts.spec),
    validateUpdate: validateSpecUpdate,
  },
  subresources: {
    status: statusSubresource<StatefulSet>({ validateUpdate: validateStatus }),
    scale: scaleSubresource<StatefulSet>(names, 'statefulsets'),
  },
}));
