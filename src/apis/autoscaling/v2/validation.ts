/** HorizontalPodAutoscaler validation (autoscaling/v2, the storage version), in Kubernetes 1.25's words. */
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { isPathSegmentName } from '../../../machinery/name-validation.js';
import { quantitySign } from '../../../machinery/quantity.js';
import { validateContainerResourceName } from '../../core/v1/pod/validation/resources.js';
import { validateDns1123Label } from '../../core/v1/types/index.js';
import { quantityOf } from '../../core/v1/validation/resources.js';
import { METRIC_SOURCE_TYPES, type HorizontalPodAutoscaler, type MetricSpec, type MetricTarget } from './types.js';

const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
type Spec = HorizontalPodAutoscaler['spec'];
type Rules = NonNullable<NonNullable<Spec['behavior']>['scaleUp']>;

export function validateCrossVersionObjectReference(ref: { kind: string; name: string }, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of ['kind', 'name'] as const) {
    if (!ref[k]) errs.push(fieldErr.required(path.child(k)));
    else for (const m of isPathSegmentName(ref[k])) errs.push(fieldErr.invalid(path.child(k), ref[k], m));
  }
  return errs;
}

function validateMetricIdentifier(id: { name: string }, path: FieldPath): FieldError[] {
  if (!id.name) return [fieldErr.required(path.child('name'), 'must specify a metric name')];
  return isPathSegmentName(id.name).map((m) => fieldErr.invalid(path.child('name'), id.name, m));
}

const positive = (text: string | undefined): boolean => {
  const q = text === undefined ? undefined : quantityOf(text);
  return q !== undefined && quantitySign(q) === 1;
};

function validateMetricTarget(mt: MetricTarget, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!mt.type) errs.push(fieldErr.required(path.child('type'), 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(mt.type)) errs.push(fieldErr.invalid(path.child('type'), mt.type, 'must be either Utilization, Value, or AverageValue'));
  if (mt.value !== undefined && !positive(mt.value)) errs.push(fieldErr.invalid(path.child('value'), mt.value, 'must be positive'));
  if (mt.averageValue !== undefined && !positive(mt.averageValue)) errs.push(fieldErr.invalid(path.child('averageValue'), mt.averageValue, 'must be positive'));
  if (mt.averageUtilization !== undefined && mt.averageUtilization < 1) errs.push(fieldErr.invalid(path.child('averageUtilization'), mt.averageUtilization, 'must be greater than 0'));
  return errs;
}

function validateResourceTarget(target: MetricTarget, path: FieldPath): FieldError[] {
  const errs = validateMetricTarget(target, path.child('target'));
  if (target.averageUtilization === undefined && target.averageValue === undefined) {
    errs.push(fieldErr.required(path.child('target').child('averageUtilization'), 'must set either a target raw value or a target utilization'));
  }
  if (target.averageUtilization !== undefined && target.averageValue !== undefined) {
    errs.push(fieldErr.forbidden(path.child('target').child('averageValue'), 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

const SOURCE_CHECKS: { key: keyof MetricSpec & string; check(spec: MetricSpec, path: FieldPath, names: ApiNames): FieldError[] }[] = [
  {
    key: 'object',
    check: (m, p) => {
      const src = m.object as NonNullable<MetricSpec['object']>;
      const errs = [...validateCrossVersionObjectReference(src.describedObject, p.child('describedObject')), ...validateMetricIdentifier(src.metric, p.child('metric')), ...validateMetricTarget(src.target, p.child('target'))];
      if (src.target.value === undefined && src.target.averageValue === undefined) errs.push(fieldErr.required(p.child('target').child('averageValue'), 'must set either a target value or averageValue'));
      return errs;
    },
  },
  {
    key: 'external',
    check: (m, p) => {
      const src = m.external as NonNullable<MetricSpec['external']>;
      const errs = [...validateMetricIdentifier(src.metric, p.child('metric')), ...validateMetricTarget(src.target, p.child('target'))];
      if (src.target.value === undefined && src.target.averageValue === undefined) errs.push(fieldErr.required(p.child('target').child('averageValue'), 'must set either a target value for metric or a per-pod target'));
      if (src.target.value !== undefined && src.target.averageValue !== undefined) errs.push(fieldErr.forbidden(p.child('target').child('value'), 'may not set both a target value for metric and a per-pod target'));
      return errs;
    },
  },
  {
    key: 'pods',
    check: (m, p) => {
      const src = m.pods as NonNullable<MetricSpec['pods']>;
      const errs = [...validateMetricIdentifier(src.metric, p.child('metric')), ...validateMetricTarget(src.target, p.child('target'))];
      if (src.target.averageValue === undefined) errs.push(fieldErr.required(p.child('target').child('averageValue'), 'must specify a positive target averageValue'));
      return errs;
    },
  },
  {
    key: 'resource',
    check: (m, p) => {
      const src = m.resource as NonNullable<MetricSpec['resource']>;
      const errs = src.name ? [] : [fieldErr.required(p.child('name'), 'must specify a resource name')];
      return [...errs, ...validateResourceTarget(src.target, p)];
    },
  },
  {
    key: 'containerResource',
    check: (m, p, names) => {
      const src = m.containerResource as NonNullable<MetricSpec['containerResource']>;
      const errs = src.name ? validateContainerResourceName(src.name, p.child('name'), names) : [fieldErr.required(p.child('name'), 'must specify a resource name')];
      errs.push(...(src.container ? validateDns1123Label(src.container, p.child('container')) : [fieldErr.required(p.child('container'), 'must specify a container')]));
      return [...errs, ...validateResourceTarget(src.target, p)];
    },
  },
];

const FIELD_OF_TYPE: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' };

function validateMetricSpec(m: MetricSpec, path: FieldPath, names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  if (!m.type) errs.push(fieldErr.required(path.child('type'), 'must specify a metric source type'));
  if (!(METRIC_SOURCE_TYPES as readonly string[]).includes(m.type)) errs.push(fieldErr.notSupported(path.child('type'), m.type, METRIC_SOURCE_TYPES));
  const present: string[] = [];
  for (const { key, check } of SOURCE_CHECKS) {
    if (m[key] === undefined) continue;
    present.push(key);
    if (present.length === 1) errs.push(...check(m, path.child(key), names));
  }
  const expected = FIELD_OF_TYPE[m.type];
  if (expected === undefined) errs.push(fieldErr.notSupported(path.child('type'), m.type, METRIC_SOURCE_TYPES));
  else if (m[expected as keyof MetricSpec] === undefined) errs.push(fieldErr.required(path.child(expected), 'must populate information for the given metric source'));
  if (present.length !== 1) for (const key of present.filter((k) => k !== expected)) errs.push(fieldErr.forbidden(path.child(key), 'must populate the given metric source only'));
  return errs;
}

function validateScalingRules(rules: Rules | undefined, path: FieldPath): FieldError[] {
  if (!rules) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (window !== undefined && window < 0) errs.push(fieldErr.invalid(path.child('stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(fieldErr.invalid(path.child('stabilizationWindowSeconds'), window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  if (rules.selectPolicy !== undefined && !['Disabled', 'Max', 'Min'].includes(rules.selectPolicy)) errs.push(fieldErr.notSupported(path.child('selectPolicy'), rules.selectPolicy, ['Disabled', 'Max', 'Min']));
  const policies = rules.policies ?? [];
  if (policies.length === 0) errs.push(fieldErr.required(path.child('policies'), 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const pp = path.child('policies').index(i);
    if (p.type !== 'Pods' && p.type !== 'Percent') errs.push(fieldErr.notSupported(pp.child('type'), p.type, ['Percent', 'Pods']));
    if (p.value <= 0) errs.push(fieldErr.invalid(pp.child('value'), p.value, 'must be greater than zero'));
    if (p.periodSeconds <= 0) errs.push(fieldErr.invalid(pp.child('periodSeconds'), p.periodSeconds, 'must be greater than zero'));
    if (p.periodSeconds > MAX_PERIOD_SECONDS) errs.push(fieldErr.invalid(pp.child('periodSeconds'), p.periodSeconds, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return errs;
}

/** The spec; `minReplicasLowerBound` is 1, or 0 when the stored object already scales to zero (HPAScaleToZero is off in 1.25). */
export function validateHpaSpec(spec: Spec, minReplicasLowerBound: number, names: ApiNames): FieldError[] {
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  if (spec.minReplicas !== undefined && spec.minReplicas < minReplicasLowerBound) {
    errs.push(fieldErr.invalid(path.child('minReplicas'), spec.minReplicas, `must be greater than or equal to ${minReplicasLowerBound}`));
  }
  if (spec.maxReplicas < 1) errs.push(fieldErr.invalid(path.child('maxReplicas'), spec.maxReplicas, 'must be greater than 0'));
  if (spec.minReplicas !== undefined && spec.maxReplicas < spec.minReplicas) errs.push(fieldErr.invalid(path.child('maxReplicas'), spec.maxReplicas, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(spec.scaleTargetRef, path.child('scaleTargetRef')));
  const metrics = spec.metrics ?? [];
  metrics.forEach((m, i) => errs.push(...validateMetricSpec(m, path.child('metrics').index(i), names)));
  if (spec.minReplicas === 0 && !metrics.some((m) => m.type === 'Object' || m.type === 'External')) {
    errs.push(fieldErr.forbidden(path.child('metrics'), 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  if (spec.behavior) {
    errs.push(...validateScalingRules(spec.behavior.scaleUp, path.child('behavior').child('scaleUp')));
    errs.push(...validateScalingRules(spec.behavior.scaleDown, path.child('behavior').child('scaleDown')));
  }
  return errs;
}

export function validateHpaStatus(hpa: HorizontalPodAutoscaler): FieldError[] {
  const path = FieldPath.root('status');
  const errs: FieldError[] = [];
  for (const k of ['currentReplicas', 'desiredReplicas'] as const) {
    const v = hpa.status[k] ?? 0;
    if (v < 0) errs.push(fieldErr.invalid(path.child(k), v, 'must be greater than or equal to 0'));
  }
  return errs;
}
