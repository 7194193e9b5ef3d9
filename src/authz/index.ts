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
  /** Pure with respect to the request: reads stored policy through listers, mutates nothing. Safe to retry. */
  authorize(attrs: AuthorizationAttributes, signal: AbortSignal): Promise<AuthorizationResult>;
}

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
    name: info.name,
  };
}

/** Kubernetes' words for a denial: `User "jane" cannot list resource "pods" in API group "" in the namespace "default"`. */
export function forbiddenMessage(a: AuthorizationAttributes): string {
  const username = a.user?.username ?? '';
  if (!a.isResourceRequest) return `User ${JSON.stringify(username)} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const what = `User ${JSON.stringify(username)} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)}`;
  return a.namespace ? `${what} in the namespace ${JSON.stringify(a.namespace)}` : `${what} at the cluster scope`;
}
