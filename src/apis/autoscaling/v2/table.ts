/** `kubectl get hpa`: the target reference, each metric as current/target (two at most), the replica bounds. */
import { age, ageColumn, column, defineTable, nameColumn } from '../../../registry/define-resource.js';
import type { HorizontalPodAutoscaler, MetricSpec, MetricStatus } from './types.js';

const MAX_SHOWN = 2;
/** Go prints a nil *Quantity as <nil>. */
const q = (v: string | undefined): string => v ?? '<nil>';

function metricCell(spec: MetricSpec, status: MetricStatus | undefined): string {
  switch (spec.type) {
    case 'External': {
      const t = spec.external?.target;
      const current = status?.external?.current;
      if (t?.averageValue !== undefined) return `${current?.averageValue ?? '<unknown>'}/${t.averageValue} (avg)`;
      return `${status?.external ? q(current?.value) : '<unknown>'}/${q(t?.value)}`;
    }
    case 'Pods':
      return `${status?.pods ? q(status.pods.current.averageValue) : '<unknown>'}/${q(spec.pods?.target.averageValue)}`;
    case 'Object': {
      const t = spec.object?.target;
      const current = status?.object?.current;
      if (t?.averageValue !== undefined) return `${current?.averageValue ?? '<unknown>'}/${t.averageValue} (avg)`;
      return `${status?.object ? q(current?.value) : '<unknown>'}/${q(t?.value)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const src = spec.type === 'Resource' ? spec.resource : spec.containerResource;
      const st = spec.type === 'Resource' ? status?.resource : status?.containerResource;
      if (src?.target.averageValue !== undefined) return `${st ? q(st.current.averageValue) : '<unknown>'}/${src.target.averageValue}`;
      const current = st?.current.averageUtilization !== undefined ? `${st.current.averageUtilization}%` : '<unknown>';
      const target = src?.target.averageUtilization !== undefined ? `${src.target.averageUtilization}%` : '<auto>';
      return `${current}/${target}`;
    }
    default:
      return '<unknown type>';
  }
}

export function formatHpaMetrics(specs: readonly MetricSpec[] | undefined, statuses: readonly MetricStatus[] | null | undefined): string {
  if (!specs?.length) return '<none>';
  const list = specs.map((s, i) => metricCell(s, statuses?.[i]));
  if (list.length <= MAX_SHOWN) return list.join(', ');
  return `${list.slice(0, MAX_SHOWN).join(', ')} + ${list.length - MAX_SHOWN} more...`;
}

export const hpaTable = defineTable<HorizontalPodAutoscaler>({
  columns: [
    nameColumn,
    column('Reference', 'The reference to the scaled object.'),
    column('Targets', 'The current and target value of each metric.'),
    column('MinPods', 'The fewest replicas the autoscaler sets.'),
    column('MaxPods', 'The most replicas the autoscaler sets.', { type: 'integer' }),
    column('Replicas', 'The current number of replicas.', { type: 'integer' }),
    ageColumn,
  ],
  cells: (hpa, ctx) => {
    const ref = hpa.spec?.scaleTargetRef;
    return [
      hpa.metadata.name ?? '',
      `${ref?.kind ?? ''}/${ref?.name ?? ''}`,
      formatHpaMetrics(hpa.spec?.metrics, hpa.status?.currentMetrics),
      hpa.spec?.minReplicas === undefined ? '<unset>' : String(hpa.spec.minReplicas),
      hpa.spec?.maxReplicas ?? 0,
      hpa.status?.currentReplicas ?? 0,
      age(hpa, ctx),
    ];
  },
});
