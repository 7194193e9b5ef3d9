/**
 * The DisruptionAllowed condition of a PodDisruptionBudget, as both the eviction endpoint and the
 * disruption controller keep it (Kubernetes' pdb helper): True with SufficientPods while a
 * disruption is allowed, False with InsufficientPods when none is, False with SyncFailed when the
 * controller could not compute the status.
 */
import type { PodDisruptionBudget } from './poddisruptionbudget.js';

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export type DisruptionReason = 'SufficientPods' | 'InsufficientPods' | 'SyncFailed';

function stamp(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Sets the condition on `pdb.status` (mutates it), as metav1's SetStatusCondition does: the
 * transition time moves only when the status changes.
 */
export function setCondition(pdb: PodDisruptionBudget, status: 'True' | 'False', reason: DisruptionReason, message: string, now: Date): void {
  const s = (pdb.status ??= { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
  const conditions = (s.conditions ??= []);
  const observedGeneration = s.observedGeneration ?? 0;
  const existing = conditions.find((c) => c.type === DISRUPTION_ALLOWED);
  if (!existing) {
    conditions.push({ type: DISRUPTION_ALLOWED, status, observedGeneration, lastTransitionTime: stamp(now), reason, message });
    return;
  }
  if (existing.status !== status) existing.lastTransitionTime = stamp(now);
  existing.status = status;
  existing.reason = reason;
  existing.message = message;
  existing.observedGeneration = observedGeneration;
}

/** The condition that follows from `status.disruptionsAllowed`. */
export function setDisruptionAllowedCondition(pdb: PodDisruptionBudget, now: Date): void {
  if ((pdb.status?.disruptionsAllowed ?? 0) > 0) setCondition(pdb, 'True', 'SufficientPods', '', now);
  else setCondition(pdb, 'False', 'InsufficientPods', '', now);
}

/** Whether the condition says what `status.disruptionsAllowed` says, for the generation observed. */
export function conditionUpToDate(pdb: PodDisruptionBudget): boolean {
  const c = pdb.status?.conditions?.find((x) => x.type === DISRUPTION_ALLOWED);
  if (!c || c.observedGeneration !== pdb.status?.observedGeneration) return false;
  return (pdb.status?.disruptionsAllowed ?? 0) > 0 ? c.status === 'True' && c.reason === 'SufficientPods' : c.status === 'False' && c.reason === 'InsufficientPods';
}
