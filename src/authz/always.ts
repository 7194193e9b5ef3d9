/**
 * The AlwaysAllow and AlwaysDeny modes, and the privileged-group check Kubernetes puts in front of
 * every configured mode: members of system:masters are allowed everything, whatever the policy.
 */
import type { AuthorizerMode, RulesResult } from './index.js';

/** Kubernetes' SystemPrivilegedGroup. */
export const PRIVILEGED_GROUP = 'system:masters';

const EVERYTHING: RulesResult = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
  errors: [],
};

const NOTHING: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] };

export function alwaysAllow(): AuthorizerMode {
  return {
    authorize: async () => ({ decision: 'allow', reason: '' }),
    rulesFor: () => EVERYTHING,
  };
}

/**
 * As in Kubernetes, AlwaysDeny has no opinion rather than denying: a later mode may still allow,
 * and without one the request is refused with this reason.
 */
export function alwaysDeny(): AuthorizerMode {
  return {
    authorize: async () => ({ decision: 'no-opinion', reason: 'Everything is forbidden.' }),
    rulesFor: () => NOTHING,
  };
}

/** Allows every request of a member of one of `groups`; no opinion on anyone else. */
export function privilegedGroups(groups: readonly string[] = [PRIVILEGED_GROUP]): AuthorizerMode {
  const privileged = (groupsOfUser: readonly string[] | undefined): boolean => (groupsOfUser ?? []).some((g) => groups.includes(g));
  return {
    authorize: async (a) => (privileged(a.user?.groups) ? { decision: 'allow', reason: '' } : { decision: 'no-opinion', reason: '' }),
    rulesFor: (user) => (privileged(user.groups) ? EVERYTHING : NOTHING),
  };
}
