/**
 * One admission request against the namespace's quotas (Kubernetes' quota checkRequest): which
 * quotas the object falls under, the "must specify" constraint on compute quotas, and the new usage
 * of each, or the message of the first refusal. Reads only a quota's `status` (hard and used) as
 * Kubernetes does: a quota the controller has not yet filled in counts nothing. Pure.
 */
import {
  addUsage,
  computeUsage,
  evaluatorCovers,
  greater,
  isZeroUsage,
  listToUsage,
  podInScope,
  type ResourceList,
  type QuotaPod,
  type ScopeRequirement,
  type Usage,
  usageToList,
} from './usage.js';

/** What the plugin and the controller read of a ResourceQuota. */
export interface QuotaInfo {
  metadata: { name?: string; namespace?: string; resourceVersion?: string };
  spec?: { hard?: ResourceList; scopes?: string[]; scopeSelector?: { matchExpressions?: ScopeRequirement[] } };
  status?: { hard?: ResourceList; used?: ResourceList };
}

export interface QuotaRequest {
  group: string;
  resource: string;
  /** The object admitted, and what it used before (an update), both as usage. */
  object: unknown;
  usage: Usage;
  oldUsage?: Usage;
  storageGroup: string;
}

/** The quota's scope requirements: `spec.scopes` (as Exists) and the selector's expressions. */
export function scopeRequirements(q: QuotaInfo): ScopeRequirement[] {
  return [...(q.spec?.scopes ?? []).map((s) => ({ scopeName: s, operator: 'Exists' })), ...(q.spec?.scopeSelector?.matchExpressions ?? [])];
}

/** Whether an object of group/resource falls under the quota's scopes: scoped quotas hold only pods. */
export function inQuotaScopes(q: QuotaInfo, group: string, resource: string, obj: unknown): boolean {
  const reqs = scopeRequirements(q);
  if (reqs.length === 0) return true;
  if (group !== '' || resource !== 'pods') return false;
  return reqs.every((r) => podInScope(obj as QuotaPod, r));
}

const sortedNames = (names: Iterable<string>): string[] => [...names].sort();
const pretty = (u: Usage, only: readonly string[]): string => {
  const list = usageToList(u);
  return only
    .filter((k) => list[k] !== undefined)
    .map((k) => `${k}=${list[k] as string}`)
    .join(',');
};

const COMPUTE_REQUIRED = ['cpu', 'limits.cpu', 'limits.memory', 'memory', 'requests.cpu', 'requests.memory'];

/** Pods under a quota of cpu or memory must name that resource in every container (a Kubernetes wart kept). */
export function podConstraintProblem(pod: QuotaPod, restricted: readonly string[]): string | undefined {
  const required = restricted.filter((r) => COMPUTE_REQUIRED.includes(r));
  if (required.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const has = computeUsage(listToUsage(c.resources?.requests), listToUsage(c.resources?.limits));
    for (const r of required) if (!has.has(r)) (missing.get(r) ?? missing.set(r, new Set()).get(r))?.add(c.name);
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing].map(([r, containers]) => `${r} for: ${sortedNames(containers).join(',')}`).sort();
  return `must specify ${parts.join('; ')}`;
}

export type QuotaVerdict =
  | { readonly allowed: true; readonly charges: ReadonlyMap<string, Usage> }
  | { readonly allowed: false; readonly message: string };

/** The usage the request adds to each quota it falls under (nothing when it adds nothing), or a refusal. */
export function evaluateQuotas(quotas: readonly QuotaInfo[], req: QuotaRequest): QuotaVerdict {
  const interesting: QuotaInfo[] = [];
  for (const q of quotas) {
    const hard = Object.keys(q.status?.hard ?? {});
    const restricted = sortedNames(hard.filter((h) => evaluatorCovers(req.group, req.resource, h, req.storageGroup)));
    if (restricted.length === 0 || !inQuotaScopes(q, req.group, req.resource, req.object)) continue;
    const name = q.metadata.name ?? '';
    if (req.group === '' && req.resource === 'pods') {
      const problem = podConstraintProblem(req.object as QuotaPod, restricted);
      if (problem) return { allowed: false, message: `failed quota: ${name}: ${problem}` };
    }
    const used = q.status?.used ?? {};
    if (restricted.some((r) => used[r] === undefined)) return { allowed: false, message: `status unknown for quota: ${name}, resources: ${restricted.join(',')}` };
    interesting.push(q);
  }
  if (interesting.length === 0) return { allowed: true, charges: new Map() };
  const negative = sortedNames([...req.usage].filter(([, q]) => q.mantissa < 0n).map(([k]) => k));
  if (negative.length) return { allowed: false, message: `quota usage is negative for resource(s): ${negative.join(',')}` };
  let delta = req.usage;
  if (req.oldUsage) delta = subtractNonNegative(delta, req.oldUsage);
  if (isZeroUsage(delta)) return { allowed: true, charges: new Map() };
  const charges = new Map<string, Usage>();
  for (const q of interesting) {
    const refusal = exceeded(q, delta);
    if (refusal) return { allowed: false, message: refusal };
    charges.set(q.metadata.name ?? '', maskTo(delta, Object.keys(q.status?.hard ?? {})));
  }
  return { allowed: true, charges };
}

function subtractNonNegative(a: Usage, b: Usage): Usage {
  const out: Usage = new Map();
  for (const [k, q] of a) {
    const minus = b.get(k);
    const d = minus ? addUsage(new Map([[k, q]]), new Map([[k, { ...minus, mantissa: -minus.mantissa }]])).get(k) ?? q : q;
    out.set(k, d.mantissa < 0n ? { ...q, mantissa: 0n } : d);
  }
  return out;
}

const maskTo = (u: Usage, names: readonly string[]): Usage => new Map([...u].filter(([k]) => names.includes(k)));

/** Kubernetes' "exceeded quota" message when `delta` does not fit `q`, else undefined. */
export function exceeded(q: QuotaInfo, delta: Usage): string | undefined {
  const hard = listToUsage(q.status?.hard);
  const used = listToUsage(q.status?.used);
  const requested = maskTo(delta, [...hard.keys()]);
  const next = addUsage(used, requested);
  const over = sortedNames([...requested.keys()].filter((k) => {
    const n = next.get(k);
    const h = hard.get(k);
    return n !== undefined && h !== undefined && greater(n, h);
  }));
  if (over.length === 0) return undefined;
  return `exceeded quota: ${q.metadata.name ?? ''}, requested: ${pretty(requested, over)}, used: ${pretty(used, over)}, limited: ${pretty(hard, over)}`;
}

/** The quota's `status.used` with `charge` added. */
export function chargedUsed(q: QuotaInfo, charge: Usage): ResourceList {
  return { ...(q.status?.used ?? {}), ...usageToList(addUsage(listToUsage(q.status?.used), charge)) };
}
