/**
 * Turns verified ID-token claims into the request's user, by kube-apiserver 1.25's rules: the user
 * name from the configured claim (a string) with the resolved prefix; for the `email` claim an
 * `email_verified` claim, when present, must be true; groups from the groups claim (one string or a
 * list of strings) with the groups prefix; then every required claim must be present with exactly its
 * value. Pure; throws an Error with upstream's message when the claims do not fit.
 */
import type { UserInfo } from '../../machinery/user-info.js';
import type { OidcSettings } from './settings.js';
import { goTypeError, type Claims } from './verify-id-token.js';

export type ClaimRules = Pick<OidcSettings, 'usernameClaim' | 'usernamePrefix' | 'groupsClaim' | 'groupsPrefix' | 'requiredClaims'>;

export function claimsToUser(claims: Claims, rules: ClaimRules): UserInfo {
  const rawName = claims[rules.usernameClaim];
  // A null claim is treated as absent: an empty user name would be nobody in particular.
  if (rawName === undefined || rawName === null) throw new Error(`oidc: parse username claims ${JSON.stringify(rules.usernameClaim)}: claim not present`);
  if (typeof rawName !== 'string') throw new Error(`oidc: parse username claims ${JSON.stringify(rules.usernameClaim)}: ${goTypeError(rawName, 'string')}`);

  if (rules.usernameClaim === 'email' && Object.hasOwn(claims, 'email_verified')) {
    const verified = claims.email_verified;
    if (verified !== null && typeof verified !== 'boolean') throw new Error(`oidc: parse 'email_verified' claim: ${goTypeError(verified, 'bool')}`);
    if (verified !== true) throw new Error('oidc: email not verified');
  }

  let groups: string[] = [];
  if (rules.groupsClaim !== undefined && Object.hasOwn(claims, rules.groupsClaim)) {
    const raw = claims[rules.groupsClaim];
    if (typeof raw === 'string') groups = [raw];
    else if (Array.isArray(raw) && raw.every((g): g is string => typeof g === 'string')) groups = [...raw];
    else if (raw !== null) throw new Error(`oidc: parse groups claim ${JSON.stringify(rules.groupsClaim)}: ${goTypeError(raw, 'string')}`);
  }
  groups = groups.map((g) => rules.groupsPrefix + g);

  for (const [claim, want] of rules.requiredClaims) {
    if (!Object.hasOwn(claims, claim)) throw new Error(`oidc: required claim ${claim} not present in ID token`);
    const got = claims[claim];
    if (got !== null && typeof got !== 'string') throw new Error(`oidc: parse claim ${claim}: ${goTypeError(got, 'string')}`);
    if ((got ?? '') !== want) throw new Error(`oidc: required claim ${claim} value does not match. Got = ${got ?? ''}, want = ${want}`);
  }

  return { username: rules.usernamePrefix + rawName, groups };
}
