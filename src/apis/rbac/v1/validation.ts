/**
 * The rules Kubernetes' RBAC validation applies to rules, subjects and role references, with its
 * messages and field paths. Whether a referenced role exists, and what an unknown subject means,
 * is the authorizer's business, not the API's.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { hasInvalidLabelValueInSelector, isConvertibleLabelSelector, validateLabelSelector } from '../../../machinery/label-selector-validation.js';
import { isDns1123Subdomain, isPathSegmentName } from '../../../machinery/name-validation.js';
import type { AggregationRule, PolicyRule, RoleRef, Subject } from './types.js';

export const SUBJECT_KINDS = ['ServiceAccount', 'User', 'Group'] as const;

/** The RBAC group as served (`rbac.authorization.orch.io`). */
export function rbacGroup(names: ApiNames): string {
  return names.group('rbac.authorization');
}

export function validatePolicyRules(rules: readonly PolicyRule[] | null | undefined, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  (rules ?? []).forEach((rule, i) => errs.push(...validatePolicyRule(rule, namespaced, FieldPath.root('rules').index(i))));
  return errs;
}

function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const len = (l: readonly string[] | null | undefined): number => l?.length ?? 0;
  if (len(rule.verbs) === 0) errs.push(fieldErr.required(path.child('verbs'), 'verbs must contain at least one value'));
  if (len(rule.nonResourceURLs) > 0) {
    if (namespaced) errs.push(fieldErr.invalid(path.child('nonResourceURLs'), rule.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
      errs.push(fieldErr.invalid(path.child('nonResourceURLs'), rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (len(rule.apiGroups) === 0) errs.push(fieldErr.required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (len(rule.resources) === 0) errs.push(fieldErr.required(path.child('resources'), 'resource rules must supply at least one resource'));
  // resourceNames with several resources is valid: the names apply to each of them, as in Kubernetes.
  return errs;
}

export interface AggregationOptions {
  allowInvalidLabelValueInSelector: boolean;
}

export function validateAggregationRule(rule: AggregationRule | undefined, opts: AggregationOptions): FieldError[] {
  if (!rule) return [];
  const errs: FieldError[] = [];
  const path = FieldPath.root('aggregationRule').child('clusterRoleSelectors');
  const selectors = rule.clusterRoleSelectors ?? [];
  if (selectors.length === 0) errs.push(fieldErr.required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((sel, i) => {
    errs.push(...validateLabelSelector(sel, path.index(i), opts));
    // Kubernetes also converts each selector and reports a failed conversion on the selector as a whole.
    if (!isConvertibleLabelSelector(sel)) errs.push(fieldErr.invalid(path.index(i), 'null', 'invalid label selector.'));
  });
  return errs;
}

/** Selectors stored before label values were checked stay acceptable on update. */
export function aggregationHasInvalidLabelValue(rule: AggregationRule | undefined): boolean {
  return (rule?.clusterRoleSelectors ?? []).some((s) => hasInvalidLabelValueInSelector(s));
}

export function validateRoleRef(ref: RoleRef, allowedKinds: readonly string[], names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  const path = FieldPath.root('roleRef');
  const group = rbacGroup(names);
  if (ref.apiGroup !== group) errs.push(fieldErr.notSupported(path.child('apiGroup'), ref.apiGroup, [group]));
  if (!allowedKinds.includes(ref.kind)) errs.push(fieldErr.notSupported(path.child('kind'), ref.kind, allowedKinds));
  if (!ref.name) errs.push(fieldErr.required(path.child('name')));
  else for (const m of isPathSegmentName(ref.name)) errs.push(fieldErr.invalid(path.child('name'), ref.name, m));
  return errs;
}

export function validateRoleRefUnchanged(ref: RoleRef, old: RoleRef): FieldError[] {
  return isDeepStrictEqual({ ...ref }, { ...old }) ? [] : [fieldErr.invalid('roleRef', ref, 'cannot change roleRef')];
}

/**
 * Subjects of a binding. In a RoleBinding a ServiceAccount subject may leave its namespace out (the
 * binding's own namespace is meant); in a ClusterRoleBinding it must name one.
 */
export function validateSubjects(subjects: readonly Subject[] | undefined, namespaced: boolean, names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  const group = rbacGroup(names);
  (subjects ?? []).forEach((s, i) => {
    const path = FieldPath.root('subjects').index(i);
    if (!s.name) errs.push(fieldErr.required(path.child('name')));
    switch (s.kind) {
      case 'ServiceAccount':
        if (s.name) for (const m of isDns1123Subdomain(s.name)) errs.push(fieldErr.invalid(path.child('name'), s.name, m));
        if (s.apiGroup) errs.push(fieldErr.notSupported(path.child('apiGroup'), s.apiGroup, ['']));
        if (!namespaced && !s.namespace) errs.push(fieldErr.required(path.child('namespace')));
        break;
      case 'User':
      case 'Group':
        if (!s.name) errs.push(fieldErr.invalid(path.child('name'), s.name, `${s.kind === 'User' ? 'user' : 'group'} name cannot be empty`));
        if (s.apiGroup !== group) errs.push(fieldErr.notSupported(path.child('apiGroup'), s.apiGroup ?? '', [group]));
        break;
      default:
        errs.push(fieldErr.notSupported(path.child('kind'), s.kind, SUBJECT_KINDS));
    }
  });
  return errs;
}

/** Kubernetes' defaults: roleRef.apiGroup is the RBAC group; a subject's apiGroup follows its kind. Mutates. */
export function defaultBinding(binding: { roleRef: RoleRef; subjects?: Subject[] }, names: ApiNames): void {
  const group = rbacGroup(names);
  if (!binding.roleRef.apiGroup) binding.roleRef.apiGroup = group;
  for (const s of binding.subjects ?? []) {
    if (s.apiGroup) continue;
    if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = group;
  }
}
