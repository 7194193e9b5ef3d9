/**
 * The HorizontalPodAutoscaler types of autoscaling/v2 and the deprecated v2beta2: one description
 * for both, since they have the same fields and numbers. v2beta2 differs only in its markers
 * (no list types, conditions without a merge strategy) and in which fields are always printed.
 */
import { LabelSelector, objectHeader, t, type ObjectOf } from '../../../schema/index.js';

export type HpaVersion = 'v2' | 'v2beta2';

export const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'] as const;
export const METRIC_TARGET_TYPES = ['Utilization', 'Value', 'AverageValue'] as const;

export function hpaSchemas(version: HpaVersion) {
  const n = (type: string): string => `autoscaling.${version}.${type}`;
  const v2 = version === 'v2';
  const atomic = v2 ? ({ listType: 'atomic' } as const) : {};

  const CrossVersionObjectReference = t.struct(n('CrossVersionObjectReference'), {
    kind: t.required(1, t.string(), { always: true, description: 'The kind of the referent, e.g. Deployment.' }),
    name: t.required(2, t.string(), { always: true, description: 'The name of the referent.' }),
    apiVersion: t.field(3, t.string(), { description: 'The API version of the referent.' }),
  }, { description: 'A reference to an object in the same namespace, by kind, name and API version.' });

  const MetricIdentifier = t.struct(n('MetricIdentifier'), {
    name: t.required(1, t.string(), { always: true, description: 'The name of the metric.' }),
    selector: t.field(2, LabelSelector, { pointer: true, description: 'Narrows the metric by its labels.' }),
  }, { description: 'A metric, by name and labels.' });

  const MetricTarget = t.struct(n('MetricTarget'), {
    type: t.required(1, t.string({ enum: METRIC_TARGET_TYPES }), { always: true, description: 'Utilization, Value or AverageValue.' }),
    value: t.field(2, t.quantity(), { pointer: true, description: 'The target value of the metric.' }),
    averageValue: t.field(3, t.quantity(), { pointer: true, description: 'The target value of the metric averaged over the pods.' }),
    averageUtilization: t.field(4, t.int32(), { pointer: true, description: 'The target percentage of the pods\' requests, averaged over them.' }),
  }, { description: 'The value a metric should have.' });

  const MetricValueStatus = t.struct(n('MetricValueStatus'), {
    value: t.field(1, t.quantity(), { pointer: true, description: 'The current value of the metric.' }),
    averageValue: t.field(2, t.quantity(), { pointer: true, description: 'The current value averaged over the pods.' }),
    averageUtilization: t.field(3, t.int32(), { pointer: true, description: 'The current percentage of the pods\' requests.' }),
  }, { description: 'The current value of a metric.' });

  const ObjectMetricSource = t.struct(n('ObjectMetricSource'), {
    describedObject: t.required(1, CrossVersionObjectReference, { description: 'The object the metric describes.' }),
    target: t.required(2, MetricTarget, { description: 'The target value.' }),
    metric: t.required(3, MetricIdentifier, { description: 'The metric.' }),
  }, { description: 'A metric of another object (an Ingress\'s hits per second).' });
  const PodsMetricSource = t.struct(n('PodsMetricSource'), {
    metric: t.required(1, MetricIdentifier, { description: 'The metric.' }),
    target: t.required(2, MetricTarget, { description: 'The target value.' }),
  }, { description: 'A metric of each pod, averaged.' });
  const ResourceMetricSource = t.struct(n('ResourceMetricSource'), {
    name: t.required(1, t.string(), { always: true, description: 'The resource, e.g. cpu.' }),
    target: t.required(2, MetricTarget, { description: 'The target value.' }),
  }, { description: 'A resource of the pods, as in their requests and limits.' });
  const ContainerResourceMetricSource = t.struct(n('ContainerResourceMetricSource'), {
    name: t.required(1, t.string(), { always: true, description: 'The resource, e.g. cpu.' }),
    target: t.required(2, MetricTarget, { description: 'The target value.' }),
    container: t.required(3, t.string(), { always: true, description: 'The container of the pods.' }),
  }, { description: 'A resource of one container of the pods (alpha in 1.25).' });
  const ExternalMetricSource = t.struct(n('ExternalMetricSource'), {
    metric: t.required(1, MetricIdentifier, { description: 'The metric.' }),
    target: t.required(2, MetricTarget, { description: 'The target value.' }),
  }, { description: 'A metric from outside the cluster.' });

  const MetricSpec = t.struct(n('MetricSpec'), {
    type: t.required(1, t.string({ enum: METRIC_SOURCE_TYPES }), { always: true, description: 'Which source below is set.' }),
    object: t.field(2, ObjectMetricSource, { pointer: true }),
    pods: t.field(3, PodsMetricSource, { pointer: true }),
    resource: t.field(4, ResourceMetricSource, { pointer: true }),
    containerResource: t.field(7, ContainerResourceMetricSource, { pointer: true }),
    external: t.field(5, ExternalMetricSource, { pointer: true }),
  }, { description: 'A metric to scale on: its source and target.' });

  const ObjectMetricStatus = t.struct(n('ObjectMetricStatus'), {
    metric: t.required(1, MetricIdentifier),
    current: t.required(2, MetricValueStatus),
    describedObject: t.required(3, CrossVersionObjectReference),
  });
  const PodsMetricStatus = t.struct(n('PodsMetricStatus'), { metric: t.required(1, MetricIdentifier), current: t.required(2, MetricValueStatus) });
  const ResourceMetricStatus = t.struct(n('ResourceMetricStatus'), { name: t.required(1, t.string(), { always: true }), current: t.required(2, MetricValueStatus) });
  const ContainerResourceMetricStatus = t.struct(n('ContainerResourceMetricStatus'), {
    name: t.required(1, t.string(), { always: true }),
    current: t.required(2, MetricValueStatus),
    container: t.required(3, t.string(), { always: true }),
  });
  const ExternalMetricStatus = t.struct(n('ExternalMetricStatus'), { metric: t.required(1, MetricIdentifier), current: t.required(2, MetricValueStatus) });

  const MetricStatus = t.struct(n('MetricStatus'), {
    type: t.required(1, t.string({ enum: METRIC_SOURCE_TYPES }), { always: true }),
    object: t.field(2, ObjectMetricStatus, { pointer: true }),
    pods: t.field(3, PodsMetricStatus, { pointer: true }),
    resource: t.field(4, ResourceMetricStatus, { pointer: true }),
    containerResource: t.field(7, ContainerResourceMetricStatus, { pointer: true }),
    external: t.field(5, ExternalMetricStatus, { pointer: true }),
  }, { description: 'The last reading of a metric.' });

  const HPAScalingPolicy = t.struct(n('HPAScalingPolicy'), {
    type: t.required(1, t.string({ enum: ['Pods', 'Percent'] }), { always: true, description: 'Pods or Percent.' }),
    value: t.required(2, t.int32(), { always: true, description: 'How many pods, or what percentage of them, may change.' }),
    periodSeconds: t.required(3, t.int32(), { always: true, description: 'Over how long a window the policy holds (at most 1800 seconds).' }),
  }, { description: 'How much may change within a period.' });

  const HPAScalingRules = t.struct(n('HPAScalingRules'), {
    stabilizationWindowSeconds: t.field(3, t.int32(), { pointer: true, description: 'How far back recommendations are considered (at most 3600 seconds).' }),
    selectPolicy: t.field(1, t.string({ enum: ['Max', 'Min', 'Disabled'] }), { pointer: true, description: 'Which policy wins: Max (the default), Min, or Disabled.' }),
    policies: t.field(2, t.list(HPAScalingPolicy, atomic), { description: 'The policies; at least one.' }),
  }, { description: 'How fast scaling in one direction may go.' });

  const HorizontalPodAutoscalerBehavior = t.struct(n('HorizontalPodAutoscalerBehavior'), {
    scaleUp: t.field(1, HPAScalingRules, { pointer: true, description: 'Rules for scaling up.' }),
    scaleDown: t.field(2, HPAScalingRules, { pointer: true, description: 'Rules for scaling down.' }),
  }, { description: 'How fast the autoscaler scales up and down.' });

  const HorizontalPodAutoscalerSpec = t.struct(n('HorizontalPodAutoscalerSpec'), {
    scaleTargetRef: t.required(1, CrossVersionObjectReference, { description: 'The scalable object to scale.' }),
    minReplicas: t.field(2, t.int32(), { pointer: true, description: 'The fewest replicas. Default 1.' }),
    maxReplicas: t.required(3, t.int32(), { always: true, description: 'The most replicas; at least minReplicas.' }),
    metrics: t.field(4, t.list(MetricSpec, atomic), { description: 'The metrics to scale on. Default: 80% average CPU utilization.' }),
    behavior: t.field(5, HorizontalPodAutoscalerBehavior, { pointer: true, description: 'How fast to scale up and down.' }),
  }, { description: 'What the autoscaler scales and on which metrics.' });

  const HorizontalPodAutoscalerCondition = t.struct(n('HorizontalPodAutoscalerCondition'), {
    type: t.required(1, t.string(), { always: true }),
    status: t.required(2, t.string(), { always: true }),
    lastTransitionTime: t.field(3, t.time()),
    reason: t.field(4, t.string()),
    message: t.field(5, t.string()),
  }, { description: 'One observation of the autoscaler.' });

  const HorizontalPodAutoscalerStatus = t.struct(n('HorizontalPodAutoscalerStatus'), {
    observedGeneration: t.field(1, t.int64(), { pointer: true }),
    lastScaleTime: t.field(2, t.time(), { pointer: true }),
    currentReplicas: v2 ? t.field(3, t.int32()) : t.required(3, t.int32(), { always: true }),
    desiredReplicas: t.required(4, t.int32(), { always: true }),
    currentMetrics: t.field(5, t.list(MetricStatus, atomic), { always: true }),
    conditions: t.field(
      6,
      t.list(HorizontalPodAutoscalerCondition, v2 ? { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] } : {}),
      v2 ? {} : { always: true },
    ),
  }, { description: 'What the autoscaler last observed and did.' });

  const HorizontalPodAutoscaler = t.struct(n('HorizontalPodAutoscaler'), {
    ...objectHeader,
    spec: t.field(2, HorizontalPodAutoscalerSpec, { description: 'What to scale, and on which metrics.' }),
    status: t.field(3, HorizontalPodAutoscalerStatus, { description: 'What the autoscaler last observed. Read-only.' }),
  }, { description: 'A horizontal pod autoscaler: scales a workload on metrics.' });

  return { HorizontalPodAutoscaler, MetricSpec, MetricStatus, HorizontalPodAutoscalerBehavior, HorizontalPodAutoscalerCondition };
}

export const HpaV2 = hpaSchemas('v2');
export type HorizontalPodAutoscaler = ObjectOf<typeof HpaV2.HorizontalPodAutoscaler>;
export type MetricSpec = NonNullable<HorizontalPodAutoscaler['spec']['metrics']>[number];
export type MetricStatus = NonNullable<HorizontalPodAutoscaler['status']['currentMetrics']>[number];
export type MetricTarget = NonNullable<MetricSpec['resource']>['target'];
