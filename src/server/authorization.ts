/**
 * Builds the authorizer the options ask for: system:masters first, then each `--authorization-mode`
 * in order. RBAC reads roles and bindings through the listers; ABAC reads its policy file once at
 * start; a webhook is called per decision, behind its cache.
 */
import { PRIVILEGED_GROUP, alwaysAllow, alwaysDeny, privilegedGroups } from '../authz/always.js';
import type { AuthorizerMode } from '../authz/index.js';
import { DEFAULT_AUTHORIZATION_MODES, validateAuthorizationSettings, type AuthorizationModeName } from '../authz/modes.js';
import { rbacAuthorizer } from '../authz/rbac/authorizer.js';
import { BINDINGS_BY_SUBJECT, RbacRuleResolver, bindingSubjectKeys, type RbacListers } from '../authz/rbac/rule-resolver.js';
import { unionModes } from '../authz/union.js';
import { abacAuthorizer } from '../authz/abac/authorizer.js';
import { parsePolicyFile, type PolicySpec } from '../authz/abac/policy.js';
import { webhookAuthorizer, type WebhookOptions } from '../authz/webhook/authorizer.js';
import { loadWebhookConnection } from '../authz/webhook/config.js';
import { readFile } from 'node:fs/promises';
import type { ClusterRoleBinding } from '../apis/rbac/v1/clusterrolebinding.js';
import type { RoleBinding } from '../apis/rbac/v1/rolebinding.js';
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
  // RBAC finds a user's bindings by subject, not by reading every binding per request.
  const bySubject = { indexes: { [BINDINGS_BY_SUBJECT]: bindingSubjectKeys } };
  return {
    roles: listers.for(group, 'roles'),
    roleBindings: listers.for<RoleBinding>(group, 'rolebindings', bySubject),
    clusterRoles: listers.for(group, 'clusterroles'),
    clusterRoleBindings: listers.for<ClusterRoleBinding>(group, 'clusterrolebindings', bySubject),
  };
}

/** The authorization flags checked and their files read: everything that can fail, before the store opens. */
export interface AuthorizationConfig {
  readonly modes: readonly AuthorizationModeName[];
  readonly abacPolicies: readonly PolicySpec[];
  readonly webhook?: WebhookOptions;
}

const DEFAULT_AUTHORIZED_TTL_MS = 5 * 60_000;
const DEFAULT_UNAUTHORIZED_TTL_MS = 30_000;

/** Throws with every problem of the settings (and of the files they name) in the message. */
export async function loadAuthorizationConfig(options: ServerOptions, names: ApiNames): Promise<AuthorizationConfig> {
  const modes = options.authorizationModes ?? DEFAULT_AUTHORIZATION_MODES;
  const problems = validateAuthorizationSettings({
    modes,
    policyFile: options.authorizationPolicyFile,
    webhookConfigFile: options.authorizationWebhookConfigFile,
    webhookVersion: options.authorizationWebhookVersion,
  });
  if (problems.length) throw new Error(problems.join('; '));
  let abacPolicies: PolicySpec[] = [];
  if (options.authorizationPolicyFile) {
    let text: string;
    try {
      text = await readFile(options.authorizationPolicyFile, 'utf8');
    } catch (e) {
      throw new Error(`cannot read the authorization policy file ${options.authorizationPolicyFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    abacPolicies = parsePolicyFile(text, options.authorizationPolicyFile, `abac.authorization.${names.labelDomain}`);
  }
  const webhook: WebhookOptions | undefined = options.authorizationWebhookConfigFile
    ? {
        connection: loadWebhookConnection(options.authorizationWebhookConfigFile),
        authorizationGroup: names.group('authorization'),
        version: (options.authorizationWebhookVersion ?? 'v1beta1') as 'v1' | 'v1beta1',
        authorizedTtlMs: options.authorizationWebhookCacheAuthorizedTtlMs ?? DEFAULT_AUTHORIZED_TTL_MS,
        unauthorizedTtlMs: options.authorizationWebhookCacheUnauthorizedTtlMs ?? DEFAULT_UNAUTHORIZED_TTL_MS,
        ...(options.authorizationWebhookTimeoutMs !== undefined ? { timeoutMs: options.authorizationWebhookTimeoutMs } : {}),
        ...(options.authorizationWebhookRetry ? { attempts: options.authorizationWebhookRetry.attempts, initialBackoffMs: options.authorizationWebhookRetry.initialBackoffMs } : {}),
      }
    : undefined;
  return { modes: modes as readonly AuthorizationModeName[], abacPolicies, ...(webhook ? { webhook } : {}) };
}

export function createAuthorization(config: AuthorizationConfig, names: ApiNames, listers: ResourceListers): ServerAuthorization {
  const rbac = new RbacRuleResolver(rbacListersOf(listers, names), names.group('rbac.authorization'));
  const members: AuthorizerMode[] = [privilegedGroups([PRIVILEGED_GROUP])];
  for (const mode of config.modes) members.push(createMode(mode, rbac, config));
  return { authorizer: unionModes(members), rbac };
}

function createMode(mode: AuthorizationModeName, rbac: RbacRuleResolver, config: AuthorizationConfig): AuthorizerMode {
  switch (mode) {
    case 'AlwaysAllow':
      return alwaysAllow();
    case 'AlwaysDeny':
      return alwaysDeny();
    case 'RBAC':
      return rbacAuthorizer(rbac);
    case 'ABAC':
      return abacAuthorizer(config.abacPolicies);
    case 'Webhook':
      if (!config.webhook) throw new Error("authorization-mode Webhook's authorization config file not passed");
      return webhookAuthorizer(config.webhook);
  }
}
