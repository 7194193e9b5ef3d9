/**
 * ReplicaSet (apps/v1): keeps a number of pods matching a selector running. Replicas default to 1;
 * the selector must match the template and is immutable; spec changes bump the generation.
 * `/status` for the controller, `/scale` for autoscalers.
 */
import { FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { LabelSelector, objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { defaultPodTemplateSpec } from '../../core/v1/pod/defaults.js';
import { PodTemplateSpec } from '../../core/v1/pod/pod-spec.js';
import { validateNonNegative } from '../../core/v1/types/index.js';
import { scaleSubresource } from './scale.js';
import { keepLabelsOnStatusWrite, validateReplicaCounts, validateSelectorAndTemplate, validateSelectorUnchanged } from './workload-validation.js';
import { replicaSetTable } from './tables.js';

export const ReplicaSetSpec = t.struct('apps.v1.ReplicaSetSpec', {
  replicas: t.field(1, t.int32(), { pointer: true, description: 'The desired number of pods. Default 1; zero is kept.' }),
  minReadySeconds: t.field(4, t.int32(), { description: 'How long a new pod must be ready, without a container crashing, to count as available.' }),
  selector: t.required(2, LabelSelector, { pointer: true, description: "Selects the replica set's pods; must match the template's labels. Immutable." }),
  template: t.field(3, PodTemplateSpec, { description: 'The pods to create when too few are running.' }),
});

export const ReplicaSetCondition = t.struct('apps.v1.ReplicaSetCondition', {
  type: t.required(1, t.string(), { always: true }),
  status: t.required(2, t.string(), { always: true }),
  lastTransitionTime: t.field(3, t.time()),
  reason: t.field(4, t.string()),
  message: t.field(5, t.string()),
});

export const ReplicaSetStatus = t.struct('apps.v1.ReplicaSetStatus', {
  replicas: t.required(1, t.int32(), { always: true }),
  fullyLabeledReplicas: t.field(2, t.int32()),
  readyReplicas: t.field(4, t.int32()),
  availableReplicas: t.field(5, t.int32()),
  observedGeneration: t.field(3, t.int64()),
  conditions: t.field(6, t.list(ReplicaSetCondition, { patchStrategy: 'merge', patchMergeKey: 'type' })),
});

export const ReplicaSetSchema = t.struct('apps.v1.ReplicaSet', {
  ...objectHeader,
  spec: t.field(2, ReplicaSetSpec, { description: 'What the replica set should be.' }),
  status: t.field(3, ReplicaSetStatus, { description: 'What the replica set is, as last observed. Read-only.' }),
}, { description: 'Keeps a given number of identical pods running.' });
export type ReplicaSet = ObjectOf<typeof ReplicaSetSchema>;

function validateStatus(rs: ReplicaSet): FieldError[] {
  const s = rs.status;
  const path = FieldPath.root('status');
  const errs: FieldError[] = [];
  for (const f of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const) errs.push(...validateNonNegative(s[f], path.child(f)));
  errs.push(...validateReplicaCounts(s, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], path));
  return errs;
}

export const replicaSetResource = defineResource<ReplicaSet>((names) => ({
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
  resource: 'replicasets',
  singular: 'replicaset',
  namespaced: true,
  shortNames: ['rs'],
  categories: ['all'],
  schema: ReplicaSetSchema,
  table: replicaSetTable,
  fixture: () => ({
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
    },
  }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    selectableFieldNames: ['status.replicas'],
    selectableFields: (rs) => ({ 'status.replicas': String(rs.status.replicas ?? 0) }),
    defaults(rs) {
      rs.spec.replicas ??= 1;
      defaultPodTemplateSpec(rs.spec.template);
    },
    prepareForCreate(rs) {
      rs.status = { replicas: 0 };
    },
    validate(rs) {
      const path = FieldPath.root('spec');
      const replicas = rs.spec.replicas ?? 0;
      return [
        ...validateNonNegative(replicas, path.child('replicas')),
        ...validateNonNegative(rs.spec.minReadySeconds, path.child('minReadySeconds')),
        ...validateSelectorAndTemplate(rs.spec.selector, rs.spec.template, replicas, path, names),
      ];
    },
    validateUpdate: (rs, old) => validateSelectorUnchanged(rs.spec.selector, old.spec.selector),
  },
  subresources: {
    status: statusSubresource<ReplicaSet>({
      prepareForUpdate: keepLabelsOnStatusWrite,
      validateUpdate: validateStatus,
    }),
    scale: scaleSubresource<ReplicaSet>(names, 'replicasets'),
  },
}));
