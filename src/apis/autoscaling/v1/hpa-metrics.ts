/**
 * The metrics of autoscaling/v1, which has only a CPU target: any other metric, the current
 * readings, the conditions and the behavior travel in annotations, in the older metric shape of
 * autoscaling/v1's MetricSpec (metricName, targetAverageValue, ...), as Kubernetes keeps them so a
 * v2 autoscaler read and written back through v1 loses nothing. Pure.
 */
import type { MetricSpec, MetricStatus } from '../v2/types.js';

type Obj = Record<string, unknown>;
type Ref = { kind: string; name: string; apiVersion?: string };
type Selector = Obj | undefined;

/** Drops undefined members, keeping the order given (Go's field order). */
function compact(o: Obj): Obj {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
const ref = (r: Ref): Obj => compact({ kind: r.kind, name: r.name, apiVersion: r.apiVersion || undefined });

/** A v2 metric spec in autoscaling/v1's MetricSpec form. */
export function metricSpecToV1(m: MetricSpec): Obj {
  const out: Obj = { type: m.type };
  if (m.object) {
    const o = m.object;
    out.object = compact({ target: ref(o.describedObject), metricName: o.metric.name, targetValue: o.target.value ?? '0', selector: o.metric.selector, averageValue: o.target.averageValue });
  }
  if (m.pods) out.pods = compact({ metricName: m.pods.metric.name, targetAverageValue: m.pods.target.averageValue ?? '0', selector: m.pods.metric.selector });
  if (m.resource) out.resource = compact({ name: m.resource.name, targetAverageUtilization: m.resource.target.averageUtilization, targetAverageValue: m.resource.target.averageValue });
  if (m.containerResource) {
    const c = m.containerResource;
    out.containerResource = compact({ name: c.name, targetAverageUtilization: c.target.averageUtilization, targetAverageValue: c.target.averageValue, container: c.container });
  }
  if (m.external) {
    const e = m.external;
    out.external = compact({ metricName: e.metric.name, metricSelector: e.metric.selector, targetValue: e.target.value, targetAverageValue: e.target.averageValue });
  }
  return out;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const identifier = (name: unknown, selector: unknown) => compact({ name: str(name) ?? '', selector: selector as Selector }) as { name: string };
const refFrom = (v: unknown): Ref => {
  const r = obj(v);
  return compact({ kind: str(r.kind) ?? '', name: str(r.name) ?? '', apiVersion: str(r.apiVersion) }) as Ref;
};

/** An autoscaling/v1 MetricSpec (from the annotation) as a v2 metric spec. */
export function metricSpecFromV1(v: unknown): MetricSpec {
  const m = obj(v);
  const out: Obj = { type: str(m.type) ?? '' };
  if (m.object) {
    const o = obj(m.object);
    const averageValue = str(o.averageValue);
    out.object = {
      describedObject: refFrom(o.target),
      target: compact({ type: averageValue === undefined ? 'Value' : 'AverageValue', value: str(o.targetValue) ?? '0', averageValue }),
      metric: identifier(o.metricName, o.selector),
    };
  }
  if (m.pods) {
    const p = obj(m.pods);
    out.pods = { metric: identifier(p.metricName, p.selector), target: { type: 'AverageValue', averageValue: str(p.targetAverageValue) ?? '0' } };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    if (!m[key]) continue;
    const r = obj(m[key]);
    const utilization = num(r.targetAverageUtilization);
    const target = compact({ type: utilization === undefined ? 'AverageValue' : 'Utilization', averageValue: str(r.targetAverageValue), averageUtilization: utilization });
    out[key] = key === 'resource' ? { name: str(r.name) ?? '', target } : { name: str(r.name) ?? '', target, container: str(r.container) ?? '' };
  }
  if (m.external) {
    const e = obj(m.external);
    const value = str(e.targetValue);
    out.external = { metric: identifier(e.metricName, e.metricSelector), target: compact({ type: value === undefined ? 'AverageValue' : 'Value', value, averageValue: str(e.targetAverageValue) }) };
  }
  return out as unknown as MetricSpec;
}

/** A v2 metric reading in autoscaling/v1's MetricStatus form. */
export function metricStatusToV1(m: MetricStatus): Obj {
  const out: Obj = { type: m.type };
  if (m.object) {
    const o = m.object;
    out.object = compact({ target: ref(o.describedObject), metricName: o.metric.name, currentValue: o.current.value ?? '0', selector: o.metric.selector, averageValue: o.current.averageValue });
  }
  if (m.pods) out.pods = compact({ metricName: m.pods.metric.name, currentAverageValue: m.pods.current.averageValue ?? '0', selector: m.pods.metric.selector });
  if (m.resource) out.resource = compact({ name: m.resource.name, currentAverageUtilization: m.resource.current.averageUtilization, currentAverageValue: m.resource.current.averageValue ?? '0' });
  if (m.containerResource) {
    const c = m.containerResource;
    out.containerResource = compact({ name: c.name, currentAverageUtilization: c.current.averageUtilization, currentAverageValue: c.current.averageValue ?? '0', container: c.container });
  }
  if (m.external) {
    const e = m.external;
    out.external = compact({ metricName: e.metric.name, metricSelector: e.metric.selector, currentValue: e.current.value ?? '0', currentAverageValue: e.current.averageValue });
  }
  return out;
}

/** An autoscaling/v1 MetricStatus (from the annotation) as a v2 metric reading. */
export function metricStatusFromV1(v: unknown): MetricStatus {
  const m = obj(v);
  const out: Obj = { type: str(m.type) ?? '' };
  if (m.object) {
    const o = obj(m.object);
    out.object = { metric: identifier(o.metricName, o.selector), current: compact({ value: str(o.currentValue) ?? '0', averageValue: str(o.averageValue) }), describedObject: refFrom(o.target) };
  }
  if (m.pods) {
    const p = obj(m.pods);
    out.pods = { metric: identifier(p.metricName, p.selector), current: { averageValue: str(p.currentAverageValue) ?? '0' } };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    if (!m[key]) continue;
    const r = obj(m[key]);
    const current = compact({ averageValue: str(r.currentAverageValue) ?? '0', averageUtilization: num(r.currentAverageUtilization) });
    out[key] = key === 'resource' ? { name: str(r.name) ?? '', current } : { name: str(r.name) ?? '', current, container: str(r.container) ?? '' };
  }
  if (m.external) {
    const e = obj(m.external);
    out.external = { metric: identifier(e.metricName, e.metricSelector), current: compact({ value: str(e.currentValue) ?? '0', averageValue: str(e.currentAverageValue) }) };
  }
  return out as unknown as MetricStatus;
}
