import { describe, expect, it } from 'vitest';
import { createPolicyChecker, type AuditAttributes } from './policy-checker.js';
import { parsePolicy } from './policy-file.js';

const policy = (rules: string): ReturnType<typeof parsePolicy> => parsePolicy(`apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n${rules}`, 'audit.orch.io');
const jane = { username: 'jane', groups: ['dev', 'system:authenticated'] };
const res = (over: Partial<AuditAttributes> = {}): AuditAttributes => ({
  user: jane,
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/ns/pods/p',
  namespace: 'ns',
  apiGroup: '',
  resource: 'pods',
  subresource: '',
  name: 'p',
  ...over,
});
const nonRes = (path: string): AuditAttributes => ({ user: jane, verb: 'get', isResourceRequest: false, path, namespace: '', apiGroup: '', resource: '', subresource: '', name: '' });
const CREDENTIALS = [
  { group: '', resource: 'secrets' },
  { group: 'authentication.orch.io', resource: 'tokenreviews' },
];

describe('the policy checker', () => {
  it.each<[string, string, AuditAttributes, string]>([
    ['users', '- level: Request\n  users: [jane]', res(), 'Request'],
    ['users, another', '- level: Request\n  users: [bob]', res(), 'None'],
    ['no user at all (a failed authentication)', '- level: Request\n  users: [jane]', res({ user: undefined }), 'None'],
    ['userGroups', '- level: Request\n  userGroups: [dev]', res(), 'Request'],
    ['verbs', '- level: Request\n  verbs: [list, watch]', res(), 'None'],
    ['a resource', '- level: Request\n  resources: [{group: "", resources: [pods]}]', res(), 'Request'],
    ['a resource is not its subresource', '- level: Request\n  resources: [{group: "", resources: [pods]}]', res({ subresource: 'log' }), 'None'],
    ['resource/subresource', '- level: Request\n  resources: [{group: "", resources: [pods/log]}]', res({ subresource: 'log' }), 'Request'],
    ['*/subresource', '- level: Request\n  resources: [{group: "", resources: ["*/status"]}]', res({ subresource: 'status' }), 'Request'],
    ['resource/*', '- level: Request\n  resources: [{group: "", resources: ["pods/*"]}]', res({ subresource: 'exec' }), 'Request'],
    ['*', '- level: Request\n  resources: [{group: "", resources: ["*"]}]', res({ subresource: 'exec' }), 'Request'],
    ['a whole group', '- level: Request\n  resources: [{group: apps}]', res({ apiGroup: 'apps', resource: 'deployments' }), 'Request'],
    ['another group', '- level: Request\n  resources: [{group: apps}]', res(), 'None'],
    ['resourceNames', '- level: Request\n  resources: [{group: "", resources: [pods], resourceNames: [q]}]', res(), 'None'],
    ['namespaces', '- level: Request\n  namespaces: [ns]', res(), 'Request'],
    ['the empty namespace is cluster scope', '- level: Request\n  namespaces: [""]', res({ namespace: '', resource: 'nodes' }), 'Request'],
    ['resource rules never match a non-resource path', '- level: Request\n  namespaces: [ns]', nonRes('/healthz'), 'None'],
    ['nonResourceURLs', '- level: Request\n  nonResourceURLs: [/healthz]', nonRes('/healthz'), 'Request'],
    ['nonResourceURLs prefix', '- level: Request\n  nonResourceURLs: ["/apis*"]', nonRes('/apis/apps'), 'Request'],
    ['nonResourceURLs never match a resource', '- level: Request\n  nonResourceURLs: ["*"]', res(), 'None'],
    ['the first match wins', '- level: None\n  users: [jane]\n- level: RequestResponse', res(), 'None'],
    ['no match is None', '- level: Metadata\n  users: [bob]', res(), 'None'],
  ])('%s', (_name, rules, attrs, level) => {
    expect(createPolicyChecker(policy(rules), CREDENTIALS)(attrs).level).toBe(level);
  });

  it("records credentials' bodies only when the rule names the resource itself", () => {
    const secret = res({ resource: 'secrets', name: 's' });
    const review = res({ apiGroup: 'authentication.orch.io', resource: 'tokenreviews', verb: 'create', name: '', namespace: '' });
    const catchAll = createPolicyChecker(policy('- level: RequestResponse'), CREDENTIALS);
    expect(catchAll(secret).level).toBe('Metadata');
    expect(catchAll(review).level).toBe('Metadata');
    expect(catchAll(res()).level).toBe('RequestResponse');
    const wholeGroup = createPolicyChecker(policy('- level: Request\n  resources: [{group: ""}]'), CREDENTIALS);
    expect(wholeGroup(secret).level).toBe('Metadata');
    const named = createPolicyChecker(policy('- level: Request\n  resources: [{group: "", resources: [secrets]}]'), CREDENTIALS);
    expect(named(secret).level).toBe('Request');
  });

  it('gives the rule its stages and managedFields choice, else the policy default', () => {
    const p = parsePolicy('apiVersion: audit.orch.io/v1\nkind: Policy\nomitManagedFields: true\nomitStages: [Panic]\nrules:\n- level: Request\n  users: [jane]\n  omitManagedFields: false\n- level: Metadata', 'audit.orch.io');
    const check = createPolicyChecker(p, []);
    expect(check(res())).toEqual({ level: 'Request', omitStages: ['Panic'], omitManagedFields: false });
    expect(check(res({ user: { username: 'bob', groups: [] } }))).toEqual({ level: 'Metadata', omitStages: ['Panic'], omitManagedFields: true });
  });
});
