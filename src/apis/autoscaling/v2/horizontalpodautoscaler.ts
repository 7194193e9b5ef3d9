/**
 * HorizontalPodAutoscaler (autoscaling/v2, the storage version; also served as v1 and the
 * deprecated v2beta2). Defaults as Kubernetes 1.25: one minimum replica, 80% CPU when no metric is
 * given, scaling rules completed from the defaults when a behavior is given. A create starts with
 * an empty status; container-resource metrics (alpha in 1.25) are dropped unless already in use.
 */
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { hpaTable } from './table.js';
import { HpaV2, type HorizontalPodAutoscaler } from './types.js';
import { validateHpaSpec, validateHpaStatus } from './validation.js';

type Rules = NonNullable<NonNullable<HorizontalPodAutoscaler['spec']['behavior']>['scaleUp']>;

const SCALE_UP_DEFAULT: Rules = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};
const SCALE_DOWN_DEFAULT: Rules = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

/** Kubernetes' copyHPAScalingRules: the given rule's set fields over the defaults. */
function completeRules(given: Rules | undefined, defaults: Rules): Rules {
  const out: Rules = structuredClone(defaults);
  if (!given) return out;
  if (given.selectPolicy !== undefined) out.selectPolicy = given.selectPolicy;
  if (given.stabilizationWindowSeconds !== undefined) out.stabilizationWindowSeconds = given.stabilizationWindowSeconds;
  if (given.policies !== undefined) out.policies = given.policies;
  return out;
}

export function defaultHpa(hpa: HorizontalPodAutoscaler): void {
  const spec = hpa.spec;
  spec.minReplicas ??= 1;
  if (!spec.metrics?.length) spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  if (spec.behavior) {
    spec.behavior.scaleUp = completeRules(spec.behavior.scaleUp, SCALE_UP_DEFAULT);
    spec.behavior.scaleDown = completeRules(spec.behavior.scaleDown, SCALE_DOWN_DEFAULT);
  }
}

const usesContainerMetrics = (hpa: HorizontalPodAutoscaler | undefined): boolean => (hpa?.spec.metrics ?? []).some((m) => m.type === 'ContainerResource');

function dropContainerMetrics(hpa: HorizontalPodAutoscaler, old: HorizontalPodAutoscaler | undefined): void {
  if (usesContainerMetrics(old) || !hpa.spec.metrics) return;
  hpa.spec.metrics = hpa.spec.metrics.filter((m) => m.type !== 'ContainerResource');
}

export const horizontalPodAutoscalerResource = defineResource<HorizontalPodAutoscaler>((names) => ({
  group: 'autoscaling',
  version: 'v2',
  kind: 'HorizontalPodAutoscaler',
  resource: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  schema: HpaV2.HorizontalPodAutoscaler,
  table: hpaTable,
  fixture: () => ({
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
    },
  }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    defaults: defaultHpa,
    prepareForCreate(hpa) {
      hpa.status = { desiredReplicas: 0, currentMetrics: null as unknown as [] };
      dropContainerMetrics(hpa, undefined);
    },
    prepareForUpdate: (hpa, old) => dropContainerMetrics(hpa, old),
    validateCreate: (hpa) => validateHpaSpec(hpa.spec, 1, names),
    validateUpdate: (hpa, old) => validateHpaSpec(hpa.spec, old.spec.minReplicas === 0 ? 0 : 1, names),
  },
  subresources: {
    status: statusSubresource<HorizontalPodAutoscaler>({ validateUpdate: validateHpaStatus }),
  },
}));
