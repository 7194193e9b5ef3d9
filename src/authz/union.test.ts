import { describe, expect, it } from 'vitest';
import { alwaysAllow, alwaysDeny, privilegedGroups } from './always.js';
import type { AuthorizationAttributes, AuthorizationResult, AuthorizerMode } from './index.js';
import { unionModes } from './union.js';

const signal = new AbortController().signal;
const attrs = (groups: string[]): AuthorizationAttributes => ({ user: { username: 'u', groups }, verb: 'get', isResourceRequest: false, path: '/x', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' });
const fixed = (r: AuthorizationResult): AuthorizerMode => ({ authorize: async () => r, rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true, errors: ['cannot list'] }) });

describe('unionModes', () => {
  it('the first allow or deny decides, with its reason', async () => {
    const deny = fixed({ decision: 'deny', reason: 'no way' });
    expect(await unionModes([deny, alwaysAllow()]).authorize(attrs([]), signal)).toEqual({ decision: 'deny', reason: 'no way' });
    expect((await unionModes([alwaysAllow(), deny]).authorize(attrs([]), signal)).decision).toBe('allow');
  });

  it('no opinion passes on; AlwaysDeny has none, as in Kubernetes', async () => {
    expect((await unionModes([alwaysDeny(), alwaysAllow()]).authorize(attrs([]), signal)).decision).toBe('allow');
  });

  it('when nobody decides, reasons are joined by newlines and errors and failures kept', async () => {
    const a = fixed({ decision: 'no-opinion', reason: 'RBAC: x', evaluationErrors: ['x'] });
    const b = fixed({ decision: 'no-opinion', reason: '', failure: 'webhook down' });
    expect(await unionModes([a, alwaysDeny(), b]).authorize(attrs([]), signal)).toEqual({
      decision: 'no-opinion',
      reason: 'RBAC: x\nEverything is forbidden.',
      evaluationErrors: ['x'],
      failure: 'webhook down',
    });
  });

  it('system:masters is allowed by the privileged-group check alone', async () => {
    const u = unionModes([privilegedGroups(), alwaysDeny()]);
    expect((await u.authorize(attrs(['system:masters']), signal)).decision).toBe('allow');
    expect((await u.authorize(attrs(['dev']), signal)).decision).toBe('no-opinion');
  });

  it('rules of every mode together, incomplete when one is', () => {
    const rules = unionModes([alwaysAllow(), fixed({ decision: 'no-opinion', reason: '' })]).rulesFor({ username: 'u', groups: [] }, 'ns');
    expect(rules.resourceRules).toEqual([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }]);
    expect(rules.incomplete).toBe(true);
    expect(rules.errors).toEqual(['cannot list']);
  });
});
