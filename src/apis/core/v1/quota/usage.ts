/**
 * What an object uses of a ResourceQuota (Kubernetes' quota evaluators): pods (count, requests and
 * limits of cpu, memory, ephemeral-storage, hugepages and extended resources, with pod overhead),
 * services (count, node ports, load balancers), claims (count, storage, per storage class) and a
 * count of any other resource (`count/<resource>[.<group>]`, plus the legacy names of configmaps,
 * secrets, replication controllers and quotas). Also which pods a quota's scopes select. Pure;
 * shared by the ResourceQuota admission plugin and the quota controller.
 */
import { addQuantities, compareQuantities, formatQuantity, type Quantity } from '../../../../machinery/quantity.js';
import { quantityOf, type ResourceList } from '../../../../machinery/resource-list.js';

export { sameResources, type ResourceList } from '../../../../machinery/resource-list.js';

/** Amounts by resource name. */
export type Usage = Map<string, Quantity>;

const ONE: Quantity = { mantissa: 1n, exponent: 0, format: 'DecimalSI' };
const ZERO: Quantity = { mantissa: 0n, exponent: 0, format: 'DecimalSI' };

/** Legacy quota names of object counts (core group). */
const LEGACY_COUNT: Readonly<Record<string, string>> = {
  pods: 'pods',
  services: 'services',
  persistentvolumeclaims: 'persistentvolumeclaims',
  configmaps: 'configmaps',
  secrets: 'secrets',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas',
};

/** `count/<resource>` for the core group, `count/<resource>.<group>` otherwise. */
export const countName = (group: string, resource: string): string => `count/${resource}${group ? `.${group}` : ''}`;

export function usageToList(u: Usage): ResourceList {
  const out: ResourceList = {};
  for (const [k, q] of [...u].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[k] = formatQuantity(q);
  return out;
}

export function listToUsage(list: ResourceList | undefined): Usage {
  const u: Usage = new Map();
  for (const [k, v] of Object.entries(list ?? {})) {
    const q = quantityOf(v);
    if (q) u.set(k, q);
  }
  return u;
}

/** a + b; a zero amount takes the other's format (`0` + `256Mi` is `256Mi`), as Kubernetes adds. */
export function addUsage(a: Usage, b: Usage): Usage {
  const out = new Map(a);
  for (const [k, q] of b) {
    const have = out.get(k);
    out.set(k, !have ? q : have.mantissa === 0n ? { ...addQuantities(have, q), format: q.format } : addQuantities(have, q));
  }
  return out;
}

/** a - b, where no amount goes below zero (Kubernetes' SubtractWithNonNegativeResult). */
export function subtractUsage(a: Usage, b: Usage): Usage {
  const out: Usage = new Map();
  for (const [k, q] of a) {
    const minus = b.get(k);
    const d = minus ? addQuantities(q, { ...minus, mantissa: -minus.mantissa }) : q;
    out.set(k, d.mantissa < 0n ? { ...ZERO, format: q.format } : d);
  }
  return out;
}

export const isZeroUsage = (u: Usage): boolean => [...u.values()].every((q) => q.mantissa === 0n);

export const greater = (a: Quantity, b: Quantity): boolean => compareQuantities(a, b) > 0;

// ---- pods ----

interface ContainerInfo {
  name: string;
  resources?: { requests?: ResourceList; limits?: ResourceList };
}
interface AffinityTerm {
  namespaces?: string[];
  namespaceSelector?: unknown;
}
/** What the evaluators read of a Pod. */
export interface QuotaPod {
  metadata: { deletionTimestamp?: string; deletionGracePeriodSeconds?: number };
  spec?: {
    containers?: ContainerInfo[];
    initContainers?: ContainerInfo[];
    overhead?: ResourceList;
    activeDeadlineSeconds?: number;
    priorityClassName?: string;
    affinity?: {
      podAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: AffinityTerm[]; preferredDuringSchedulingIgnoredDuringExecution?: { podAffinityTerm?: AffinityTerm }[] };
      podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: AffinityTerm[]; preferredDuringSchedulingIgnoredDuringExecution?: { podAffinityTerm?: AffinityTerm }[] };
    };
  };
  status?: { phase?: string };
}

const sumInto = (total: Usage, list: ResourceList | undefined): void => {
  for (const [k, v] of Object.entries(list ?? {})) {
    const q = quantityOf(v);
    if (!q) continue;
    const have = total.get(k);
    total.set(k, have ? addQuantities(have, q) : q);
  }
};
const maxInto = (total: Usage, list: ResourceList | undefined): void => {
  for (const [k, v] of Object.entries(list ?? {})) {
    const q = quantityOf(v);
    if (!q) continue;
    const have = total.get(k);
    if (!have || greater(q, have)) total.set(k, q);
  }
};

/** The resources of the compute quota a pod's (or a container's) requests and limits fill. */
export function computeUsage(requests: Usage, limits: Usage): Usage {
  const u: Usage = new Map([['pods', ONE]]);
  const req = (from: string, ...to: string[]): void => {
    const q = requests.get(from);
    if (q) for (const t of to) u.set(t, q);
  };
  const lim = (from: string, to: string): void => {
    const q = limits.get(from);
    if (q) u.set(to, q);
  };
  req('cpu', 'cpu', 'requests.cpu');
  req('memory', 'memory', 'requests.memory');
  req('ephemeral-storage', 'ephemeral-storage', 'requests.ephemeral-storage');
  lim('cpu', 'limits.cpu');
  lim('memory', 'limits.memory');
  lim('ephemeral-storage', 'limits.ephemeral-storage');
  for (const [k, q] of requests) {
    if (k.startsWith('hugepages-')) {
      u.set(k, q);
      u.set(`requests.${k}`, q);
    } else if (isExtendedResource(k)) {
      u.set(`requests.${k}`, q);
    }
  }
  return u;
}

/** A resource outside Kubernetes' own names (`example.com/gpu`), not `requests.`-prefixed. */
function isExtendedResource(name: string): boolean {
  if (!name.includes('/') || name.startsWith('requests.')) return false;
  const domain = name.slice(0, name.indexOf('/'));
  return domain !== 'kubernetes.io' && !domain.endsWith('.kubernetes.io');
}

/** The pod's requests and limits: containers summed, raised to the largest init container, plus overhead. */
export function podRequestsAndLimits(pod: QuotaPod): { requests: Usage; limits: Usage } {
  const requests: Usage = new Map();
  const limits: Usage = new Map();
  for (const c of pod.spec?.containers ?? []) {
    sumInto(requests, c.resources?.requests);
    sumInto(limits, c.resources?.limits);
  }
  for (const c of pod.spec?.initContainers ?? []) {
    maxInto(requests, c.resources?.requests);
    maxInto(limits, c.resources?.limits);
  }
  if (pod.spec?.overhead) {
    // Overhead counts only for resources the pod names (Kubernetes adds it to requests and limits present).
    for (const [k, v] of Object.entries(pod.spec.overhead)) {
      const q = quantityOf(v);
      if (!q) continue;
      const r = requests.get(k);
      if (r) requests.set(k, addQuantities(r, q));
      const l = limits.get(k);
      if (l) limits.set(k, addQuantities(l, q));
    }
  }
  return { requests, limits };
}

export function podUsage(pod: QuotaPod): Usage {
  const { requests, limits } = podRequestsAndLimits(pod);
  const u = computeUsage(requests, limits);
  u.set('count/pods', ONE);
  return u;
}

/** Whether a stored pod still counts (Kubernetes' QuotaV1Pod): not finished, not past its deletion grace. */
export function podCounts(pod: QuotaPod, now: number = Date.now()): boolean {
  if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return false;
  const ts = pod.metadata.deletionTimestamp;
  if (ts && pod.metadata.deletionGracePeriodSeconds !== undefined) {
    return now <= Date.parse(ts) + pod.metadata.deletionGracePeriodSeconds * 1000;
  }
  return true;
}

const QOS_RESOURCES = ['cpu', 'memory'];
/** BestEffort: no container (or init container) requests or limits cpu or memory. */
export function isBestEffort(pod: QuotaPod): boolean {
  return [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].every((c) =>
    QOS_RESOURCES.every((r) => c.resources?.requests?.[r] === undefined && c.resources?.limits?.[r] === undefined),
  );
}

function crossNamespaceAffinity(pod: QuotaPod): boolean {
  const a = pod.spec?.affinity;
  const terms = [a?.podAffinity, a?.podAntiAffinity].flatMap((x) => [
    ...(x?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(x?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => w.podAffinityTerm ?? {}),
  ]);
  return terms.some((t) => (t.namespaces ?? []).length > 0 || (t.namespaceSelector !== undefined && t.namespaceSelector !== null));
}

export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

/** Whether a pod is in one scope requirement. */
export function podInScope(pod: QuotaPod, req: ScopeRequirement): boolean {
  switch (req.scopeName) {
    case 'Terminating':
      return pod.spec?.activeDeadlineSeconds !== undefined && pod.spec.activeDeadlineSeconds >= 0;
    case 'NotTerminating':
      return !(pod.spec?.activeDeadlineSeconds !== undefined && pod.spec.activeDeadlineSeconds >= 0);
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'CrossNamespacePodAffinity':
      return crossNamespaceAffinity(pod);
    case 'PriorityClass': {
      const value = pod.spec?.priorityClassName ?? '';
      switch (req.operator) {
        case 'Exists':
          return value !== '';
        case 'In':
          return (req.values ?? []).includes(value);
        case 'NotIn':
          return !(req.values ?? []).includes(value);
        default:
          // DoesNotExist: the class is always a key of the pod's scope labels.
          return false;
      }
    }
    default:
      return false;
  }
}

// ---- services and claims ----

export interface QuotaService {
  spec?: { type?: string; ports?: { nodePort?: number }[]; allocateLoadBalancerNodePorts?: boolean };
}

export function serviceUsage(svc: QuotaService): Usage {
  const ports = svc.spec?.ports ?? [];
  const n = (x: number): Quantity => ({ mantissa: BigInt(x), exponent: 0, format: 'DecimalSI' });
  const u: Usage = new Map([
    ['services', ONE],
    ['count/services', ONE],
    ['services.loadbalancers', ZERO],
    ['services.nodeports', ZERO],
  ]);
  if (svc.spec?.type === 'NodePort') u.set('services.nodeports', n(ports.length));
  if (svc.spec?.type === 'LoadBalancer') {
    const explicitOnly = svc.spec.allocateLoadBalancerNodePorts === false;
    u.set('services.nodeports', n(explicitOnly ? ports.filter((p) => p.nodePort).length : ports.length));
    u.set('services.loadbalancers', ONE);
  }
  return u;
}

export interface QuotaClaim {
  metadata: { annotations?: Record<string, string> };
  spec?: { storageClassName?: string; resources?: { requests?: ResourceList } };
  status?: { allocatedResources?: ResourceList };
}

/** `storageGroup` is the storage API group (`storage.k8s.io`), which names the per-class resources. */
export function claimUsage(claim: QuotaClaim, storageGroup: string): Usage {
  const u: Usage = new Map([
    ['persistentvolumeclaims', ONE],
    ['count/persistentvolumeclaims', ONE],
  ]);
  const className = claim.spec?.storageClassName ?? claim.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
  const perClass = (r: string): string => `${className}.storageclass.${storageGroup}/${r}`;
  if (className) u.set(perClass('persistentvolumeclaims'), ONE);
  let storage = quantityOf(claim.spec?.resources?.requests?.storage);
  const allocated = quantityOf(claim.status?.allocatedResources?.storage);
  if (allocated && (!storage || greater(allocated, storage))) storage = allocated;
  if (storage) {
    u.set('requests.storage', storage);
    if (className) u.set(perClass('requests.storage'), storage);
  }
  return u;
}

/** What one object of `group/resource` uses (any resource: at least its count). */
export function objectUsage(group: string, resource: string, obj: unknown, storageGroup: string): Usage {
  if (group === '' && resource === 'pods') return podUsage(obj as QuotaPod);
  if (group === '' && resource === 'services') return serviceUsage(obj as QuotaService);
  if (group === '' && resource === 'persistentvolumeclaims') return claimUsage(obj as QuotaClaim, storageGroup);
  const u: Usage = new Map([[countName(group, resource), ONE]]);
  const legacy = group === '' ? LEGACY_COUNT[resource] : undefined;
  if (legacy) u.set(legacy, ONE);
  return u;
}

/** Whether quota resource `name` is one the evaluator of `group/resource` keeps. */
export function evaluatorCovers(group: string, resource: string, name: string, storageGroup: string): boolean {
  if (name === countName(group, resource)) return true;
  if (group !== '') return false;
  switch (resource) {
    case 'pods':
      return (
        ['pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage'].includes(name) ||
        name.startsWith('hugepages-') ||
        name.startsWith('requests.hugepages-') ||
        (name.startsWith('requests.') && isExtendedResource(name.slice('requests.'.length)))
      );
    case 'services':
      return ['services', 'services.nodeports', 'services.loadbalancers'].includes(name);
    case 'persistentvolumeclaims':
      return ['persistentvolumeclaims', 'requests.storage'].includes(name) || name.endsWith(`.storageclass.${storageGroup}/persistentvolumeclaims`) || name.endsWith(`.storageclass.${storageGroup}/requests.storage`);
    default:
      return LEGACY_COUNT[resource] === name;
  }
}

/** The resource (group, resource) whose objects a quota resource name counts, for the controller. */
export function resourceOfQuotaName(name: string, storageGroup: string): { group: string; resource: string } | undefined {
  if (name.startsWith('count/')) {
    const rest = name.slice('count/'.length);
    const dot = rest.indexOf('.');
    return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
  }
  for (const r of ['pods', 'services', 'persistentvolumeclaims', 'configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas']) {
    if (evaluatorCovers('', r, name, storageGroup)) return { group: '', resource: r };
  }
  return undefined;
}

