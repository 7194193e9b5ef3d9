import { describe, expect, it } from 'vitest';
import { parseAuthorizationModes, validateAuthorizationSettings } from './modes.js';

describe('validateAuthorizationSettings', () => {
  it.each([
    [{ modes: ['RBAC'] }, []],
    [{ modes: ['AlwaysAllow', 'RBAC', 'ABAC', 'Webhook'], policyFile: 'p', webhookConfigFile: 'w' }, []],
    [{ modes: [] }, ['at least one authorization-mode must be passed']],
    [{ modes: ['Magic'] }, ['authorization-mode "Magic" is not a valid mode (valid: AlwaysAllow, AlwaysDeny, ABAC, RBAC, Webhook)']],
    [{ modes: ['ABAC'] }, ["authorization-mode ABAC's authorization policy file not passed"]],
    [{ modes: ['Webhook'] }, ["authorization-mode Webhook's authorization config file not passed"]],
    [{ modes: ['RBAC'], policyFile: 'p' }, ['cannot specify --authorization-policy-file without mode ABAC']],
    [{ modes: ['RBAC'], webhookConfigFile: 'w' }, ['cannot specify --authorization-webhook-config-file without mode Webhook']],
    [{ modes: ['RBAC', 'RBAC'] }, ['authorization-mode ["RBAC" "RBAC"] has mode specified more than once']],
    [{ modes: ['RBAC'], webhookVersion: 'v2' }, ['unsupported authorization webhook version "v2": use v1 or v1beta1']],
  ])('%j', (settings, problems) => expect(validateAuthorizationSettings(settings)).toEqual(problems));

  it('parses a comma-separated list', () => expect(parseAuthorizationModes('RBAC,Webhook')).toEqual(['RBAC', 'Webhook']));
});
