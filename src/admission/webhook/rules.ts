/**
 * Whether a webhook rule covers a request (Kubernetes' rules.Matcher): scope, operation, group,
 * version and resource with its subresource, each with `*` wildcards. Pure.
 */
import type { RuleWithOperations } from '../../apis/admissionregistration/v1/types.js';

/** What a rule is matched against: the request as one served version of the resource names it. */
export interface RuleTarget {
  operation: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** The request's namespace; '' for cluster-scoped resources. */
  namespace: string;
}

const exactOrWildcard = (items: readonly string[] | undefined, requested: string): boolean => (items ?? []).some((i) => i === '*' || i === requested);

const isNamespaceResource = (t: RuleTarget): boolean => t.group === '' && t.version === 'v1' && t.resource === 'namespaces';

function scopeMatches(scope: string | undefined, t: RuleTarget): boolean {
  switch (scope ?? '*') {
    case '*':
      return true;
    case 'Namespaced':
      return !isNamespaceResource(t) && t.namespace !== '';
    case 'Cluster':
      return isNamespaceResource(t) || t.namespace === '';
    default:
      return false;
  }
}

function resourceMatches(resources: readonly string[] | undefined, t: RuleTarget): boolean {
  return (resources ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === t.resource) && (sub === '*' || sub === t.subresource);
  });
}

export function ruleMatches(rule: RuleWithOperations, t: RuleTarget): boolean {
  return (
    scopeMatches(rule.scope, t) &&
    (rule.operations ?? []).some((op) => op === '*' || op === t.operation) &&
    exactOrWildcard(rule.apiGroups, t.group) &&
    exactOrWildcard(rule.apiVersions, t.version) &&
    resourceMatches(rule.resources, t)
  );
}
