/**
 * `--authorization-mode` and the flags that go with it, checked as kube-apiserver checks them and
 * in its words. The modes are asked in the order given; members of system:masters are allowed
 * before any of them.
 */
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'RBAC', 'Webhook'] as const;
export type AuthorizationModeName = (typeof AUTHORIZATION_MODES)[number];

export const DEFAULT_AUTHORIZATION_MODES: readonly AuthorizationModeName[] = ['RBAC'];

export interface AuthorizationSettings {
  modes: readonly string[];
  policyFile?: string | undefined;
  webhookConfigFile?: string | undefined;
  webhookVersion?: string | undefined;
}

/** `RBAC,Webhook` → ['RBAC', 'Webhook'] (empty items dropped, as Go's string-slice flag keeps them; we refuse them below). */
export function parseAuthorizationModes(text: string): string[] {
  return text.split(',').map((m) => m.trim());
}

export function isAuthorizationMode(mode: string): mode is AuthorizationModeName {
  return (AUTHORIZATION_MODES as readonly string[]).includes(mode);
}

/** Every problem with the settings, in kube-apiserver's words; empty when they hold. */
export function validateAuthorizationSettings(s: AuthorizationSettings): string[] {
  const problems: string[] = [];
  if (s.modes.length === 0) problems.push('at least one authorization-mode must be passed');
  for (const mode of s.modes) {
    if (!isAuthorizationMode(mode)) problems.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode (valid: ${AUTHORIZATION_MODES.join(', ')})`);
    if (mode === 'ABAC' && !s.policyFile) problems.push("authorization-mode ABAC's authorization policy file not passed");
    if (mode === 'Webhook' && !s.webhookConfigFile) problems.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (s.policyFile && !s.modes.includes('ABAC')) problems.push('cannot specify --authorization-policy-file without mode ABAC');
  if (s.webhookConfigFile && !s.modes.includes('Webhook')) problems.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (new Set(s.modes).size !== s.modes.length) problems.push(`authorization-mode [${s.modes.map((m) => JSON.stringify(m)).join(' ')}] has mode specified more than once`);
  if (s.webhookVersion !== undefined && s.webhookVersion !== 'v1' && s.webhookVersion !== 'v1beta1') {
    problems.push(`unsupported authorization webhook version ${JSON.stringify(s.webhookVersion)}: use v1 or v1beta1`);
  }
  return problems;
}
