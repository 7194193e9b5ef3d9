/**
 * The ABAC mode: allows a request when a policy line matches its user (or group), its namespace,
 * resource and API group (or its non-resource path), and its verb (read-only lines allow only get,
 * list and watch). No opinion otherwise, with Kubernetes' reason "No policy matched.".
 */
import type { UserInfo } from '../../machinery/user-info.js';
import type { AuthorizationAttributes, AuthorizerMode, NonResourceRule, ResourceRule } from '../index.js';
import type { PolicySpec } from './policy.js';

const READ_ONLY = new Set(['get', 'list', 'watch']);

export function subjectMatches(p: PolicySpec, user: UserInfo | undefined): boolean {
  if (!user) return false;
  let matched = false;
  if (p.user) {
    if (p.user === '*') matched = true;
    else if (p.user === user.username) matched = true;
    else return false;
  }
  if (p.group) {
    if (p.group === '*') matched = true;
    else if (user.groups.includes(p.group)) matched = true;
    else return false;
  }
  return matched;
}

function verbMatches(p: PolicySpec, a: AuthorizationAttributes): boolean {
  return READ_ONLY.has(a.verb) || !p.readonly;
}

function resourceMatches(p: PolicySpec, a: AuthorizationAttributes): boolean {
  if (!a.isResourceRequest) return false;
  return (p.namespace === '*' || p.namespace === a.namespace) && (p.resource === '*' || p.resource === a.resource) && (p.apiGroup === '*' || p.apiGroup === a.apiGroup);
}

function nonResourceMatches(p: PolicySpec, a: AuthorizationAttributes): boolean {
  if (a.isResourceRequest) return false;
  const path = p.nonResourcePath;
  return path === '*' || path === a.path || (path.endsWith('*') && a.path.startsWith(path.replace(/\*+$/, '')));
}

export function policyMatches(p: PolicySpec, a: AuthorizationAttributes): boolean {
  return subjectMatches(p, a.user) && verbMatches(p, a) && (resourceMatches(p, a) || nonResourceMatches(p, a));
}

export function abacAuthorizer(policies: readonly PolicySpec[]): AuthorizerMode {
  return {
    async authorize(a) {
      return policies.some((p) => policyMatches(p, a)) ? { decision: 'allow', reason: '' } : { decision: 'no-opinion', reason: 'No policy matched.' };
    },
    rulesFor(user, namespace) {
      const resourceRules: ResourceRule[] = [];
      const nonResourceRules: NonResourceRule[] = [];
      for (const p of policies) {
        if (!subjectMatches(p, user) || (p.namespace !== '*' && p.namespace !== namespace)) continue;
        const verbs = p.readonly ? ['get', 'list', 'watch'] : ['*'];
        if (p.resource) resourceRules.push({ verbs, apiGroups: [p.apiGroup], resources: [p.resource], resourceNames: [] });
        if (p.nonResourcePath) nonResourceRules.push({ verbs, nonResourceURLs: [p.nonResourcePath] });
      }
      return { resourceRules, nonResourceRules, incomplete: false, errors: [] };
    },
  };
}
