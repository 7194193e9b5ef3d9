/**
 * Merging two lists of tolerations as Kubernetes does (MergeTolerations): every toleration of both,
 * in order, except one that another toleration already covers (a superset of it), and of equal ones
 * only the first. Pure.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Toleration } from '../default-toleration-seconds/index.js';

/** Whether `ss` tolerates everything `t` tolerates. */
export function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (isDeepStrictEqual(ss, t)) return true;
  // An empty key with Exists matches every key.
  if ((t.key ?? '') !== (ss.key ?? '') && ((ss.key ?? '') !== '' || ss.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if ((t.effect ?? '') !== (ss.effect ?? '') && (ss.effect ?? '') !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== undefined) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator ?? '') {
    case 'Equal':
    case '':
      return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    if (all.slice(i + 1).some((later) => !isDeepStrictEqual(t, later) && isSuperset(later, t))) return;
    merged.push({ ...t });
  });
  return merged;
}
