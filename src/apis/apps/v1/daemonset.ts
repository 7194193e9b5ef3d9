/**
 * DaemonSet (apps/v1): one pod per eligible node. Defaults, validation and `/status` as Kubernetes
 * 1.25 has them: a rolling update moves pods by maxUnavailable or by maxSurge (exactly one of them
 * non-zero), the selector is immutable, and spec changes bump the generation.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { validateLabelSelector } from '../../../machinery/label-selector-validation.js';
import { labelSelectorFromStructured, type StructuredLabelSelector } from '../../../machinery/labels.js';
import type { ApiNames } from '../../../machinery/api-names.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { LabelSelector, objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { defaultPodTemplateSpec } from '../../core/v1/pod/defaults.js';
import { PodTemplateSpec } from '../../core/v1/pod/pod-spec.js';
import { isEmptySelector } from '../../core/v1/pod/validation/common.js';
import { validatePodTemplateSpec } from '../../core/v1/pod/validation/pod-spec.js';
import { validateReadOnlyPersistentDisks } from '../../core/v1/pod/validation/volumes.js';
import { validateNonNegative } from '../../core/v1/types/index.js';
import { intOrPercentValue, validateIntOrPercent, validateNotMoreThan100Percent } from './int-or-percent.js';
import { daemonSetTable } from './tables.js';
import { validateCollisionCountNotDecremented, validateSelectorUnchanged } from './workload-validation.js';

export const RollingUpdateDaemonSet = t.struct('apps.v1.RollingUpdateDaemonSet', {
  maxUnavailable: t.field(1, t.intOrString(), { pointer: true, description: 'How many nodes may be without an available pod during the update: a number or a percentage. Default 1.' }),
  maxSurge: t.field(2, t.intOrString(), { pointer: true, description: 'How many nodes may run an extra new pod during the update: a number or a percentage. Default 0.' }),
});

export const DaemonSetUpdateStrategy = t.struct('apps.v1.DaemonSetUpdateStrategy', {
  type: t.field(1, t.string({ enum: ['RollingUpdate', 'OnDelete'] }), { description: 'RollingUpdate (the default) or OnDelete.' }),
  rollingUpdate: t.field(2, RollingUpdateDaemonSet, { pointer: true, description: 'The rolling update parameters; only with type RollingUpdate.' }),
});

export const DaemonSetSpec = t.struct('apps.v1.DaemonSetSpec', {
  selector: t.required(1, LabelSelector, { pointer: true, description: "Selects the daemon set's pods; must match the template's labels. Immutable." }),
  template: t.required(2, PodTemplateSpec, { description: 'The pod to run on each node; restartPolicy Always.' }),
  updateStrategy: t.field(3, DaemonSetUpdateStrategy, { description: 'How pods are replaced when the template changes.' }),
  minReadySeconds: t.field(4, t.int32(), { description: 'How long a new pod must be ready to count as available.' }),
  revisionHistoryLimit: t.field(6, t.int32(), { pointer: true, description: 'How many old revisions are kept for rollback. Default 10.' }),
});

export const DaemonSetCondition = t.struct('apps.v1.DaemonSetCondition', {
  type: t.required(1, t.string(), { always: true }),
  status: t.required(2, t.string(), { always: true }),
  lastTransitionTime: t.field(3, t.time()),
  reason: t.field(4, t.string()),
  message: t.field(5, t.string()),
});

export const DaemonSetStatus = t.struct('apps.v1.DaemonSetStatus', {
  currentNumberScheduled: t.required(1, t.int32(), { always: true }),
  numberMisscheduled: t.required(2, t.int32(), { always: true }),
  desiredNumberScheduled: t.required(3, t.int32(), { always: true }),
  numberReady: t.required(4, t.int32(), { always: true }),
  observedGeneration: t.field(5, t.int64()),
  updatedNumberScheduled: t.field(6, t.int32()),
  numberAvailable: t.field(7, t.int32()),
  numberUnavailable: t.field(8, t.int32()),
  collisionCount: t.field(9, t.int32(), { pointer: true }),
  conditions: t.field(10, t.list(DaemonSetCondition, { patchStrategy: 'merge', patchMergeKey: 'type' })),
});

export const DaemonSetSchema = t.struct('apps.v1.DaemonSet', {
  ...objectHeader,
  spec: t.field(2, DaemonSetSpec, { description: 'What the daemon set should be.' }),
  status: t.field(3, DaemonSetStatus, { description: 'What the daemon set is, as last observed. Read-only.' }),
}, { description: 'A daemon set: a pod on each node the template allows.' });
export type DaemonSet = ObjectOf<typeof DaemonSetSchema>;

function validateUpdateStrategy(strategy: DaemonSet['spec']['updateStrategy'], path: FieldPath): FieldError[] {
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const ru = strategy.rollingUpdate;
      if (!ru) return [fieldErr.required(path.child('rollingUpdate'))];
      const rp = path.child('rollingUpdate');
      const errs = [
        ...validateIntOrPercent(ru.maxUnavailable, rp.child('maxUnavailable')),
        ...validateIntOrPercent(ru.maxSurge, rp.child('maxSurge')),
        ...validateNotMoreThan100Percent(ru.maxUnavailable, rp.child('maxUnavailable')),
        ...validateNotMoreThan100Percent(ru.maxSurge, rp.child('maxSurge')),
      ];
      const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
      const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
      if (hasUnavailable && hasSurge) errs.push(fieldErr.invalid(rp.child('maxSurge'), ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
      else if (!hasUnavailable && !hasSurge) errs.push(fieldErr.required(rp.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
      return errs;
    }
    default:
      return [fieldErr.notSupported(path, strategy, ['RollingUpdate', 'OnDelete'])];
  }
}

function validateDaemonSet(ds: DaemonSet, names: ApiNames): FieldError[] {
  const spec = ds.spec;
  const path = FieldPath.root('spec');
  const selPath = path.child('selector');
  const selectorErrs = spec.selector ? validateLabelSelector(spec.selector, selPath) : [];
  const errs = [...selectorErrs];
  // No selector selects nothing, so it matches no template either.
  const matches = spec.selector && !selectorErrs.length ? labelSelectorFromStructured(spec.selector as StructuredLabelSelector).matches(spec.template.metadata.labels ?? {}) : false;
  if (!matches && !selectorErrs.length) {
    errs.push(fieldErr.invalid(path.child('template').child('metadata').child('labels'), spec.template.metadata.labels ?? {}, '`selector` does not match template `labels`'));
  }
  if (spec.selector && isEmptySelector(spec.selector)) errs.push(fieldErr.invalid(selPath, spec.selector, 'empty selector is invalid for daemonset'));
  const tpl = path.child('template');
  errs.push(...validatePodTemplateSpec(spec.template, tpl, names));
  errs.push(...validateReadOnlyPersistentDisks(spec.template.spec.volumes, tpl.child('spec').child('volumes')));
  const restartPolicy = spec.template.spec.restartPolicy ?? '';
  if (restartPolicy !== 'Always') errs.push(fieldErr.notSupported(tpl.child('spec').child('restartPolicy'), restartPolicy, ['Always']));
  if (spec.template.spec.activeDeadlineSeconds !== undefined) {
    errs.push(fieldErr.invalid(tpl.child('spec').child('activeDeadlineSeconds'), spec.template.spec.activeDeadlineSeconds, 'activeDeadlineSeconds in DaemonSet is not Supported'));
  }
  errs.push(...validateNonNegative(spec.minReadySeconds, path.child('minReadySeconds')));
  errs.push(...validateUpdateStrategy(spec.updateStrategy, path.child('updateStrategy')));
  errs.push(...validateNonNegative(spec.revisionHistoryLimit, path.child('revisionHistoryLimit')));
  return errs;
}

function validateStatus(ds: DaemonSet, old: DaemonSet): FieldError[] {
  const path = FieldPath.root('status');
  const errs: FieldError[] = [];
  for (const f of ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'] as const) {
    errs.push(...validateNonNegative(ds.status[f], path.child(f)));
  }
  return [...errs, ...validateCollisionCountNotDecremented(ds.status.collisionCount, old.status.collisionCount, path)];
}

export const daemonSetResource = defineResource<DaemonSet>((names) => ({
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  resource: 'daemonsets',
  singular: 'daemonset',
  namespaced: true,
  shortNames: ['ds'],
  categories: ['all'],
  schema: DaemonSetSchema,
  table: daemonSetTable,
  fixture: () => ({
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { 'example.com/role': 'edge' }, containers: [{ name: 'agent', image: 'busybox:1.36' }] } },
    },
  }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults(ds) {
      const strategy = ds.spec.updateStrategy;
      if (!strategy.type) strategy.type = 'RollingUpdate';
      if (strategy.type === 'RollingUpdate') {
        const ru = (strategy.rollingUpdate ??= {});
        ru.maxUnavailable ??= 1;
        ru.maxSurge ??= 0;
      }
      ds.spec.revisionHistoryLimit ??= 10;
      defaultPodTemplateSpec(ds.spec.template);
    },
    validate: (ds) => validateDaemonSet(ds, names),
    validateUpdate: (ds, old) => validateSelectorUnchanged(ds.spec.selector, old.spec.selector),
  },
  subresources: {
    status: statusSubresource<DaemonSet>({ validateUpdate: validateStatus }),
  },
}));
