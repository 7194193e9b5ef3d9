import { describe, expect, it } from 'vitest';
import type { AuthorizationAttributes } from '../index.js';
import { abacAuthorizer } from './authorizer.js';
import { parsePolicyFile } from './policy.js';

const GROUP = 'abac.authorization.orch.io';
const line = (spec: Record<string, unknown>) => JSON.stringify({ apiVersion: `${GROUP}/v1beta1`, kind: 'Policy', spec });
const FILE = [
  '# who may do what',
  line({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }),
  line({ user: 'bob', namespace: 'team', resource: 'pods', apiGroup: '', readonly: true }),
  line({ group: 'ops', namespace: '*', resource: 'deployments', apiGroup: 'apps' }),
  line({ user: '*', nonResourcePath: '/version', readonly: true }),
  line({ group: 'system:unauthenticated', nonResourcePath: '/healthz*', readonly: true }),
  '',
  JSON.stringify({ user: 'legacy' }),
].join('\n');

const signal = new AbortController().signal;
const policies = parsePolicyFile(FILE, '/etc/policy.jsonl', GROUP);
const authz = abacAuthorizer(policies);
const res = (username: string, groups: string[], verb: string, namespace: string, resource: string, apiGroup = ''): AuthorizationAttributes => ({ user: { username, groups }, verb, isResourceRequest: true, path: '', namespace, apiGroup, apiVersion: 'v1', resource, subresource: '', name: '' });
const path = (username: string, groups: string[], verb: string, p: string): AuthorizationAttributes => ({ user: { username, groups }, verb, isResourceRequest: false, path: p, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' });

describe('ABAC', () => {
  const cases: [string, AuthorizationAttributes, boolean][] = [
    ['alice may do anything', res('alice', [], 'delete', 'x', 'secrets'), true],
    ['bob may read pods in team', res('bob', [], 'list', 'team', 'pods'), true],
    ['bob may not write pods (readonly)', res('bob', [], 'create', 'team', 'pods'), false],
    ['bob may not read pods elsewhere', res('bob', [], 'list', 'other', 'pods'), false],
    ['bob may not read pods in another group', res('bob', [], 'list', 'team', 'pods', 'apps'), false],
    ['ops may write deployments', res('carol', ['ops'], 'update', 'x', 'deployments', 'apps'), true],
    ['* is every authenticated user', path('dave', ['system:authenticated'], 'get', '/version'), true],
    ['* is not anonymous', path('system:anonymous', ['system:unauthenticated'], 'get', '/version'), false],
    ['anonymous needs an explicit rule; trailing * is a prefix', path('system:anonymous', ['system:unauthenticated'], 'get', '/healthz/ping'), true],
    ['a readonly path refuses other verbs', path('dave', ['system:authenticated'], 'post', '/version'), false],
    ['a legacy line allows its user everything', res('legacy', [], 'delete', 'x', 'pods', 'apps'), true],
    ['a legacy line allows non-resource paths too', path('legacy', [], 'get', '/metrics'), true],
  ];
  it.each(cases)('%s', async (_l, attrs, allowed) => {
    const r = await authz.authorize(attrs, signal);
    expect(r.decision).toBe(allowed ? 'allow' : 'no-opinion');
    if (!allowed) expect(r.reason).toBe('No policy matched.');
  });

  it('lists the rules of a user in a namespace', () => {
    expect(authz.rulesFor({ username: 'bob', groups: ['system:authenticated'] }, 'team')).toEqual({
      resourceRules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
      // As in Kubernetes, a line without a namespace (a path line) is not listed for a namespace.
      nonResourceRules: [],
      incomplete: false,
      errors: [],
    });
  });

  it.each([
    ['{not json', /line 1: \{not json: /],
    [JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec: {} }), /line 1: .*unknown apiVersion "abac.authorization.kubernetes.io\/v1beta1": use abac.authorization.orch.io\/v1beta1$/],
    [JSON.stringify({ apiVersion: `${GROUP}/v1beta1`, kind: 'Rule', spec: {} }), /unknown kind "Rule": use Policy$/],
    [JSON.stringify({ apiVersion: `${GROUP}/v1beta1`, kind: 'Policy', spec: { readonly: 'yes' } }), /readonly must be a boolean$/],
  ])('refuses a bad line naming the file and line: %s', (text, message) => {
    expect(() => parsePolicyFile(text, '/p', GROUP)).toThrow(message);
  });
});
