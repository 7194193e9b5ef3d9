/**
 * Decides a request's audit level as Kubernetes' policy checker does: the first rule that matches
 * (users, userGroups, verbs, then resources and namespaces or non-resource URLs) gives the level,
 * its stages to omit and whether managedFields are dropped; no match means None.
 *
 * One safeguard Kubernetes leaves to the operator: requests whose bodies carry credentials (Secrets,
 * TokenReviews, TokenRequests) are recorded above Metadata only when the matching rule names that
 * resource itself; a catch-all `Request` rule records their metadata, never a token or a Secret's
 * data. Pure: no I/O, never throws.
 */
import type { UserInfo } from '../machinery/user-info.js';
import type { AuditPolicy, PolicyRule, RequestAuditConfig } from './types.js';

/** What the policy looks at: the authorization attributes of the authenticated (not impersonated) user. */
export interface AuditAttributes {
  readonly user: UserInfo | undefined;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

/** A resource whose request or response bodies carry credentials: group, and `resource[/subresource]`. */
export interface CredentialResource {
  readonly group: string;
  readonly resource: string;
}

export type PolicyChecker = (attrs: AuditAttributes) => RequestAuditConfig;

export function createPolicyChecker(policy: AuditPolicy, credentialResources: readonly CredentialResource[]): PolicyChecker {
  return (attrs) => {
    for (const rule of policy.rules) {
      if (!ruleMatches(rule, attrs)) continue;
      let level = rule.level;
      if ((level === 'Request' || level === 'RequestResponse') && carriesCredentials(attrs, credentialResources) && !namesResource(rule, attrs)) level = 'Metadata';
      return { level, omitStages: rule.omitStages, omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields };
    }
    return { level: 'None', omitStages: policy.omitStages, omitManagedFields: policy.omitManagedFields };
  };
}

function combinedResource(attrs: AuditAttributes): string {
  return attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
}

function carriesCredentials(attrs: AuditAttributes, list: readonly CredentialResource[]): boolean {
  if (!attrs.isResourceRequest) return false;
  const combined = combinedResource(attrs);
  return list.some((c) => c.group === attrs.apiGroup && c.resource === combined);
}

/** The rule lists this very resource (not `*`, not a whole group): the operator asked for its bodies. */
function namesResource(rule: PolicyRule, attrs: AuditAttributes): boolean {
  const combined = combinedResource(attrs);
  return rule.resources.some((gr) => gr.group === attrs.apiGroup && gr.resources.includes(combined));
}

export function ruleMatches(rule: PolicyRule, attrs: AuditAttributes): boolean {
  const user = attrs.user;
  if (rule.users.length > 0 && (!user || !rule.users.includes(user.username))) return false;
  if (rule.userGroups.length > 0 && (!user || !user.groups.some((g) => rule.userGroups.includes(g)))) return false;
  if (rule.verbs.length > 0 && !rule.verbs.includes(attrs.verb)) return false;
  if (rule.namespaces.length > 0 || rule.resources.length > 0) return matchesResource(rule, attrs);
  if (rule.nonResourceURLs.length > 0) return !attrs.isResourceRequest && rule.nonResourceURLs.some((spec) => pathMatches(attrs.path, spec));
  return true;
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function matchesResource(rule: PolicyRule, attrs: AuditAttributes): boolean {
  if (!attrs.isResourceRequest) return false;
  // Cluster-scoped requests have the empty namespace, which a rule may list.
  if (rule.namespaces.length > 0 && !rule.namespaces.includes(attrs.namespace)) return false;
  if (rule.resources.length === 0) return true;
  const combined = combinedResource(attrs);
  for (const gr of rule.resources) {
    if (gr.group !== attrs.apiGroup) continue;
    if (gr.resources.length === 0) return true;
    if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(attrs.name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (attrs.subresource && res.startsWith('*/') && res.slice(2) === attrs.subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === attrs.resource) return true;
    }
  }
  return false;
}
