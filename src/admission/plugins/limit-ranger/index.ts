/**
 * LimitRanger: applies the namespace's LimitRanges. On pod create, containers (and init
 * containers) get the `Container` items' `default` limits and `defaultRequest` requests for
 * resources they leave out, noted in the `<label domain>/limit-ranger` annotation; then every item
 * is enforced (min, max, maxLimitRequestRatio) per Container, per Pod (sums, with init containers
 * counted by their largest) and per PersistentVolumeClaim (its requests), every problem in one 403
 * with Kubernetes' messages. Pods are checked on create only (their resources cannot change after),
 * claims on create and update; objects being deleted and subresources are left alone.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import type { Lister } from '../../../machinery/lister.js';
import { addQuantities, compareQuantities, formatQuantity } from '../../../machinery/quantity.js';
import { admissionForbidden, aggregateMessage } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../types.js';
import { quantityOf, type ResourceList } from '../../../machinery/resource-list.js';
import { limitRequestRatioConstraint, maxConstraint, maxRequestConstraint, minConstraint } from './constraints.js';

/** What the plugin reads of a LimitRange. */
export interface LimitRangeInfo {
  spec?: {
    limits?: {
      type: string;
      max?: ResourceList;
      min?: ResourceList;
      default?: ResourceList;
      defaultRequest?: ResourceList;
      maxLimitRequestRatio?: ResourceList;
    }[];
  };
}

interface ContainerResources {
  name: string;
  resources?: { limits?: ResourceList; requests?: ResourceList; [field: string]: unknown };
  [field: string]: unknown;
}

export interface PodResourcesInfo {
  metadata: { annotations?: Record<string, string> };
  spec?: { containers?: ContainerResources[]; initContainers?: ContainerResources[]; [field: string]: unknown };
}

interface ClaimResourcesInfo {
  spec?: { resources?: { requests?: ResourceList } };
}

const sorted = (list: ResourceList | undefined): [string, string][] => Object.entries(list ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The Container items' defaults of one LimitRange: limits from `default`, requests from `defaultRequest`. */
export function containerDefaults(lr: LimitRangeInfo): { limits: ResourceList; requests: ResourceList } {
  const limits: ResourceList = {};
  const requests: ResourceList = {};
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest ?? {});
    Object.assign(limits, item.default ?? {});
  }
  return { limits, requests };
}

/** Fills what the containers leave out and records it in the annotation. Mutates `pod`. */
export function applyContainerDefaults(pod: PodResourcesInfo, defaults: { limits: ResourceList; requests: ResourceList }, annotationKey: string): void {
  const notes: string[] = [];
  const fill = (c: ContainerResources, what: string): void => {
    const resources = (c.resources ??= {});
    const set = { limits: [] as string[], requests: [] as string[] };
    for (const part of ['limits', 'requests'] as const) {
      for (const [k, v] of Object.entries(defaults[part])) {
        const list = (resources[part] ??= {});
        if (Object.hasOwn(list, k)) continue;
        list[k] = v;
        set[part].push(k);
      }
      if (resources[part] && Object.keys(resources[part]).length === 0) delete resources[part];
    }
    if (set.requests.length) notes.push(`${set.requests.sort().join(', ')} request for ${what} ${c.name}`);
    if (set.limits.length) notes.push(`${set.limits.sort().join(', ')} limit for ${what} ${c.name}`);
  };
  for (const c of pod.spec?.containers ?? []) fill(c, 'container');
  for (const c of pod.spec?.initContainers ?? []) fill(c, 'init container');
  if (notes.length) pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [annotationKey]: `LimitRanger plugin set: ${notes.join('; ')}` };
}

/** The pod's total of `part`: containers summed, then raised to any init container's larger amount. */
export function podTotal(pod: PodResourcesInfo, part: 'limits' | 'requests'): ResourceList {
  const total = new Map<string, ReturnType<typeof quantityOf>>();
  for (const c of pod.spec?.containers ?? []) {
    for (const [k, v] of Object.entries(c.resources?.[part] ?? {})) {
      const q = quantityOf(v);
      if (!q) continue;
      const have = total.get(k);
      total.set(k, have ? addQuantities(have, q) : q);
    }
  }
  for (const c of pod.spec?.initContainers ?? []) {
    for (const [k, v] of Object.entries(c.resources?.[part] ?? {})) {
      const q = quantityOf(v);
      if (!q) continue;
      const have = total.get(k);
      if (!have || compareQuantities(q, have) > 0) total.set(k, q);
    }
  }
  const out: ResourceList = {};
  for (const [k, q] of total) if (q) out[k] = formatQuantity(q);
  return out;
}

/** Every problem of `pod` under one LimitRange. Pure. */
export function podProblems(lr: LimitRangeInfo, pod: PodResourcesInfo): string[] {
  const problems: string[] = [];
  const check = (type: string, item: NonNullable<NonNullable<LimitRangeInfo['spec']>['limits']>[number], requests: ResourceList, limits: ResourceList): void => {
    for (const [k, v] of sorted(item.min)) push(minConstraint(type, k, v, requests, limits));
    for (const [k, v] of sorted(item.max)) push(maxConstraint(type, k, v, requests, limits));
    for (const [k, v] of sorted(item.maxLimitRequestRatio)) push(limitRequestRatioConstraint(type, k, v, requests, limits));
  };
  const push = (m: string | undefined): void => void (m && problems.push(m));
  for (const item of lr.spec?.limits ?? []) {
    if (item.type === 'Container') {
      for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) check('Container', item, c.resources?.requests ?? {}, c.resources?.limits ?? {});
    } else if (item.type === 'Pod') {
      check('Pod', item, podTotal(pod, 'requests'), podTotal(pod, 'limits'));
    }
  }
  return problems;
}

/** Every problem of a claim under one LimitRange. Pure. */
export function claimProblems(lr: LimitRangeInfo, claim: ClaimResourcesInfo): string[] {
  const problems: string[] = [];
  const requests = claim.spec?.resources?.requests ?? {};
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of sorted(item.min)) {
      const m = minConstraint('PersistentVolumeClaim', k, v, requests, {});
      if (m) problems.push(m);
    }
    for (const [k, v] of sorted(item.max)) {
      const m = maxRequestConstraint('PersistentVolumeClaim', k, v, requests);
      if (m) problems.push(m);
    }
  }
  return problems;
}

export function limitRanger(names: ApiNames, limitRanges: Lister<LimitRangeInfo>): AdmissionPlugin {
  const annotationKey = names.labelKey('limit-ranger');
  const kindOf = (a: AdmissionAttributes): 'pod' | 'claim' | undefined => {
    if (a.group !== '' || a.subresource || !a.object) return undefined;
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return undefined;
    // A pod's resources cannot change after create: its updates are not checked.
    if (a.resource === 'pods' && a.operation === 'CREATE') return 'pod';
    if (a.resource === 'persistentvolumeclaims') return 'claim';
    return undefined;
  };
  /** The namespace's LimitRanges; when the cache shows none, once more after catching up with the store. */
  const rangesOf = async (a: AdmissionAttributes): Promise<readonly LimitRangeInfo[]> => {
    const fast = limitRanges.list(a.namespace);
    if (fast.length) return fast;
    await limitRanges.synced(a.signal);
    return limitRanges.list(a.namespace);
  };
  return {
    name: 'LimitRanger',
    async admit(a) {
      if (kindOf(a) !== 'pod' || a.oldObject?.metadata.deletionTimestamp) return;
      const pod = a.object as unknown as PodResourcesInfo;
      for (const lr of await rangesOf(a)) applyContainerDefaults(pod, containerDefaults(lr), annotationKey);
    },
    async validate(a) {
      const kind = kindOf(a);
      if (!kind || a.oldObject?.metadata.deletionTimestamp) return;
      for (const lr of await rangesOf(a)) {
        const problems = kind === 'pod' ? podProblems(lr, a.object as unknown as PodResourcesInfo) : claimProblems(lr, a.object as unknown as ClaimResourcesInfo);
        if (problems.length) throw admissionForbidden(a, aggregateMessage(problems));
      }
    },
  };
}
