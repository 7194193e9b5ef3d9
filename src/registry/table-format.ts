/**
 * Cell formats shared by several kinds' tables, as kubectl users know them: label maps and
 * selectors as `k=v,...`, container names and images joined by commas, lists cut after three.
 */
import { labelSelectorFromStructured, type StructuredLabelSelector } from '../machinery/labels.js';
import type { LabelSelector } from '../schema/index.js';

/** A label map as `a=1,b=2` (keys sorted), `<none>` when empty. */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${(labels as Record<string, string>)[k]}`).join(',');
}

/** A structured selector in query syntax, `<none>` when it selects everything (FormatLabelSelector). */
export function formatLabelSelector(sel: LabelSelector | undefined): string {
  return selectorText(sel) || '<none>';
}

/** A structured selector in query syntax, empty when it selects everything. */
export function selectorText(sel: LabelSelector | undefined): string {
  // Stored selectors passed validation: their operators are the four structured ones.
  return labelSelectorFromStructured(sel as StructuredLabelSelector | undefined).toString();
}

/** Container names and images, each joined by commas. */
export function containerCells(containers: readonly { name?: string; image?: string }[] | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name ?? '').join(','), list.map((c) => c.image ?? '').join(',')];
}

/** At most `max` entries, then ` + N more...`; `<unset>` when there are none. */
export function listWithMore(items: readonly string[], max = 3): string {
  if (items.length > max) return `${items.slice(0, max).join(',')} + ${items.length - max} more...`;
  return items.length ? items.join(',') : '<unset>';
}

/** The access modes abbreviated in Kubernetes' fixed order (RWO, ROX, RWX, RWOP). */
export function accessModesText(modes: readonly string[] | undefined): string {
  const set = new Set(modes ?? []);
  const out: string[] = [];
  if (set.has('ReadWriteOnce')) out.push('RWO');
  if (set.has('ReadOnlyMany')) out.push('ROX');
  if (set.has('ReadWriteMany')) out.push('RWX');
  if (set.has('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}
