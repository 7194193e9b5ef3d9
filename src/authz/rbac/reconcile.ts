/**
 * Reconciling a default role or binding with what is stored (Kubernetes' policy reconciliation,
 * in its union form): labels and annotations the default has are added where missing, rules and
 * aggregation selectors the stored object lacks are added, subjects likewise; nothing the operator
 * added is removed. A binding whose roleRef differs must be recreated. An object annotated
 * `autoupdate: "false"` is protected: the result says what it lacks, and nothing is written. Pure.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AggregationRule, PolicyRule, RoleRef, Subject } from '../../apis/rbac/v1/types.js';
import { covers } from './covers.js';

export type ReconcileOperation = 'none' | 'create' | 'update' | 'recreate';

interface Meta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface RuleOwner {
  metadata: Meta;
  rules?: PolicyRule[];
  aggregationRule?: AggregationRule;
}

export interface BindingLike {
  metadata: Meta;
  roleRef: RoleRef;
  subjects?: Subject[];
}

export interface Reconciled<T> {
  operation: ReconcileOperation;
  /** The object to write (for `none`, the stored one). */
  object: T;
  /** The stored object says autoupdate "false": the operation is what it would take, and is not done. */
  protected: boolean;
  missingRules: PolicyRule[];
  missingSubjects: Subject[];
}

/** `expected` first, `existing` winning: the defaults' keys added where the stored object lacks them. */
function merged(expected: Record<string, string> | undefined, existing: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!expected && !existing) return undefined;
  return { ...(expected ?? {}), ...(existing ?? {}) };
}

function reconcileMeta(existing: Meta, expected: Meta): { meta: Meta; changed: boolean } {
  const labels = merged(expected.labels, existing.labels);
  const annotations = merged(expected.annotations, existing.annotations);
  const meta: Meta = { ...existing, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) };
  const changed = !isDeepStrictEqual(plain(labels), plain(existing.labels)) || !isDeepStrictEqual(plain(annotations), plain(existing.annotations));
  return { meta, changed };
}

function isProtected(existing: Meta, autoupdate: string): boolean {
  return existing.annotations?.[autoupdate] === 'false';
}

export function reconcileRole<T extends RuleOwner>(existing: T | undefined, expected: T, autoupdate: string): Reconciled<T> {
  if (!existing) return { operation: 'create', object: structuredClone(expected), protected: false, missingRules: [], missingSubjects: [] };
  const next = structuredClone(plain(existing)) as T;
  const { meta, changed } = reconcileMeta(next.metadata, expected.metadata);
  next.metadata = meta;
  let update = changed;
  const { missing } = covers(existing.rules ?? [], expected.rules ?? []);
  if (missing.length) {
    next.rules = [...(next.rules ?? []), ...missing];
    update = true;
  }
  const expectedSelectors = expected.aggregationRule?.clusterRoleSelectors ?? [];
  const existingSelectors = next.aggregationRule?.clusterRoleSelectors ?? [];
  if (!expected.aggregationRule && next.aggregationRule) {
    delete next.aggregationRule;
    update = true;
  } else if (expected.aggregationRule) {
    const absent = expectedSelectors.filter((s) => !existingSelectors.some((e) => isDeepStrictEqual(plain(e), plain(s))));
    if (absent.length) {
      next.aggregationRule = { clusterRoleSelectors: [...existingSelectors, ...structuredClone(absent)] };
      update = true;
    }
  }
  return { operation: update ? 'update' : 'none', object: next, protected: isProtected(existing.metadata, autoupdate), missingRules: missing, missingSubjects: [] };
}

export function reconcileBinding<T extends BindingLike>(existing: T | undefined, expected: T, autoupdate: string): Reconciled<T> {
  if (!existing) return { operation: 'create', object: structuredClone(expected), protected: false, missingRules: [], missingSubjects: [] };
  const prot = isProtected(existing.metadata, autoupdate);
  if (!isDeepStrictEqual(plain(existing.roleRef), plain(expected.roleRef))) {
    // roleRef cannot change: the default binding replaces the stored one (subjects kept).
    const object = structuredClone(expected);
    object.subjects = [...(existing.subjects ?? []).map((s) => plain(s) as Subject)];
    for (const s of expected.subjects ?? []) if (!object.subjects.some((e) => isDeepStrictEqual(e, plain(s)))) object.subjects.push(structuredClone(s));
    return { operation: 'recreate', object, protected: prot, missingRules: [], missingSubjects: [] };
  }
  const next = structuredClone(plain(existing)) as T;
  const { meta, changed } = reconcileMeta(next.metadata, expected.metadata);
  next.metadata = meta;
  const missingSubjects = (expected.subjects ?? []).filter((s) => !(existing.subjects ?? []).some((e) => isDeepStrictEqual(plain(e), plain(s))));
  if (missingSubjects.length) next.subjects = [...(next.subjects ?? []), ...structuredClone(missingSubjects)];
  return { operation: changed || missingSubjects.length ? 'update' : 'none', object: next, protected: prot, missingRules: [], missingSubjects };
}

/** Frozen lister objects compare with fresh ones once both are plain values. */
function plain<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}
