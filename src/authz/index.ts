/**
 * The authorization seam: an Authorizer decides whether a user may do a verb on a resource (or a
 * non-resource path), with Kubernetes' three decisions. A union asks each in turn until one allows
 * or denies; no opinion from all of them is a denial.
 */
import type { RequestInfo } from '../machinery/request-info.js';
import type { UserInfo } from '../machinery/user-info.js';

/** Kubernetes' DecisionAllow, DecisionDeny and DecisionNoOpinion. */
export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface AuthorizationResult {
  readonly decision: Decision;
  /** Why, in words a person can act on; appended to the 403 message and kept in the audit event. */
  readonly reason: string;
  /**
   * Problems met while deciding that did not stop the decision (an RBAC binding whose role is
   * missing, a subject of unknown kind). They grant nothing; a SubjectAccessReview reports them
   * as its evaluationError, and the 403 carries them in its reason.
   */
  readonly evaluationErrors?: readonly string[];
  /**
   * The authorizer could not decide at all (a webhook that failed). Unless a later authorizer
   * allows, the request fails with 500 rather than 403, as Kubernetes answers an authorizer error.
   */
  readonly failure?: string;
}

/** What is asked: Kubernetes' authorizer.Attributes. */
export interface AuthorizationAttributes {
  readonly user: UserInfo | undefined;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** The URL path, for non-resource requests. */
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

export interface Authorizer {
  /**
   * Pure with respect to the request: reads stored policy through listers, mutates nothing. Safe to
   * retry. Never throws for a policy problem (that is a result); throws only when `signal` aborts.
   */
  authorize(attrs: AuthorizationAttributes, signal: AbortSignal): Promise<AuthorizationResult>;
}

/** A rule as a SelfSubjectRulesReview lists it (the review API's ResourceRule). */
export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

/** A rule on non-resource paths (the review API's NonResourceRule). */
export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface RulesResult {
  readonly resourceRules: readonly ResourceRule[];
  readonly nonResourceRules: readonly NonResourceRule[];
  /** The authorizer cannot enumerate what it allows (a webhook), so the lists may miss some. */
  readonly incomplete: boolean;
  /** Problems met while collecting (a binding whose role is missing); the lists hold the rest. */
  readonly errors: readonly string[];
}

/** Kubernetes' RuleResolver: what a user may do in a namespace, for SelfSubjectRulesReview. */
export interface RuleResolver {
  /** Reads stored policy, mutates nothing, safe to retry. */
  rulesFor(user: UserInfo, namespace: string): RulesResult;
}

/** An authorization mode as configured: how it decides and, when it can, what it allows. */
export interface AuthorizerMode extends Authorizer, RuleResolver {}

/** The attributes of a parsed request made by `user`. */
export function attributesOf(user: UserInfo | undefined, info: RequestInfo): AuthorizationAttributes {
  if (!info.isResourceRequest) {
    return { user, verb: info.verb, isResourceRequest: false, path: info.path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
  }
  return {
    user,
    verb: info.verb,
    isResourceRequest: true,
    path: info.path,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    // A list or watch narrowed to one name by a field selector is asked about that name.
    name: info.name || info.selectorName || '',
  };
}

/** HTML-significant characters escaped, as Kubernetes escapes them in its 403 message. */
function sanitize(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Kubernetes' words for a denial: `User "jane" cannot list resource "pods" in API group "" in the namespace "default"`. */
export function forbiddenMessage(a: AuthorizationAttributes): string {
  const username = a.user?.username ?? '';
  if (!a.isResourceRequest) return sanitize(`User ${goQuote(username)} cannot ${a.verb} path ${goQuote(a.path)}`);
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const what = `User ${goQuote(username)} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup)}`;
  return sanitize(a.namespace ? `${what} in the namespace ${goQuote(a.namespace)}` : `${what} at the cluster scope`);
}

/** Go's %q for the strings our messages quote (JSON's escaping agrees for printable text). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go's %q of a string slice: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

/** Kubernetes' aggregate error text: one message alone, several as `[a, b]`, repeats dropped. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] as string) : `[${unique.join(', ')}]`;
}
