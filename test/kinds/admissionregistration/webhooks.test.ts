/**
 * ValidatingWebhookConfiguration and MutatingWebhookConfiguration over HTTP: every row of document
 * 3's webhook configuration table (defaults and rules) and Kubernetes' validation behind it. Both
 * kinds share the webhook rules, so most cases run against each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { causesOf, expectInvalid } from '../rbac/helpers.js';

const GROUP = 'admissionregistration.orch.io';
const MERGE = 'application/merge-patch+json';

const KINDS = [
  { kind: 'ValidatingWebhookConfiguration', path: `/apis/${GROUP}/v1/validatingwebhookconfigurations`, mutating: false },
  { kind: 'MutatingWebhookConfiguration', path: `/apis/${GROUP}/v1/mutatingwebhookconfigurations`, mutating: true },
] as const;

/** A minimal valid webhook, with `extra` merged over it. */
function hook(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'check.example.com',
    clientConfig: { url: 'https://hooks.example.com/check' },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

const rule = (extra: Record<string, unknown>): Record<string, unknown> => ({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], ...extra });

describe.each(KINDS)('$kind', ({ kind, path, mutating }) => {
  let s: TestServer;
  let n = 0;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const post = (webhooks: unknown[], name = `cfg-${++n}`) => s.post(path, { metadata: { name }, webhooks });
  /** Posts one webhook and expects it refused; returns the causes. */
  const refused = async (extra: Record<string, unknown>): Promise<[string, string, string][]> => {
    const name = `bad-${++n}`;
    return causesOf(expectInvalid(await post([hook(extra)], name), kind, name));
  };
  const accepted = async (webhooks: unknown[]): Promise<any> => {
    const r = await post(webhooks);
    expect(r.status, r.text).toBe(201);
    return r.body;
  };

  it('is served cluster-scoped in category api-extensions', async () => {
    const r = await s.get(`/apis/${GROUP}/v1`);
    const res = r.body.resources.find((x: any) => x.kind === kind);
    expect(res).toMatchObject({ namespaced: false, categories: ['api-extensions'] });
  });

  it('fills in the defaults', async () => {
    const body = await accepted([hook({ clientConfig: { service: { namespace: 'hooks', name: 'svc' } } })]);
    const w = body.webhooks[0];
    expect(w.failurePolicy).toBe('Fail');
    expect(w.matchPolicy).toBe('Equivalent');
    expect(w.namespaceSelector).toEqual({});
    expect(w.objectSelector).toEqual({});
    expect(w.timeoutSeconds).toBe(10);
    expect(w.rules[0].scope).toBe('*');
    // The port is stored; the path is not: an unset path means "/" when the webhook is called.
    expect(w.clientConfig.service).toEqual({ namespace: 'hooks', name: 'svc', port: 443 });
    if (mutating) expect(w.reinvocationPolicy).toBe('Never');
    else expect(w).not.toHaveProperty('reinvocationPolicy');
  });

  it('keeps values that are set', async () => {
    const w = hook({
      failurePolicy: 'Ignore',
      matchPolicy: 'Exact',
      timeoutSeconds: 30,
      sideEffects: 'NoneOnDryRun',
      namespaceSelector: { matchLabels: { env: 'prod' } },
      objectSelector: { matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] },
      rules: [rule({ scope: 'Namespaced' })],
      clientConfig: { service: { namespace: 'hooks', name: 'svc', port: 8443, path: '/validate/pods' }, caBundle: Buffer.from('ca').toString('base64') },
      admissionReviewVersions: ['v1beta1', 'v1'],
      ...(mutating ? { reinvocationPolicy: 'IfNeeded' } : {}),
    });
    const body = await accepted([w]);
    expect(body.webhooks[0]).toEqual(w);
    expect(body.metadata.generation).toBe(1);
  });

  it('requires webhook names unique within the configuration', async () => {
    const name = `dup-${++n}`;
    const st = expectInvalid(await post([hook(), hook({ name: 'other.example.com' }), hook()], name), kind, name);
    expect(causesOf(st)).toEqual([['FieldValueDuplicate', 'webhooks[2].name', 'Duplicate value: "check.example.com"']]);
  });

  it('requires webhook names that are DNS names of at least three segments', async () => {
    expect(await refused({ name: '' })).toEqual([['FieldValueRequired', 'webhooks[0].name', 'Required value']]);
    expect(await refused({ name: 'check.example' })).toEqual([
      ['FieldValueInvalid', 'webhooks[0].name', 'Invalid value: "check.example": should be a domain with at least three segments separated by dots'],
    ]);
    const upper = await refused({ name: 'Check.Example.com' });
    expect(upper.map((c) => c.slice(0, 2))).toEqual([['FieldValueInvalid', 'webhooks[0].name']]);
    expect(upper[0]?.[2]).toMatch(/^Invalid value: "Check.Example.com": a lowercase RFC 1123 subdomain/);
  });

  it('takes the operations CREATE, UPDATE, DELETE, CONNECT and * (alone)', async () => {
    await accepted([hook({ rules: [rule({ operations: ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] }), rule({ operations: ['*'] })] })]);
    expect(await refused({ rules: [rule({ operations: ['PATCH'] })] })).toEqual([
      ['FieldValueNotSupported', 'webhooks[0].rules[0].operations[0]', 'Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"'],
    ]);
    expect(await refused({ rules: [rule({ operations: ['*', 'CREATE'] })] })).toEqual([
      ['FieldValueInvalid', 'webhooks[0].rules[0].operations', `Invalid value: ["*","CREATE"]: if '*' is present, must not specify other operations`],
    ]);
    expect(await refused({ rules: [rule({ operations: [] })] })).toEqual([['FieldValueRequired', 'webhooks[0].rules[0].operations', 'Required value']]);
  });

  it('takes apiGroups ("" is core, * alone) and apiVersions (* alone, none empty)', async () => {
    await accepted([hook({ rules: [rule({ apiGroups: ['', 'apps'] }), rule({ apiGroups: ['*'], apiVersions: ['*'] })] })]);
    expect(await refused({ rules: [rule({ apiGroups: [], apiVersions: [] })] })).toEqual([
      ['FieldValueRequired', 'webhooks[0].rules[0].apiGroups', 'Required value'],
      ['FieldValueRequired', 'webhooks[0].rules[0].apiVersions', 'Required value'],
    ]);
    expect(await refused({ rules: [rule({ apiGroups: ['*', 'apps'], apiVersions: ['v1', '*'] })] })).toEqual([
      ['FieldValueInvalid', 'webhooks[0].rules[0].apiGroups', `Invalid value: ["*","apps"]: if '*' is present, must not specify other API groups`],
      ['FieldValueInvalid', 'webhooks[0].rules[0].apiVersions', `Invalid value: ["v1","*"]: if '*' is present, must not specify other API versions`],
    ]);
    expect(await refused({ rules: [rule({ apiVersions: ['v1', ''] })] })).toEqual([['FieldValueRequired', 'webhooks[0].rules[0].apiVersions[1]', 'Required value']]);
  });

  it('takes the resource forms *, */*, pods/* and */status', async () => {
    await accepted([
      hook({ rules: [rule({ resources: ['*'] }), rule({ resources: ['*/*'] }), rule({ resources: ['pods/*', 'deployments'] }), rule({ resources: ['*/status', 'pods'] })] }),
    ]);
    await accepted([hook({ rules: [rule({ resources: ['*', 'pods/log'] })] })]);
  });

  it('refuses resource lists that overlap a wildcard', async () => {
    expect(await refused({ rules: [rule({ resources: [] })] })).toEqual([['FieldValueRequired', 'webhooks[0].rules[0].resources', 'Required value']]);
    expect(await refused({ rules: [rule({ resources: ['pods', ''] })] })).toEqual([['FieldValueRequired', 'webhooks[0].rules[0].resources[1]', 'Required value']]);
    expect(await refused({ rules: [rule({ resources: ['*/*', 'pods'] })] })).toEqual([
      ['FieldValueInvalid', 'webhooks[0].rules[0].resources', `Invalid value: ["*/*","pods"]: if '*/*' is present, must not specify other resources`],
    ]);
    expect(await refused({ rules: [rule({ resources: ['*', 'pods'] })] })).toEqual([
      ['FieldValueInvalid', 'webhooks[0].rules[0].resources', `Invalid value: ["*","pods"]: if '*' is present, must not specify other resources without subresources`],
    ]);
    expect(await refused({ rules: [rule({ resources: ['pods/*', 'pods/log'] })] })).toEqual([
      ['FieldValueInvalid', 'webhooks[0].rules[0].resources[1]', `Invalid value: "pods/log": if 'pods/*' is present, must not specify pods/log`],
    ]);
    expect(await refused({ rules: [rule({ resources: ['*/status', 'pods/status'] })] })).toEqual([
      ['FieldValueInvalid', 'webhooks[0].rules[0].resources[1]', `Invalid value: "pods/status": if '*/status' is present, must not specify pods/status`],
    ]);
  });

  it('takes the scopes Cluster, Namespaced and *', async () => {
    await accepted([hook({ rules: [rule({ scope: 'Cluster' }), rule({ scope: 'Namespaced' }), rule({ scope: '*' })] })]);
    expect(await refused({ rules: [rule({ scope: 'Global' })] })).toEqual([
      ['FieldValueNotSupported', 'webhooks[0].rules[0].scope', 'Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"'],
    ]);
  });

  it('requires valid label selectors', async () => {
    const causes = await refused({
      namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In' }] },
      objectSelector: { matchLabels: { 'bad key': 'x' }, matchExpressions: [{ key: 'a', operator: 'Exists', values: ['b'] }] },
    });
    expect(causes.map((c) => c.slice(0, 2))).toEqual([
      ['FieldValueRequired', 'webhooks[0].namespaceSelector.matchExpressions[0].values'],
      ['FieldValueInvalid', 'webhooks[0].objectSelector.matchLabels'],
      ['FieldValueForbidden', 'webhooks[0].objectSelector.matchExpressions[0].values'],
    ]);
    expect(await refused({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['not valid!'] }] } })).toEqual([
      [
        'FieldValueInvalid',
        'webhooks[0].objectSelector.matchExpressions[0].values[0]',
        expect.stringMatching(/^Invalid value: "not valid!": a valid label must be an empty string or consist of/),
      ],
    ]);
  });

  it('takes matchPolicy Exact or Equivalent', async () => {
    expect(await refused({ matchPolicy: 'Loose' })).toEqual([['FieldValueNotSupported', 'webhooks[0].matchPolicy', 'Unsupported value: "Loose": supported values: "Equivalent", "Exact"']]);
  });

  it('takes failurePolicy Ignore or Fail', async () => {
    expect(await refused({ failurePolicy: 'Retry' })).toEqual([['FieldValueNotSupported', 'webhooks[0].failurePolicy', 'Unsupported value: "Retry": supported values: "Fail", "Ignore"']]);
  });

  it('requires exactly one of url and service', async () => {
    const both = await refused({ clientConfig: { url: 'https://a.example.com', service: { namespace: 'n', name: 's' } } });
    expect(both).toEqual([['FieldValueRequired', 'webhooks[0].clientConfig', 'Required value: exactly one of url or service is required']]);
    const neither = await refused({ clientConfig: { caBundle: Buffer.from('x').toString('base64') } });
    expect(neither).toEqual([['FieldValueRequired', 'webhooks[0].clientConfig', 'Required value: exactly one of url or service is required']]);
  });

  it('takes only https URLs without user info, query or fragment', async () => {
    await accepted([hook({ clientConfig: { url: 'https://10.0.0.1:8443/some/path' } })]);
    const form = '; desired format: https://host[/path]';
    const url = 'webhooks[0].clientConfig.url';
    expect(await refused({ clientConfig: { url: 'http://hooks.example.com/x' } })).toEqual([['FieldValueInvalid', url, `Invalid value: "http": 'https' is the only allowed URL scheme${form}`]]);
    expect(await refused({ clientConfig: { url: 'https:///x' } })).toEqual([['FieldValueInvalid', url, `Invalid value: "": host must be specified${form}`]]);
    expect(await refused({ clientConfig: { url: 'https://user:pw@hooks.example.com/' } })).toEqual([['FieldValueInvalid', url, 'Invalid value: "user:pw": user information is not permitted in the URL']]);
    expect(await refused({ clientConfig: { url: 'https://hooks.example.com/?a=b' } })).toEqual([['FieldValueInvalid', url, 'Invalid value: "a=b": query parameters are not permitted in the URL']]);
    expect(await refused({ clientConfig: { url: 'https://hooks.example.com/#top' } })).toEqual([['FieldValueInvalid', url, 'Invalid value: "top": fragments are not permitted in the URL']]);
    expect(await refused({ clientConfig: { url: '://hooks.example.com' } })).toEqual([
      ['FieldValueRequired', url, `Required value: url must be a valid URL: parse "://hooks.example.com": missing protocol scheme${form}`],
    ]);
    expect(await refused({ clientConfig: { url: 'https://hooks.example.com:port/' } })).toEqual([
      ['FieldValueRequired', url, `Required value: url must be a valid URL: parse "https://hooks.example.com:port/": invalid port ":port" after host${form}`],
    ]);
  });

  it('requires service namespace and name, a port of 1 to 65535 and a valid path', async () => {
    const svc = 'webhooks[0].clientConfig.service';
    expect(await refused({ clientConfig: { service: { port: 0 } } })).toEqual([
      ['FieldValueRequired', `${svc}.name`, 'Required value'],
      ['FieldValueRequired', `${svc}.namespace`, 'Required value'],
      ['FieldValueInvalid', `${svc}.port`, 'Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive'],
    ]);
    expect(await refused({ clientConfig: { service: { namespace: 'n', name: 's', port: 65536 } } })).toEqual([
      ['FieldValueInvalid', `${svc}.port`, 'Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive'],
    ]);
    await accepted([hook({ clientConfig: { service: { namespace: 'n', name: 's', port: 1, path: '/' } } }), hook({ name: 'b.example.com', clientConfig: { service: { namespace: 'n', name: 's', port: 65535, path: '/a/b/' } } })]);
    expect(await refused({ clientConfig: { service: { namespace: 'n', name: 's', path: 'relative' } } })).toEqual([
      ['FieldValueInvalid', `${svc}.path`, `Invalid value: "relative": must start with a '/'`],
    ]);
    expect(await refused({ clientConfig: { service: { namespace: 'n', name: 's', path: '//' } } })).toEqual([['FieldValueInvalid', `${svc}.path`, 'Invalid value: "//": segment[0] may not be empty']]);
    expect(await refused({ clientConfig: { service: { namespace: 'n', name: 's', path: '/a//b' } } })).toEqual([['FieldValueInvalid', `${svc}.path`, 'Invalid value: "/a//b": segment[1] may not be empty']]);
    const bad = await refused({ clientConfig: { service: { namespace: 'n', name: 's', path: '/ok/Not_OK' } } });
    expect(bad.map((c) => c.slice(0, 2))).toEqual([['FieldValueInvalid', `${svc}.path`]]);
    expect(bad[0]?.[2]).toMatch(/^Invalid value: "\/ok\/Not_OK": segment\[1\]: a lowercase RFC 1123 subdomain/);
  });

  it('stores caBundle as sent', async () => {
    const caBundle = Buffer.from('-----BEGIN CERTIFICATE-----\n...\n-----END CERTIFICATE-----\n').toString('base64');
    const body = await accepted([hook({ clientConfig: { url: 'https://a.example.com', caBundle } })]);
    expect(body.webhooks[0].clientConfig.caBundle).toBe(caBundle);
  });

  it('requires sideEffects None or NoneOnDryRun', async () => {
    expect(await refused({ sideEffects: undefined })).toEqual([['FieldValueRequired', 'webhooks[0].sideEffects', 'Required value: must specify one of None, NoneOnDryRun']]);
    for (const v of ['Some', 'Unknown']) {
      expect(await refused({ sideEffects: v })).toEqual([['FieldValueNotSupported', 'webhooks[0].sideEffects', `Unsupported value: "${v}": supported values: "None", "NoneOnDryRun"`]]);
    }
  });

  it('takes timeoutSeconds of 1 to 30', async () => {
    await accepted([hook({ timeoutSeconds: 1 })]);
    for (const v of [0, 31]) {
      expect(await refused({ timeoutSeconds: v })).toEqual([['FieldValueInvalid', 'webhooks[0].timeoutSeconds', `Invalid value: ${v}: the timeout value must be between 1 and 30 seconds`]]);
    }
  });

  it('requires admissionReviewVersions that include a version this server supports', async () => {
    expect(await refused({ admissionReviewVersions: [] })).toEqual([['FieldValueRequired', 'webhooks[0].admissionReviewVersions', 'Required value: must specify one of v1, v1beta1']]);
    expect(await refused({ admissionReviewVersions: ['v2'] })).toEqual([
      ['FieldValueInvalid', 'webhooks[0].admissionReviewVersions', 'Invalid value: ["v2"]: must include at least one of v1, v1beta1'],
    ]);
    expect(await refused({ admissionReviewVersions: ['v1', 'v1'] })).toEqual([['FieldValueInvalid', 'webhooks[0].admissionReviewVersions[1]', 'Invalid value: "v1": duplicate version']]);
    const caps = await refused({ admissionReviewVersions: ['v1', 'V2'] });
    expect(caps.map((c) => c.slice(0, 2))).toEqual([['FieldValueInvalid', 'webhooks[0].admissionReviewVersions[1]']]);
    expect(caps[0]?.[2]).toMatch(/^Invalid value: "V2": a DNS-1035 label must consist of/);
    await accepted([hook({ admissionReviewVersions: ['v2', 'v1beta1'] })]);
  });

  it('has no matchConditions in 1.25', async () => {
    const r = await s.post(`${path}?fieldValidation=Strict`, { metadata: { name: 'conditions' }, webhooks: [hook({ matchConditions: [{ name: 'x', expression: 'true' }] })] });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('unknown field "webhooks[0].matchConditions"');
  });

  it('reinvocationPolicy is Never or IfNeeded, and only on mutating webhooks', async () => {
    if (mutating) {
      expect(await refused({ reinvocationPolicy: 'Always' })).toEqual([
        ['FieldValueNotSupported', 'webhooks[0].reinvocationPolicy', 'Unsupported value: "Always": supported values: "IfNeeded", "Never"'],
      ]);
    } else {
      const r = await s.post(`${path}?fieldValidation=Strict`, { metadata: { name: 'reinvoke' }, webhooks: [hook({ reinvocationPolicy: 'IfNeeded' })] });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('unknown field "webhooks[0].reinvocationPolicy"');
    }
  });

  it('takes a DNS subdomain as the object name', async () => {
    const st = expectInvalid(await post([hook()], 'Not_A_Name'), kind, 'Not_A_Name');
    expect(causesOf(st)[0]?.slice(0, 2)).toEqual(['FieldValueInvalid', 'metadata.name']);
  });

  it('bumps generation when webhooks change, not when only metadata does', async () => {
    const body = await accepted([hook()]);
    const name = body.metadata.name;
    const labelled = await s.patch(`${path}/${name}`, { metadata: { labels: { a: 'b' } } }, MERGE);
    expect(labelled.body.metadata.generation).toBe(1);
    const changed = await s.patch(`${path}/${name}`, { webhooks: [hook({ timeoutSeconds: 5 })] }, MERGE);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.metadata.generation).toBe(2);
  });

  it('holds updates to the same rules as creates', async () => {
    const body = await accepted([hook()]);
    const st = expectInvalid(await s.patch(`${path}/${body.metadata.name}`, { webhooks: [hook({ sideEffects: 'Some', admissionReviewVersions: ['v9'] })] }, MERGE), kind, body.metadata.name);
    expect(causesOf(st).map((c) => c[1])).toEqual(['webhooks[0].sideEffects', 'webhooks[0].admissionReviewVersions']);
  });
});
