/**
 * What a service-account token says, in Kubernetes' claims with the domain's names:
 *
 * - bound tokens (TokenRequest): the registered claims (`iss`, `sub`, `aud`, `exp`, `iat`, `nbf`)
 *   and one private claim named after the label domain (`kubernetes.io` under k8s.io) holding the
 *   namespace, the account's name and uid, the Pod or Secret it is bound to, and `warnafter`;
 * - legacy tokens (Secret-based): issuer `<product>/serviceaccount` and flat private claims
 *   `<label domain>/serviceaccount/{namespace,service-account.name,service-account.uid,secret.name}`,
 *   no audience and no expiry.
 *
 * And the user a token proves: `system:serviceaccount:<ns>:<name>` with the account's uid, in
 * `system:serviceaccounts` and `system:serviceaccounts:<ns>`, with the bound Pod's name and uid in
 * `extra`. Pure.
 */
import type { ApiNames } from '../../machinery/api-names.js';
import type { BoundTokenRequest } from '../../machinery/service-account-tokens.js';
import type { UserInfo } from '../../machinery/user-info.js';

export const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

export interface ObjectRefClaim {
  name?: string;
  uid?: string;
}

/** The bound token's private claim (the value under the label domain). */
export interface BoundPrivateClaim {
  namespace?: string;
  serviceaccount?: ObjectRefClaim;
  pod?: ObjectRefClaim;
  secret?: ObjectRefClaim;
  /** Seconds since the epoch after which use is still accepted but counted as stale. */
  warnafter?: number;
}

/** The registered claims Kubernetes reads. */
export interface PublicClaims {
  iss?: string;
  sub?: string;
  aud?: string[];
  exp?: number;
  nbf?: number;
  iat?: number;
}

/** Who a validated token stands for. */
export interface ServiceAccountInfo {
  namespace: string;
  name: string;
  uid: string;
  podName?: string;
  podUid?: string;
}

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:${name}`;
}

/** `[namespace, name]` of a service-account user name, or undefined for another user. */
export function splitServiceAccountUsername(username: string): [string, string] | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USER_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USER_PREFIX.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return [parts[0], parts[1]];
}

export function serviceAccountGroups(namespace: string): string[] {
  return [ALL_SERVICE_ACCOUNTS_GROUP, `${ALL_SERVICE_ACCOUNTS_GROUP}:${namespace}`];
}

/** The extra keys of a pod-bound token's user (`authentication.kubernetes.io/pod-name` under k8s.io). */
export function podExtraKeys(names: ApiNames): { podName: string; podUid: string } {
  return { podName: names.labelSubKey('authentication', 'pod-name'), podUid: names.labelSubKey('authentication', 'pod-uid') };
}

export function serviceAccountUser(names: ApiNames, sa: ServiceAccountInfo): UserInfo {
  const user: UserInfo = { username: serviceAccountUsername(sa.namespace, sa.name), uid: sa.uid, groups: serviceAccountGroups(sa.namespace) };
  if (sa.podName && sa.podUid) {
    const keys = podExtraKeys(names);
    user.extra = { [keys.podName]: [sa.podName], [keys.podUid]: [sa.podUid] };
  }
  return user;
}

/** The name of the bound token's private claim: the label domain (`kubernetes.io`, `orch.io`). */
export function boundClaimName(names: ApiNames): string {
  return names.labelDomain;
}

export function legacyIssuer(names: ApiNames): string {
  return `${names.product}/serviceaccount`;
}

export function legacyClaimNames(names: ApiNames) {
  const key = (name: string): string => names.labelKey(`serviceaccount/${name}`);
  return {
    namespace: key('namespace'),
    serviceAccountName: key('service-account.name'),
    serviceAccountUid: key('service-account.uid'),
    secretName: key('secret.name'),
  } as const;
}

export type BoundTokenInput = BoundTokenRequest;

/** The payload of a bound token issued at `now` (seconds since the epoch), without `iss`. */
export function boundTokenClaims(names: ApiNames, input: BoundTokenInput, nowSeconds: number): Record<string, unknown> {
  const { serviceAccount: sa } = input;
  const priv: BoundPrivateClaim = { namespace: sa.namespace, serviceaccount: { name: sa.name, uid: sa.uid } };
  if (input.pod) priv.pod = { name: input.pod.name, uid: input.pod.uid };
  else if (input.secret) priv.secret = { name: input.secret.name, uid: input.secret.uid };
  if (input.warnAfterSeconds) priv.warnafter = nowSeconds + input.warnAfterSeconds;
  return {
    aud: [...input.audiences],
    exp: nowSeconds + input.expirationSeconds,
    iat: nowSeconds,
    [boundClaimName(names)]: priv,
    nbf: nowSeconds,
    sub: serviceAccountUsername(sa.namespace, sa.name),
  };
}

/** The payload of a legacy (Secret-based, non-expiring) token, without `iss`. */
export function legacyTokenClaims(names: ApiNames, sa: { namespace: string; name: string; uid: string }, secretName: string): Record<string, unknown> {
  const keys = legacyClaimNames(names);
  return {
    [keys.namespace]: sa.namespace,
    [keys.secretName]: secretName,
    [keys.serviceAccountName]: sa.name,
    [keys.serviceAccountUid]: sa.uid,
    sub: serviceAccountUsername(sa.namespace, sa.name),
  };
}
