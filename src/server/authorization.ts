/**
 * Builds the authorizer the options ask for: system:masters first, then each `--authorization-mode`
 * in order. RBAC reads roles and bindings through the listers; ABAC reads its policy file once at
 * start; a webhook is called per decision, behind its cache.
 */
import { PRIVILEGED_GROUP, alwaysAllow, alwaysDeny, privilegedGroups } from '../authz/always.js';
import type { AuthorizerMode } from '../authz/index.js';
import { DEFAULT_AUTHORIZATION_MODES, validateAuthorizationSettings, type AuthorizationModeName } from '../authz/modes.js';
import { rbacAuthorizer } from '../authz/rbac/authorizer.js';
import { RbacRuleResolver, type RbacListers } from '../authz/rbac/rule-resolver.js';
import { unionModes } from '../authz/union.js';
import type { ApiNames } from '../machinery/api-names.js';
import type { ResourceListers } from '../registry/lister.js';
import type { ServerOptions } from './options.js';

export interface ServerAuthorization {
  /** system:masters, then the configured modes: what the chain, the reviews and the escalation checks ask. */
  readonly authorizer: AuthorizerMode;
  /** RBAC's rules, for escalation checks (whether or not RBAC is a configured mode, as in Kubernetes). */
  readonly rbac: RbacRuleResolver;
}

export function rbacListersOf(listers: ResourceListers, names: ApiNames): RbacListers {
  const group = names.group('rbac.authorization');
  return {
    roles: listers.for(group, 'roles'),
    roleBindings: listers.for(group, 'rolebindings'),
    clusterRoles: listers.for(group, 'clusterroles'),
    clusterRoleBindings: listers.for(group, 'clusterrolebindings'),
  };
}

/** The authorization flags checked and their files read: everything that can fail, before the store opens. */
export interface AuthorizationConfig {
  readonly modes: readonly AuthorizationModeName[];
}

/** Throws with every problem of the settings (and of the files they name) in the message. */
export async function loadAuthorizationConfig(options: ServerOptions): Promise<AuthorizationConfig> {
  const modes = options.authorizationModes ?? DEFAULT_AUTHORIZATION_MODES;
  const problems = validateAuthorizationSettings({
    modes,
    policyFile: options.authorizationPolicyFile,
    webhookConfigFile: options.authorizationWebhookConfigFile,
    webhookVersion: options.authorizationWebhookVersion,
  });
  if (problems.length) throw new Error(problems.join('; '));
  return { modes: modes as readonly AuthorizationModeName[] };
}

export function createAuthorization(config: AuthorizationConfig, names: ApiNames, listers: ResourceListers): ServerAuthorization {
  const rbac = new RbacRuleResolver(rbacListersOf(listers, names), names.group('rbac.authorization'));
  const members: AuthorizerMode[] = [privilegedGroups([PRIVILEGED_GROUP])];
  for (const mode of config.modes) members.push(createMode(mode, rbac));
  return { authorizer: unionModes(members), rbac };
}

function createMode(mode: AuthorizationModeName, rbac: RbacRuleResolver): AuthorizerMode {
  switch (mode) {
    case 'AlwaysAllow':
      return alwaysAllow();
    case 'AlwaysDeny':
      return alwaysDeny();
    case 'RBAC':
      return rbacAuthorizer(rbac);
    case 'ABAC':
    case 'Webhook':
      throw new Error(`authorization-mode ${mode} is not supported yet`);
  }
}
