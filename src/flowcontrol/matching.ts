/**
 * Classification: which FlowSchema a request belongs to, and which flow within it. A schema
 * matches when one of its rules matches both who asks (a subject) and what is asked (a resource
 * rule for resource requests, a non-resource rule otherwise). Pure; never throws.
 */
import type { FlowSchema } from '../apis/flowcontrol/types.js';
import type { RequestInfo } from '../machinery/request-info.js';
import type { UserInfo } from '../machinery/user-info.js';

type Spec = FlowSchema['spec'];
type Rule = NonNullable<Spec['rules']>[number];
type Subject = Rule['subjects'][number];
type ResourceRule = NonNullable<Rule['resourceRules']>[number];
type NonResourceRule = NonNullable<Rule['nonResourceRules']>[number];

/** What classification reads of a request. A request without a user matches only `*` subjects. */
export interface RequestDigest {
  readonly info: RequestInfo;
  readonly user: UserInfo | undefined;
}

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** A list matches when it holds `x`, or is exactly the one wildcard. */
function listHas(list: readonly string[] | undefined, x: string, wildcard = '*'): boolean {
  if (!list) return false;
  if (list.length === 1 && list[0] === wildcard) return true;
  return list.includes(x);
}

export function matchesSubject(user: UserInfo | undefined, subject: Subject): boolean {
  const name = user?.username ?? '';
  switch (subject.kind) {
    case 'User':
      return subject.user !== undefined && (subject.user.name === '*' || subject.user.name === name);
    case 'Group':
      if (!subject.group) return false;
      return subject.group.name === '*' || (user?.groups ?? []).includes(subject.group.name);
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      if (!sa) return false;
      if (sa.name === '*') return name.startsWith(`${SERVICE_ACCOUNT_PREFIX}${sa.namespace}:`);
      return name === `${SERVICE_ACCOUNT_PREFIX}${sa.namespace}:${sa.name}`;
    }
    default:
      return false;
  }
}

function matchesResourceRule(info: Extract<RequestInfo, { isResourceRequest: true }>, rule: ResourceRule): boolean {
  if (!listHas(rule.verbs, info.verb)) return false;
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  if (!listHas(rule.resources, resource)) return false;
  if (!listHas(rule.apiGroups, info.apiGroup)) return false;
  if (!info.namespace) return rule.clusterScope === true;
  return listHas(rule.namespaces, info.namespace);
}

/** `/healthz/*` matches `/healthz/etcd` (and not `/healthz`, which a rule names by itself); `*` matches all. */
export function matchesNonResourceUrl(urls: readonly string[], path: string): boolean {
  for (const url of urls) {
    if (url === '*' || url === path) return true;
    let prefix = url.endsWith('*') ? url.slice(0, -1) : url;
    if (!prefix.endsWith('/')) prefix += '/';
    if (path.startsWith(prefix)) return true;
  }
  return false;
}

function matchesNonResourceRule(info: Extract<RequestInfo, { isResourceRequest: false }>, rule: NonResourceRule): boolean {
  return listHas(rule.verbs, info.verb) && matchesNonResourceUrl(rule.nonResourceURLs ?? [], info.path);
}

function matchesRule(digest: RequestDigest, rule: Rule): boolean {
  if (!(rule.subjects ?? []).some((s) => matchesSubject(digest.user, s))) return false;
  const { info } = digest;
  if (info.isResourceRequest) return (rule.resourceRules ?? []).some((r) => matchesResourceRule(info, r));
  return (rule.nonResourceRules ?? []).some((r) => matchesNonResourceRule(info, r));
}

export function matchesFlowSchema(digest: RequestDigest, fs: FlowSchema): boolean {
  return (fs.spec.rules ?? []).some((rule) => matchesRule(digest, rule));
}

/**
 * Schemas in the order they are tried: lowest matchingPrecedence first, ties broken by name (as
 * Kubernetes sorts them). Returns a new array.
 */
export function byPrecedence(schemas: readonly FlowSchema[]): FlowSchema[] {
  return [...schemas].sort((a, b) => {
    const pa = a.spec.matchingPrecedence ?? 0;
    const pb = b.spec.matchingPrecedence ?? 0;
    if (pa !== pb) return pa - pb;
    const na = a.metadata.name ?? '';
    const nb = b.metadata.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
}

/** The flow within a schema: the user's name (ByUser), the namespace (ByNamespace), or one flow. */
export function flowDistinguisher(digest: RequestDigest, method: Spec['distinguisherMethod']): string {
  switch (method?.type) {
    case 'ByUser':
      return digest.user?.username ?? '';
    case 'ByNamespace':
      return digest.info.isResourceRequest ? digest.info.namespace : '';
    default:
      return '';
  }
}
