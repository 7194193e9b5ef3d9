/**
 * What the disruption controller computes for one PodDisruptionBudget (Kubernetes' disruption
 * controller, 1.25): the pods it selects, how many are expected and healthy, how many must stay
 * healthy, and so how many may be disrupted now. Pure: the caller supplies the pods and a way to
 * find each pod's controller and its scale.
 */
import type { PodDisruptionBudget } from '../../apis/policy/v1/poddisruptionbudget.js';
import type { Pod } from '../../apis/core/v1/pod.js';
import { percentValue } from '../../apis/apps/v1/int-or-percent.js';
import { labelSelectorFromStructured, type StructuredLabelSelector } from '../../machinery/labels.js';

/** An eviction not followed by the pod's deletion within this long is forgotten. */
export const DISRUPTION_TIMEOUT_MS = 2 * 60 * 1000;

export type BudgetStatus = NonNullable<PodDisruptionBudget['status']>;

/** A pod's controller (by uid) and its desired replicas, or why none was found. */
export type ControllerScale = { uid: string; replicas: number } | { error: string };
export type ScaleFinder = (pod: Pod) => ControllerScale;

export class BudgetSyncError extends Error {}

/** The pods of the namespace a budget selects: policy/v1 reads an empty selector as all, none as none. */
export function podsOfBudget(pdb: PodDisruptionBudget, pods: readonly Pod[]): Pod[] {
  const sel = pdb.spec?.selector;
  if (!sel) return [];
  const selector = labelSelectorFromStructured(sel as StructuredLabelSelector);
  return pods.filter((p) => selector.matches(p.metadata.labels ?? {}));
}

function isReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Go's GetScaledValueFromIntOrPercent rounding up, for a value already validated. */
function scaled(v: number | string, total: number): number {
  const pct = percentValue(v);
  if (pct !== undefined) return Math.ceil((pct * total) / 100);
  return typeof v === 'number' ? v : Number.parseInt(v, 10) || 0;
}

/** The sum of the desired replicas of the pods' controllers, each controller counted once. */
function expectedScale(pods: readonly Pod[], findScale: ScaleFinder): number {
  const seen = new Map<string, number>();
  for (const pod of pods) {
    const found = findScale(pod);
    if ('error' in found) throw new BudgetSyncError(found.error);
    seen.set(found.uid, found.replicas);
  }
  let total = 0;
  for (const n of seen.values()) total += n;
  return total;
}

/** How many pods are expected and how many must stay healthy. Throws BudgetSyncError (the budget then fails safe). */
export function expectedAndDesired(pdb: PodDisruptionBudget, pods: readonly Pod[], findScale: ScaleFinder): { expected: number; desired: number } {
  const { minAvailable, maxUnavailable } = pdb.spec ?? {};
  if (maxUnavailable !== undefined) {
    const expected = expectedScale(pods, findScale);
    return { expected, desired: Math.max(0, expected - scaled(maxUnavailable, expected)) };
  }
  if (minAvailable !== undefined) {
    if (typeof minAvailable === 'number') return { expected: pods.length, desired: minAvailable };
    const expected = expectedScale(pods, findScale);
    return { expected, desired: scaled(minAvailable, expected) };
  }
  return { expected: pods.length, desired: 0 };
}

/**
 * The evictions still awaited: those of pods not yet being deleted, younger than the timeout.
 * Also returns when the next of them expires (for a recheck), if any.
 */
export function pendingDisruptions(pdb: PodDisruptionBudget, pods: readonly Pod[], now: Date): { disrupted: Record<string, string>; nextExpiry?: number } {
  const recorded = pdb.status?.disruptedPods ?? {};
  const disrupted: Record<string, string> = {};
  let nextExpiry: number | undefined;
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    if (pod.metadata.deletionTimestamp) continue;
    const at = recorded[name];
    if (!at) continue;
    const expires = Date.parse(at) + DISRUPTION_TIMEOUT_MS;
    if (expires < now.getTime()) continue;
    disrupted[name] = at;
    nextExpiry = nextExpiry === undefined ? expires : Math.min(nextExpiry, expires);
  }
  return nextExpiry === undefined ? { disrupted } : { disrupted, nextExpiry };
}

/** Ready pods that are neither being deleted nor awaiting an eviction's deletion. */
export function countHealthy(pods: readonly Pod[], disrupted: Readonly<Record<string, string>>): number {
  return pods.filter((p) => !p.metadata.deletionTimestamp && !Object.hasOwn(disrupted, p.metadata.name ?? '') && isReady(p)).length;
}

export interface ComputedStatus {
  expectedPods: number;
  desiredHealthy: number;
  currentHealthy: number;
  disruptionsAllowed: number;
  disruptedPods: Record<string, string>;
  nextExpiry?: number;
}

/** The budget's status from its pods. Throws BudgetSyncError when the expected count cannot be known. */
export function computeStatus(pdb: PodDisruptionBudget, namespacePods: readonly Pod[], findScale: ScaleFinder, now: Date): ComputedStatus {
  const pods = podsOfBudget(pdb, namespacePods);
  const { expected, desired } = expectedAndDesired(pdb, pods, findScale);
  const { disrupted, nextExpiry } = pendingDisruptions(pdb, pods, now);
  const healthy = countHealthy(pods, disrupted);
  // No expected pods: stay safe until the controller has seen the pods that are about to appear.
  const allowed = expected <= 0 ? 0 : Math.max(0, healthy - desired);
  return { expectedPods: expected, desiredHealthy: desired, currentHealthy: healthy, disruptionsAllowed: allowed, disruptedPods: disrupted, ...(nextExpiry !== undefined ? { nextExpiry } : {}) };
}
