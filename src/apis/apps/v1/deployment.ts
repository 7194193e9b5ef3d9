/**
 * Deployment (apps/v1): declarative updates of pods through replica sets. Defaults, validation and
 * generation tracking as Kubernetes 1.25 has them; `/status` for the controller and `/scale` for
 * autoscalers. The selector is immutable; spec and annotation changes bump the generation.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { LabelSelector, objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { defaultPodTemplateSpec } from '../../core/v1/pod/defaults.js';
import { PodTemplateSpec } from '../../core/v1/pod/pod-spec.js';
import { validateNonNegative } from '../../core/v1/types/index.js';
import { scaleSubresource } from './scale.js';
import { intOrPercentValue, percentValue, validateIntOrPercent } from './int-or-percent.js';
import { keepLabelsOnStatusWrite, validateReplicaCounts, validateSelectorAndTemplate, validateSelectorUnchanged } from './workload-validation.js';
import { deploymentTable } from './tables.js';

export const RollingUpdateDeployment = t.struct('apps.v1.RollingUpdateDeployment', {
  maxUnavailable: t.field(1, t.intOrString(), {
    pointer: true,
    description: 'How many pods may be unavailable during the update: a number, or a percentage of the desired pods rounded down. Default 25%.',
  }),
  maxSurge: t.field(2, t.intOrString(), {
    pointer: true,
    description: 'How many pods may be created above the desired number: a number, or a percentage rounded up. Default 25%. Not 0 when maxUnavailable is 0.',
  }),
});

export const DeploymentStrategy = t.struct('apps.v1.DeploymentStrategy', {
  type: t.field(1, t.string({ enum: ['Recreate', 'RollingUpdate'] }), { description: 'Recreate or RollingUpdate (the default).' }),
  rollingUpdate: t.field(2, RollingUpdateDeployment, { pointer: true, description: 'The rolling update parameters; only with type RollingUpdate.' }),
});

export const DeploymentSpec = t.struct('apps.v1.DeploymentSpec', {
  replicas: t.field(1, t.int32(), { pointer: true, description: 'The desired number of pods. Default 1; zero is kept.' }),
  selector: t.required(2, LabelSelector, { pointer: true, description: "Selects the deployment's pods; must match the template's labels. Immutable." }),
  template: t.required(3, PodTemplateSpec, { description: 'The pods to create.' }),
  strategy: t.field(4, DeploymentStrategy, { patchStrategy: 'retainKeys', description: 'How existing pods are replaced by new ones.' }),
  minReadySeconds: t.field(5, t.int32(), { description: 'How long a new pod must be ready, without a container crashing, to count as available.' }),
  revisionHistoryLimit: t.field(6, t.int32(), { pointer: true, description: 'How many old replica sets are kept for rollback. Default 10.' }),
  paused: t.field(7, t.bool(), { description: 'Whether the deployment is paused.' }),
  progressDeadlineSeconds: t.field(9, t.int32(), {
    pointer: true,
    description: 'How long the deployment may take to make progress before it is reported as failed. Default 600; more than minReadySeconds.',
  }),
});

export const DeploymentCondition = t.struct('apps.v1.DeploymentCondition', {
  type: t.required(1, t.string(), { always: true }),
  status: t.required(2, t.string(), { always: true }),
  lastUpdateTime: t.field(6, t.time()),
  lastTransitionTime: t.field(7, t.time()),
  reason: t.field(4, t.string()),
  message: t.field(5, t.string()),
});

export const DeploymentStatus = t.struct('apps.v1.DeploymentStatus', {
  observedGeneration: t.field(1, t.int64()),
  replicas: t.field(2, t.int32()),
  updatedReplicas: t.field(3, t.int32()),
  readyReplicas: t.field(7, t.int32()),
  availableReplicas: t.field(4, t.int32()),
  unavailableReplicas: t.field(5, t.int32()),
  conditions: t.field(6, t.list(DeploymentCondition, { patchStrategy: 'merge', patchMergeKey: 'type' })),
  collisionCount: t.field(8, t.int32(), { pointer: true }),
});

export const DeploymentSchema = t.struct('apps.v1.Deployment', {
  ...objectHeader,
  spec: t.field(2, DeploymentSpec, { description: 'What the deployment should be.' }),
  status: t.field(3, DeploymentStatus, { description: 'What the deployment is, as last observed. Read-only.' }),
}, { description: 'Declarative updates for pods and replica sets.' });
export type Deployment = ObjectOf<typeof DeploymentSchema>;

function validateStrategy(spec: Deployment['spec'], path: FieldPath): FieldError[] {
  const strategy = spec.strategy;
  switch (strategy.type) {
    case 'Recreate':
      return strategy.rollingUpdate ? [fieldErr.forbidden(path.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate': {
      const ru = strategy.rollingUpdate;
      if (!ru) return [fieldErr.required(path.child('rollingUpdate'), 'this should be defaulted and never be nil')];
      const rp = path.child('rollingUpdate');
      const errs = [...validateIntOrPercent(ru.maxUnavailable, rp.child('maxUnavailable')), ...validateIntOrPercent(ru.maxSurge, rp.child('maxSurge'))];
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        errs.push(fieldErr.invalid(rp.child('maxUnavailable'), ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
      }
      const pct = percentValue(ru.maxUnavailable);
      if (pct !== undefined && pct > 100) errs.push(fieldErr.invalid(rp.child('maxUnavailable'), ru.maxUnavailable, 'must not be greater than 100%'));
      return errs;
    }
    default:
      return [fieldErr.notSupported(path, strategy, ['Recreate', 'RollingUpdate'])];
  }
}

function validateDeployment(d: Deployment, names: ApiNames): FieldError[] {
  const spec = d.spec;
  const path = FieldPath.root('spec');
  const replicas = spec.replicas ?? 0;
  const errs = [
    ...validateNonNegative(replicas, path.child('replicas')),
    ...validateSelectorAndTemplate(spec.selector, spec.template, replicas, path, names),
    ...validateStrategy(spec, path.child('strategy')),
    ...validateNonNegative(spec.minReadySeconds, path.child('minReadySeconds')),
    ...validateNonNegative(spec.revisionHistoryLimit, path.child('revisionHistoryLimit')),
  ];
  const deadline = spec.progressDeadlineSeconds;
  if (deadline !== undefined) {
    errs.push(...validateNonNegative(deadline, path.child('progressDeadlineSeconds')));
    if (deadline <= (spec.minReadySeconds ?? 0)) errs.push(fieldErr.invalid(path.child('progressDeadlineSeconds'), deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

function validateStatus(d: Deployment, old: Deployment): FieldError[] {
  const s = d.status;
  const path = FieldPath.root('status');
  const errs: FieldError[] = [];
  for (const f of ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'] as const) {
    errs.push(...validateNonNegative(s[f], path.child(f)));
  }
  errs.push(...validateReplicaCounts(s, ['updatedReplicas', 'readyReplicas', 'availableReplicas'], path));
  const prev = old.status.collisionCount;
  if (prev !== undefined && (s.collisionCount === undefined || s.collisionCount < prev)) {
    errs.push(fieldErr.invalid(path.child('collisionCount'), s.collisionCount ?? 0, 'cannot be decremented'));
  }
  return errs;
}

function defaultDeployment(d: Deployment): void {
  const spec = d.spec;
  spec.replicas ??= 1;
  const strategy = spec.strategy;
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  defaultPodTemplateSpec(spec.template);
}

export const deploymentResource = defineResource<Deployment>((names) => ({
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  resource: 'deployments',
  singular: 'deployment',
  namespaced: true,
  shortNames: ['deploy'],
  categories: ['all'],
  schema: DeploymentSchema,
  table: deploymentTable,
  fixture: () => ({
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
    },
  }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults: defaultDeployment,
    prepareForCreate(d) {
      d.status = {};
    },
    prepareForUpdate(d, old) {
      // Annotations are copied to the replica sets, so their changes count as changes of intent too.
      if (!isDeepStrictEqual(d.metadata.annotations ?? {}, old.metadata.annotations ?? {})) d.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
    validate: (d) => validateDeployment(d, names),
    validateUpdate: (d, old) => validateSelectorUnchanged(d.spec.selector, old.spec.selector),
  },
  subresources: {
    status: statusSubresource<Deployment>({
      prepareForUpdate: keepLabelsOnStatusWrite,
      validateUpdate: validateStatus,
    }),
    scale: scaleSubresource<Deployment>(names, 'deployments'),
  },
}));
