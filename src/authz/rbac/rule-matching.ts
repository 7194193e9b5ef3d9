/**
 * Whether one RBAC rule allows a request, by Kubernetes' matching rules: `*` matches every verb,
 * group or resource; a resource rule names `resource` or `resource/subresource`, and `*\/sub`
 * matches that subresource of every resource; resourceNames, when given, limits the names; a
 * non-resource URL rule matches the path exactly or, ending in `*`, as a prefix. Pure.
 */
import type { AuthorizationAttributes } from '../index.js';

/** The rule shape as stored (every list optional). */
export interface RuleLike {
  readonly verbs?: readonly string[] | null;
  readonly apiGroups?: readonly string[] | null;
  readonly resources?: readonly string[] | null;
  readonly resourceNames?: readonly string[] | null;
  readonly nonResourceURLs?: readonly string[] | null;
}

const has = (list: readonly string[] | null | undefined, value: string): boolean => (list ?? []).includes(value);

export function verbMatches(rule: RuleLike, verb: string): boolean {
  return has(rule.verbs, '*') || has(rule.verbs, verb);
}

export function apiGroupMatches(rule: RuleLike, group: string): boolean {
  return has(rule.apiGroups, '*') || has(rule.apiGroups, group);
}

/** `combined` is `resource` or `resource/subresource`. */
export function resourceMatches(rule: RuleLike, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combined) return true;
    if (subresource && r === `*/${subresource}`) return true;
  }
  return false;
}

export function resourceNameMatches(rule: RuleLike, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

export function nonResourceURLMatches(rule: RuleLike, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(a: AuthorizationAttributes, rule: RuleLike): boolean {
  if (!verbMatches(rule, a.verb)) return false;
  if (!a.isResourceRequest) return nonResourceURLMatches(rule, a.path);
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return apiGroupMatches(rule, a.apiGroup) && resourceMatches(rule, combined, a.subresource) && resourceNameMatches(rule, a.name);
}
