/**
 * ReplicationController (core/v1): the original replicated workload, with an equality-based label
 * map as selector. Kubernetes defaults the selector (and the controller's labels) from the
 * template's labels and the replicas to 1; /status and /scale as for ReplicaSets.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { labelSelectorFromStructured } from '../../../machinery/labels.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { age, ageColumn, column, containerCells, defineResource, defineTable, formatLabels, nameColumn, statusSubresource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { scaleSubresource } from '../../apps/v1/scale.js';
import { defaultPodTemplateSpec } from './pod/defaults.js';
import { PodTemplateSpec } from './pod/pod-spec.js';
import { validatePodTemplateSpec } from './pod/validation/pod-spec.js';
import { validateReadOnlyPersistentDisks } from './pod/validation/volumes.js';
import { validateNonNegative } from './types/index.js';

export const ReplicationControllerSpec = t.struct('core.v1.ReplicationControllerSpec', {
  replicas: t.field(1, t.int32(), { pointer: true, description: 'The desired number of pods. Default 1.' }),
  minReadySeconds: t.field(4, t.int32(), { description: 'How long a new pod must be ready to count as available.' }),
  selector: t.field(2, t.map(t.string(), { mapType: 'atomic' }), { description: "The labels of the controller's pods; by default the template's labels." }),
  template: t.field(3, PodTemplateSpec, { pointer: true, description: 'The pods to create.' }),
}, { description: 'What a replication controller should run.' });

export const ReplicationControllerCondition = t.struct('core.v1.ReplicationControllerCondition', {
  type: t.required(1, t.string(), { always: true }),
  status: t.required(2, t.string(), { always: true }),
  lastTransitionTime: t.field(3, t.time()),
  reason: t.field(4, t.string()),
  message: t.field(5, t.string()),
}, { description: 'One observation of a replication controller.' });

export const ReplicationControllerStatus = t.struct('core.v1.ReplicationControllerStatus', {
  replicas: t.required(1, t.int32(), { always: true, description: 'The number of pods.' }),
  fullyLabeledReplicas: t.field(2, t.int32(), { description: "The pods that carry all of the template's labels." }),
  readyReplicas: t.field(4, t.int32(), { description: 'The pods that are ready.' }),
  availableReplicas: t.field(5, t.int32(), { description: 'The pods that have been ready for minReadySeconds.' }),
  observedGeneration: t.field(3, t.int64(), { description: 'The generation the status was computed for.' }),
  conditions: t.field(6, t.list(ReplicationControllerCondition, { patchStrategy: 'merge', patchMergeKey: 'type' }), { description: 'The observations of the controller.' }),
}, { description: 'What a replication controller runs, as last observed.' });

export const ReplicationControllerSchema = t.struct('core.v1.ReplicationController', {
  ...objectHeader,
  spec: t.field(2, ReplicationControllerSpec, { description: 'What the controller should run.' }),
  status: t.field(3, ReplicationControllerStatus, { description: 'What the controller runs, as last observed. Read-only.' }),
}, { description: 'A replication controller: keeps a number of pods made from a template running.' });
export type ReplicationController = ObjectOf<typeof ReplicationControllerSchema>;

function validateSpec(rc: ReplicationController, names: ApiNames): FieldError[] {
  const spec = rc.spec;
  const path = FieldPath.root('spec');
  const errs = validateNonNegative(spec.minReadySeconds, path.child('minReadySeconds'));
  const selector = spec.selector ?? {};
  if (Object.keys(selector).length === 0) errs.push(fieldErr.required(path.child('selector')));
  errs.push(...validateNonNegative(spec.replicas ?? 0, path.child('replicas')));
  const tplPath = path.child('template');
  const template = spec.template;
  if (!template) return [...errs, fieldErr.required(tplPath)];
  if (Object.keys(selector).length && !labelSelectorFromStructured({ matchLabels: selector }).matches(template.metadata.labels ?? {})) {
    errs.push(fieldErr.invalid(tplPath.child('metadata').child('labels'), template.metadata.labels ?? {}, '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(template, tplPath, names));
  if ((spec.replicas ?? 0) > 1) errs.push(...validateReadOnlyPersistentDisks(template.spec.volumes, tplPath.child('spec').child('volumes')));
  const restartPolicy = template.spec.restartPolicy ?? '';
  if (restartPolicy !== 'Always') errs.push(fieldErr.notSupported(tplPath.child('spec').child('restartPolicy'), restartPolicy, ['Always']));
  if (template.spec.activeDeadlineSeconds !== undefined) {
    errs.push(fieldErr.forbidden(tplPath.child('spec').child('activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}

function validateStatus(rc: ReplicationController): FieldError[] {
  const s = rc.status;
  const path = FieldPath.root('status');
  const errs: FieldError[] = [];
  for (const k of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const) errs.push(...validateNonNegative(s[k], path.child(k)));
  const replicas = s.replicas ?? 0;
  for (const k of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'] as const) {
    if ((s[k] ?? 0) > replicas) errs.push(fieldErr.invalid(path.child(k), s[k], 'cannot be greater than status.replicas'));
  }
  if ((s.availableReplicas ?? 0) > (s.readyReplicas ?? 0)) errs.push(fieldErr.invalid(path.child('availableReplicas'), s.availableReplicas, 'cannot be greater than readyReplicas'));
  return errs;
}

/** `kubectl get rc`. */
export const replicationControllerTable = defineTable<ReplicationController>({
  columns: [
    nameColumn,
    column('Desired', 'The desired number of pods.', { type: 'integer' }),
    column('Current', 'The number of pods.', { type: 'integer' }),
    column('Ready', 'The number of ready pods.', { type: 'integer' }),
    ageColumn,
    column('Containers', 'Names of each container in the template.', { priority: 1 }),
    column('Images', 'Images referenced by each container in the template.', { priority: 1 }),
    column('Selector', 'The labels of the pods the controller counts.', { priority: 1 }),
  ],
  cells: (rc, ctx) => [
    rc.metadata.name ?? '',
    rc.spec?.replicas ?? 0,
    rc.status?.replicas ?? 0,
    rc.status?.readyReplicas ?? 0,
    age(rc, ctx),
    ...containerCells(rc.spec?.template?.spec?.containers),
    formatLabels(rc.spec?.selector),
  ],
});

export const replicationControllerResource = defineResource<ReplicationController>((names) => ({
  group: '',
  version: 'v1',
  kind: 'ReplicationController',
  resource: 'replicationcontrollers',
  singular: 'replicationcontroller',
  namespaced: true,
  shortNames: ['rc'],
  categories: ['all'],
  schema: ReplicationControllerSchema,
  table: replicationControllerTable,
  fixture: () => ({ spec: { template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } } } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults(rc) {
      const spec = rc.spec;
      const labels = spec.template?.metadata.labels;
      if (labels) {
        if (!Object.keys(spec.selector ?? {}).length) spec.selector = { ...labels };
        if (!Object.keys(rc.metadata.labels ?? {}).length) rc.metadata.labels = { ...labels };
      }
      spec.replicas ??= 1;
      if (spec.template) defaultPodTemplateSpec(spec.template);
    },
    prepareForCreate(rc) {
      rc.status = { replicas: 0 };
    },
    validate: (rc) => validateSpec(rc, names),
  },
  subresources: {
    status: statusSubresource<ReplicationController>({ validateUpdate: validateStatus }),
    scale: scaleSubresource<ReplicationController>(names, 'replicationcontrollers', { group: '', mapSelector: true }),
  },
}));
