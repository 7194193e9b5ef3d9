/**
 * Acting as another user (document 3, Impersonation): `Impersonate-User`, repeatable
 * `Impersonate-Group`, `Impersonate-Extra-<key>` (the key lowercased and percent-decoded) and
 * `Impersonate-Uid`. Each value is checked as the verb `impersonate` on users, serviceaccounts
 * (a `system:serviceaccount:<ns>:<name>` user), groups, `userextras/<key>` or `uids`, with the value
 * as the name, so `resourceNames` restricts who may be impersonated. The rest of the request runs
 * as the impersonated user, who is in system:authenticated unless the groups say otherwise.
 * Present only when an authorizer is configured.
 */
import type { AuthorizationAttributes, Authorizer } from '../authz/index.js';
import type { Filter } from '../http/context.js';
import { errors } from '../machinery/errors.js';
import { isDns1123Label, isDns1123Subdomain } from '../machinery/name-validation.js';
import type { RequestContext } from '../machinery/request-context.js';
import type { UserInfo } from '../machinery/user-info.js';
import { forbidden } from './with-authorization.js';

const IMPERSONATION_PREFIX = 'impersonate-';
const USER_HEADER = 'impersonate-user';
const GROUP_HEADER = 'impersonate-group';
const UID_HEADER = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
const ANONYMOUS = 'system:anonymous';
const AUTHENTICATED = 'system:authenticated';
const UNAUTHENTICATED = 'system:unauthenticated';

export interface ImpersonationOptions {
  /** The authentication group as served (`authentication.orch.io`): where userextras and uids live. */
  authenticationGroup: string;
}

/** One thing asked to be impersonated, as the check of it names it. */
interface ImpersonationRequest {
  kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  name: string;
  namespace?: string;
  /** The extra's key, for UserExtra. */
  key?: string;
}

/** Whether the request carries any impersonation header (Node lowercases header names). */
export function asksToImpersonate(headers: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(headers).some((h) => h.startsWith(IMPERSONATION_PREFIX));
}

/** Every value of every header, in order, repeated headers kept apart (Node joins some with commas). */
function headerValues(req: { readonly rawHeaders: readonly string[] }): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (!name.startsWith(IMPERSONATION_PREFIX)) continue;
    const list = out.get(name) ?? [];
    list.push(raw[i + 1] as string);
    out.set(name, list);
  }
  return out;
}

/** `system:serviceaccount:<namespace>:<name>` split, when it is one (Kubernetes' SplitUsername). */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (!namespace || !name || isDns1123Label(namespace).length || isDns1123Subdomain(name).length) return undefined;
  return { namespace, name };
}

function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** What the headers ask for; a 400 when they ask for groups, extras or a uid without a user. */
export function impersonationRequests(values: Map<string, string[]>): ImpersonationRequest[] {
  const out: ImpersonationRequest[] = [];
  const user = values.get(USER_HEADER)?.[0] ?? '';
  if (user) {
    const sa = splitServiceAccountUsername(user);
    out.push(sa ? { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace } : { kind: 'User', name: user });
  }
  for (const group of values.get(GROUP_HEADER) ?? []) out.push({ kind: 'Group', name: group });
  for (const [header, list] of values) {
    if (!header.startsWith(EXTRA_PREFIX)) continue;
    const key = unescapeExtraKey(header.slice(EXTRA_PREFIX.length));
    for (const value of list) out.push({ kind: 'UserExtra', name: value, key });
  }
  const uid = values.get(UID_HEADER)?.[0] ?? '';
  if (uid) out.push({ kind: 'UID', name: uid });
  if (!user && out.length > 0) {
    const asked = out.map((r) => (r.kind === 'UserExtra' ? `extra ${JSON.stringify(r.key)}=${JSON.stringify(r.name)}` : `${r.kind.toLowerCase()} ${JSON.stringify(r.name)}`));
    throw errors.badRequest(`requested impersonation of ${asked.join(', ')} without impersonating a user: add the Impersonate-User header`);
  }
  return out;
}

export function withImpersonation(authorizer: Authorizer, opts: ImpersonationOptions): Filter<RequestContext> {
  return async (ctx, next) => {
    if (!asksToImpersonate(ctx.req.headers)) return next();
    const requests = impersonationRequests(headerValues(ctx.req));
    if (requests.length === 0) return next();
    const requestor = ctx.user;
    if (!requestor) throw errors.internal('no user found for the request');
    const groupsSpecified = requests.some((r) => r.kind === 'Group');
    let username = '';
    let uid = '';
    let groups: string[] = [];
    const extra: Record<string, string[]> = {};
    for (const r of requests) {
      const attrs = checkOf(requestor, r, opts);
      switch (r.kind) {
        case 'ServiceAccount':
          username = `${SERVICE_ACCOUNT_PREFIX}${r.namespace}:${r.name}`;
          // A service account's groups follow from its namespace, unless groups are given.
          if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${r.namespace}`];
          break;
        case 'User':
          username = r.name;
          break;
        case 'Group':
          groups.push(r.name);
          break;
        case 'UserExtra':
          (extra[r.key as string] ??= []).push(r.name);
          break;
        case 'UID':
          uid = r.name;
          break;
      }
      const result = await authorizer.authorize(attrs, ctx.signal);
      if (result.decision !== 'allow') throw forbidden(attrs, result);
    }
    if (username !== ANONYMOUS) {
      if (!groups.includes(AUTHENTICATED) && !groups.includes(UNAUTHENTICATED)) groups.push(AUTHENTICATED);
    } else if (!groups.includes(UNAUTHENTICATED)) {
      groups.push(UNAUTHENTICATED);
    }
    const impersonated: UserInfo = { username, groups, ...(uid ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}) };
    ctx.user = impersonated;
    // Later stages (and anything proxied) must not see the headers again.
    for (const h of Object.keys(ctx.req.headers)) if (h.startsWith(IMPERSONATION_PREFIX)) delete ctx.req.headers[h];
    return next();
  };
}

/** The `impersonate` check of one request, made as the real user. */
function checkOf(requestor: UserInfo, r: ImpersonationRequest, opts: ImpersonationOptions): AuthorizationAttributes {
  const base = { user: requestor, verb: 'impersonate', isResourceRequest: true, path: '', namespace: '', apiGroup: '', apiVersion: 'v1', subresource: '', name: r.name };
  switch (r.kind) {
    case 'ServiceAccount':
      return { ...base, resource: 'serviceaccounts', namespace: r.namespace as string };
    case 'User':
      return { ...base, resource: 'users' };
    case 'Group':
      return { ...base, resource: 'groups' };
    case 'UserExtra':
      return { ...base, apiGroup: opts.authenticationGroup, resource: 'userextras', subresource: r.key as string };
    case 'UID':
      return { ...base, apiGroup: opts.authenticationGroup, resource: 'uids' };
  }
}
