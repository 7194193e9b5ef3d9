/**
 * HorizontalPodAutoscaler at autoscaling/v1: a CPU utilization target only. Stored as v2; the
 * conversion keeps everything v1 cannot say in four annotations (other metrics, current readings,
 * conditions, behavior), as Kubernetes does, so nothing is lost on a round trip through v1.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { defineVersion, type VersionConversion } from '../../../registry/define-resource.js';
import { objectHeader, t, type KubeObject, type ObjectOf } from '../../../schema/index.js';
import { horizontalPodAutoscalerResource } from '../v2/horizontalpodautoscaler.js';
import type { HorizontalPodAutoscaler as HubHpa, MetricSpec, MetricStatus } from '../v2/types.js';
import { metricSpecFromV1, metricSpecToV1, metricStatusFromV1, metricStatusToV1 } from './hpa-metrics.js';

const CrossVersionObjectReference = t.struct('autoscaling.v1.CrossVersionObjectReference', {
  kind: t.required(1, t.string(), { always: true, description: 'The kind of the referent, e.g. Deployment.' }),
  name: t.required(2, t.string(), { always: true, description: 'The name of the referent.' }),
  apiVersion: t.field(3, t.string(), { description: 'The API version of the referent.' }),
}, { structType: 'atomic', description: 'A reference to an object in the same namespace.' });

export const HorizontalPodAutoscalerV1Schema = t.struct('autoscaling.v1.HorizontalPodAutoscaler', {
  ...objectHeader,
  spec: t.field(2, t.struct('autoscaling.v1.HorizontalPodAutoscalerSpec', {
    scaleTargetRef: t.required(1, CrossVersionObjectReference, { description: 'The scalable object to scale.' }),
    minReplicas: t.field(2, t.int32(), { pointer: true, description: 'The fewest replicas. Default 1.' }),
    maxReplicas: t.required(3, t.int32(), { always: true, description: 'The most replicas.' }),
    targetCPUUtilizationPercentage: t.field(4, t.int32(), { pointer: true, description: 'The target average CPU use, as a percentage of the requests.' }),
  }, { description: 'What the autoscaler scales, and its CPU target.' })),
  status: t.field(3, t.struct('autoscaling.v1.HorizontalPodAutoscalerStatus', {
    observedGeneration: t.field(1, t.int64(), { pointer: true }),
    lastScaleTime: t.field(2, t.time(), { pointer: true }),
    currentReplicas: t.required(3, t.int32(), { always: true }),
    desiredReplicas: t.required(4, t.int32(), { always: true }),
    currentCPUUtilizationPercentage: t.field(5, t.int32(), { pointer: true }),
  }, { description: 'What the autoscaler last observed.' })),
}, { description: 'A horizontal pod autoscaler with a CPU utilization target.' });
export type HorizontalPodAutoscalerV1 = ObjectOf<typeof HorizontalPodAutoscalerV1Schema>;

/** The annotations of the round trip, in Kubernetes' names under the domain. */
function roundTripKeys(names: ApiNames) {
  const key = (name: string): string => names.labelSubKey('autoscaling.alpha', name);
  return { metrics: key('metrics'), currentMetrics: key('current-metrics'), conditions: key('conditions'), behavior: key('behavior') };
}

const isCpuUtilization = (m: MetricSpec): boolean => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target.averageUtilization !== undefined;

function parseList(text: string | undefined): unknown[] | undefined {
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export function hpaConversion(names: ApiNames, group: string): VersionConversion {
  const keys = roundTripKeys(names);
  const withoutRoundTrip = (annotations: Record<string, string> | undefined): Record<string, string> | undefined => {
    if (!annotations) return undefined;
    const rest = Object.fromEntries(Object.entries(annotations).filter(([k]) => !Object.values(keys).includes(k)));
    return Object.keys(rest).length ? rest : undefined;
  };
  return {
    toHub(o: KubeObject): KubeObject {
      const v1 = o as HorizontalPodAutoscalerV1;
      const annotations = v1.metadata.annotations ?? {};
      const spec = v1.spec ?? ({} as HorizontalPodAutoscalerV1['spec']);
      const status = v1.status ?? ({} as HorizontalPodAutoscalerV1['status']);
      const cpu: MetricSpec[] =
        spec.targetCPUUtilizationPercentage === undefined
          ? []
          : [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } }];
      const others = parseList(annotations[keys.metrics]);
      const metrics = others ? [...others.map(metricSpecFromV1), ...cpu] : cpu;
      let behavior: HubHpa['spec']['behavior'];
      try {
        if (annotations[keys.behavior] !== undefined) behavior = JSON.parse(annotations[keys.behavior] as string) as HubHpa['spec']['behavior'];
      } catch {
        behavior = undefined;
      }
      const cpuStatus: MetricStatus[] =
        status.currentCPUUtilizationPercentage === undefined ? [] : [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }];
      const currentMetrics = parseList(annotations[keys.currentMetrics])?.map(metricStatusFromV1) ?? cpuStatus;
      const conditions = parseList(annotations[keys.conditions]) as HubHpa['status']['conditions'];
      const metadata = { ...v1.metadata };
      const kept = withoutRoundTrip(v1.metadata.annotations);
      if (kept) metadata.annotations = kept;
      else delete metadata.annotations;
      const hub: HubHpa = {
        apiVersion: `${group}/v2`,
        kind: 'HorizontalPodAutoscaler',
        metadata,
        spec: {
          scaleTargetRef: spec.scaleTargetRef,
          ...(spec.minReplicas !== undefined ? { minReplicas: spec.minReplicas } : {}),
          maxReplicas: spec.maxReplicas,
          ...(metrics.length ? { metrics } : {}),
          ...(behavior ? { behavior } : {}),
        },
        status: {
          ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}),
          ...(status.lastScaleTime !== undefined ? { lastScaleTime: status.lastScaleTime } : {}),
          currentReplicas: status.currentReplicas,
          desiredReplicas: status.desiredReplicas,
          currentMetrics: (currentMetrics.length ? currentMetrics : null) as MetricStatus[],
          ...(conditions?.length ? { conditions } : {}),
        },
      };
      return hub as unknown as KubeObject;
    },
    fromHub(o: KubeObject): KubeObject {
      const hub = o as unknown as HubHpa;
      const spec = hub.spec;
      const status = hub.status ?? ({} as HubHpa['status']);
      const metrics = spec.metrics ?? [];
      const cpu = metrics.find(isCpuUtilization);
      const others = metrics.filter((m) => !isCpuUtilization(m));
      const annotations: Record<string, string> = { ...(withoutRoundTrip(hub.metadata.annotations) ?? {}) };
      if (others.length) annotations[keys.metrics] = JSON.stringify(others.map(metricSpecToV1));
      if (status.currentMetrics?.length) annotations[keys.currentMetrics] = JSON.stringify(status.currentMetrics.map(metricStatusToV1));
      if (spec.behavior) annotations[keys.behavior] = JSON.stringify(spec.behavior);
      if (status.conditions?.length) annotations[keys.conditions] = JSON.stringify(status.conditions);
      const metadata = { ...hub.metadata };
      if (Object.keys(annotations).length) metadata.annotations = annotations;
      else delete metadata.annotations;
      const cpuNow = status.currentMetrics?.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.current.averageUtilization !== undefined);
      const v1: HorizontalPodAutoscalerV1 = {
        apiVersion: `${group}/v1`,
        kind: 'HorizontalPodAutoscaler',
        metadata,
        spec: {
          scaleTargetRef: spec.scaleTargetRef,
          ...(spec.minReplicas !== undefined ? { minReplicas: spec.minReplicas } : {}),
          maxReplicas: spec.maxReplicas,
          ...(cpu ? { targetCPUUtilizationPercentage: cpu.resource?.target.averageUtilization } : {}),
        },
        status: {
          ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}),
          ...(status.lastScaleTime !== undefined ? { lastScaleTime: status.lastScaleTime } : {}),
          currentReplicas: status.currentReplicas ?? 0,
          desiredReplicas: status.desiredReplicas ?? 0,
          ...(cpuNow ? { currentCPUUtilizationPercentage: cpuNow.resource?.current.averageUtilization } : {}),
        },
      };
      return v1 as unknown as KubeObject;
    },
  };
}

export const horizontalPodAutoscalerV1Resource = defineVersion(horizontalPodAutoscalerResource, (names) => ({
  version: 'v1',
  schema: HorizontalPodAutoscalerV1Schema,
  conversion: hpaConversion(names, 'autoscaling'),
  fixture: () => ({ spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, targetCPUUtilizationPercentage: 60 } }),
}));
