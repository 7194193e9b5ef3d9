/**
 * Whether one set of rules covers another (Kubernetes' Covers): each rule asked for is broken down
 * into single verb/group/resource/name pieces, and every piece must be covered by one owned rule.
 * Escalation prevention asks it: a user may grant only what they hold. Pure.
 */
import type { PolicyRule } from '../../apis/rbac/v1/types.js';
import { aggregateMessage, goQuoteList } from '../index.js';

type Rule = Pick<PolicyRule, 'verbs' | 'apiGroups' | 'resources' | 'resourceNames' | 'nonResourceURLs'>;

const list = (l: readonly string[] | null | undefined): readonly string[] => l ?? [];
const has = (l: readonly string[] | null | undefined, v: string): boolean => list(l).includes(v);
const hasAll = (set: readonly string[] | null | undefined, wanted: readonly string[] | null | undefined): boolean => list(wanted).every((w) => has(set, w));

/** One piece per verb × group × resource (× name), and per verb × non-resource URL. */
export function breakdownRule(rule: Rule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of list(rule.apiGroups)) {
    for (const resource of list(rule.resources)) {
      for (const verb of list(rule.verbs)) {
        if (list(rule.resourceNames).length) {
          for (const name of list(rule.resourceNames)) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of list(rule.nonResourceURLs)) for (const verb of list(rule.verbs)) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourceCoversAll(owned: readonly string[] | null | undefined, wanted: readonly string[] | null | undefined): boolean {
  if (has(owned, '*') || hasAll(owned, wanted)) return true;
  for (const path of list(wanted)) {
    if (has(owned, path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!has(owned, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owned: string, wanted: string): boolean {
  return owned === wanted || (owned.endsWith('*') && wanted.startsWith(owned.replace(/\*+$/, '')));
}

function ruleCovers(owner: Rule, sub: Rule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = list(sub.nonResourceURLs).every((u) => list(owner.nonResourceURLs).some((o) => nonResourceURLCovers(o, u)));
  const names = list(sub.resourceNames).length === 0 ? list(owner.resourceNames).length === 0 : list(owner.resourceNames).length === 0 || hasAll(owner.resourceNames, sub.resourceNames);
  return verbs && groups && resources && names && urls;
}

/** Whether `owned` covers `wanted`, and the pieces it does not. */
export function covers(owned: readonly Rule[], wanted: readonly Rule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const piece of wanted.flatMap(breakdownRule)) if (!owned.some((o) => ruleCovers(o, piece))) missing.push(piece);
  return { covered: missing.length === 0, missing };
}

/** Pieces on one group/resource/name merged into one rule with their verbs (Kubernetes' CompactRules). */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const isSimple = list(r.resourceNames).length <= 1 && list(r.nonResourceURLs).length === 0 && list(r.apiGroups).length === 1 && list(r.resources).length === 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups, r.resources, r.resourceNames ?? null]);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...existing.verbs, ...r.verbs];
    else simple.set(key, { ...r, verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

/** `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`: Kubernetes' CompactString. */
export function compactString(r: Rule): string {
  const parts: string[] = [];
  if (list(r.apiGroups).length) parts.push(`APIGroups:${goQuoteList(list(r.apiGroups))}`);
  if (list(r.resources).length) parts.push(`Resources:${goQuoteList(list(r.resources))}`);
  if (list(r.nonResourceURLs).length) parts.push(`NonResourceURLs:${goQuoteList(list(r.nonResourceURLs))}`);
  if (list(r.resourceNames).length) parts.push(`ResourceNames:${goQuoteList(list(r.resourceNames))}`);
  if (list(r.verbs).length) parts.push(`Verbs:${goQuoteList(list(r.verbs))}`);
  return `{${parts.join(', ')}}`;
}

/** Go's sort.Strings order: by UTF-16 code units, which matches byte order for the ASCII of rules. */
function sortStrings(values: Iterable<string>): string[] {
  return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Kubernetes' refusal of a grant the user does not hold, with the missing pieces compacted,
 * sorted and one per line; resolution errors met while collecting the user's rules follow.
 */
export function escalationMessage(user: { username: string; groups: readonly string[] }, missing: readonly PolicyRule[], resolutionErrors: readonly string[]): string {
  const lines = sortStrings(new Set(compactRules(missing).map(compactString)));
  let msg = `user ${JSON.stringify(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (resolutionErrors.length) msg += `; resolution errors: [${aggregateMessage(resolutionErrors)}]`;
  return msg;
}
