import { describe, expect, it } from 'vitest';
import { parsePolicy } from './policy-file.js';

const GROUP = 'audit.orch.io';

describe('parsePolicy', () => {
  it('reads rules, unions the policy omitStages into each rule, and keeps omitManagedFields', () => {
    const p = parsePolicy(
      `apiVersion: audit.orch.io/v1
kind: Policy
omitStages: [RequestReceived]
omitManagedFields: true
rules:
- level: RequestResponse
  omitStages: [ResponseStarted]
  omitManagedFields: false
  resources: [{group: "", resources: [configmaps], resourceNames: [a]}]
- level: Metadata
`,
      GROUP,
    );
    expect(p.omitManagedFields).toBe(true);
    expect(p.rules[0]).toMatchObject({ level: 'RequestResponse', omitManagedFields: false, resources: [{ group: '', resources: ['configmaps'], resourceNames: ['a'] }] });
    expect([...(p.rules[0]?.omitStages ?? [])].sort()).toEqual(['RequestReceived', 'ResponseStarted']);
    expect(p.rules[1]).toMatchObject({ level: 'Metadata', omitStages: ['RequestReceived'] });
    expect(p.rules[1]?.omitManagedFields).toBeUndefined();
  });

  it.each([
    ['apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None}]', 'unknown group version field "audit.k8s.io/v1, Kind=Policy" in policy: expected apiVersion audit.orch.io/v1 and kind Policy'],
    ['apiVersion: audit.orch.io/v1\nkind: Policy\nrules: []', 'loaded illegal policy with 0 rules'],
    ['apiVersion: audit.orch.io/v1\nkind: Policy\nrules: [{level: Everything}]', 'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"'],
    ['apiVersion: audit.orch.io/v1\nkind: Policy\nrules: [{}]', 'rules[0].level: Required value'],
    ['apiVersion: audit.orch.io/v1\nkind: Policy\nrules: [{level: None, omitStages: [Done]}]', 'rules[0].omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic'],
    ['apiVersion: audit.orch.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: ["healthz"]}]', `rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`],
    ['apiVersion: audit.orch.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: ["/a*/b"]}]', `rules[0].nonResourceURLs[0]: Invalid value: "/a*/b": non-resource URL wildcards '*' must be the final character of the rule`],
    ['apiVersion: audit.orch.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: ["/x"], namespaces: [a]}]', 'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs'],
    ['apiVersion: audit.orch.io/v1\nkind: Policy\nrules: [{level: None, resources: [{group: "", resourceNames: [x]}]}]', 'rules[0].resources.resourceNames: Invalid value: ["x"]: using resourceNames requires at least one resource'],
    ['apiVersion: audit.orch.io/v1\nkind: Policy\nrules: [{level: None, resources: [{group: "apps/v1"}]}]', `rules[0].resources.group: Invalid value: "apps/v1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`],
  ])('refuses %j', (text, message) => {
    expect(() => parsePolicy(text, GROUP)).toThrow(message);
  });

  it('lists every problem at once', () => {
    expect(() => parsePolicy('apiVersion: audit.orch.io/v1\nkind: Policy\nrules: [{level: X}, {}]', GROUP)).toThrow(/^\[rules\[0\]\.level: Unsupported value: "X".*, rules\[1\]\.level: Required value\]$/);
  });
});
