/** IngressClass (networking.<domain>/v1): document 2's rows, checked over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectStatus } from '../../rest/fixtures.js';

const IC = '/apis/networking.orch.io/v1/ingressclasses';
const MERGE = 'application/merge-patch+json';

function causes(r: { body: any }): { reason: string; field: string; message: string }[] {
  return r.body.details.causes;
}

describe('IngressClass', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served cluster-scoped in networking.orch.io/v1 and listed in discovery without short names', async () => {
    const list = await s.get('/apis/networking.orch.io/v1');
    expect(list.status).toBe(200);
    const entry = list.body.resources.find((r: any) => r.name === 'ingressclasses');
    expect(entry).toMatchObject({ kind: 'IngressClass', namespaced: false, singularName: 'ingressclass' });
    expect(entry.shortNames).toBeUndefined();
    expect((await s.get('/apis/networking.orch.io/v1/namespaces/default/ingressclasses')).status).toBe(404);
    const created = await s.post(IC, { metadata: { name: 'nginx' }, spec: { controller: 'example.com/nginx' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ apiVersion: 'networking.orch.io/v1', kind: 'IngressClass', spec: { controller: 'example.com/nginx' } });
    expect(created.body.metadata.namespace).toBeUndefined();
    expect(created.body.metadata.generation).toBe(1);
    const listed = await s.get(IC);
    expect(listed.body.kind).toBe('IngressClassList');
  });

  it('requires spec.controller as a domain-prefixed path', async () => {
    const missing = expectStatus(await s.post(IC, { metadata: { name: 'no-controller' }, spec: {} }), 422, 'Invalid');
    expect(missing.details.causes).toEqual([{ reason: 'FieldValueRequired', field: 'spec.controller', message: 'Required value' }]);
    const bare = expectStatus(await s.post(IC, { metadata: { name: 'bare' }, spec: { controller: 'nginx' } }), 422, 'Invalid');
    expect(bare.details.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.controller', message: 'Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")' },
    ]);
    const emptyPath = expectStatus(await s.post(IC, { metadata: { name: 'empty-path' }, spec: { controller: 'acme.io/' } }), 422, 'Invalid');
    expect(emptyPath.details.causes[0].message).toContain('must be a domain-prefixed path');
    const badHost = expectStatus(await s.post(IC, { metadata: { name: 'bad-host' }, spec: { controller: 'Acme_IO/x' } }), 422, 'Invalid');
    expect(badHost.details.causes).toEqual([expect.objectContaining({ field: 'spec.controller', message: expect.stringMatching(/^Invalid value: "Acme_IO": a lowercase RFC 1123 subdomain/) })]);
    const badPath = expectStatus(await s.post(IC, { metadata: { name: 'bad-path' }, spec: { controller: 'acme.io/a b' } }), 422, 'Invalid');
    expect(badPath.details.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.controller', message: `Invalid value: "a b": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')` },
    ]);
    expect((await s.post(IC, { metadata: { name: 'deep' }, spec: { controller: 'acme.io/ingress/v2:x' } })).status).toBe(201);
  });

  it('limits spec.controller to 250 characters', async () => {
    const at = `acme.io/${'x'.repeat(250 - 'acme.io/'.length)}`;
    expect(at.length).toBe(250);
    expect((await s.post(IC, { metadata: { name: 'long-ok' }, spec: { controller: at } })).status).toBe(201);
    const st = expectStatus(await s.post(IC, { metadata: { name: 'too-long' }, spec: { controller: `${at}x` } }), 422, 'Invalid');
    expect(st.details.causes).toEqual([expect.objectContaining({ reason: 'FieldValueTooLong', field: 'spec.controller' })]);
    expect(st.message).toContain('250');
  });

  it('keeps spec.controller immutable and bumps generation when the spec changes', async () => {
    const created = await s.post(IC, { metadata: { name: 'fixed' }, spec: { controller: 'acme.io/one' } });
    expect(created.status).toBe(201);
    const st = expectStatus(await s.patch(`${IC}/fixed`, { spec: { controller: 'acme.io/two' } }, MERGE), 422, 'Invalid');
    expect(st.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.controller', message: 'Invalid value: "acme.io/two": field is immutable' }]);
    const params = await s.patch(`${IC}/fixed`, { spec: { parameters: { kind: 'ConfigMap', name: 'cfg' } } }, MERGE);
    expect(params.status, params.text).toBe(200);
    expect(params.body.metadata.generation).toBe(2);
    const labels = await s.patch(`${IC}/fixed`, { metadata: { labels: { a: 'b' } } }, MERGE);
    expect(labels.body.metadata.generation).toBe(2);
  });

  it('defaults parameters.scope to Cluster and forbids a namespace with it', async () => {
    const r = await s.post(IC, { metadata: { name: 'params' }, spec: { controller: 'acme.io/c', parameters: { kind: 'ConfigMap', name: 'cfg' } } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.parameters).toEqual({ kind: 'ConfigMap', name: 'cfg', scope: 'Cluster' });
    const st = expectStatus(
      await s.post(IC, { metadata: { name: 'cluster-ns' }, spec: { controller: 'acme.io/c', parameters: { kind: 'K', name: 'n', namespace: 'default' } } }),
      422,
      'Invalid',
    );
    expect(causes({ body: st })).toEqual([
      { reason: 'FieldValueForbidden', field: 'spec.parameters.namespace', message: "Forbidden: `parameters.scope` is set to 'Cluster'" },
    ]);
  });

  it('requires parameters.namespace when scope is Namespace, and a valid one', async () => {
    const spec = (parameters: Record<string, unknown>) => ({ controller: 'acme.io/c', parameters });
    const missing = expectStatus(await s.post(IC, { metadata: { name: 'ns-missing' }, spec: spec({ kind: 'K', name: 'n', scope: 'Namespace' }) }), 422, 'Invalid');
    expect(missing.details.causes).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.parameters.namespace', message: "Required value: `parameters.scope` is set to 'Namespace'" },
    ]);
    const bad = expectStatus(await s.post(IC, { metadata: { name: 'ns-bad' }, spec: spec({ kind: 'K', name: 'n', scope: 'Namespace', namespace: 'Not_A_Label' }) }), 422, 'Invalid');
    expect(bad.details.causes).toEqual([expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec.parameters.namespace' })]);
    const ok = await s.post(IC, { metadata: { name: 'ns-ok' }, spec: spec({ apiGroup: 'k8s.example.com', kind: 'Params', name: 'p', scope: 'Namespace', namespace: 'team-a' }) });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.spec.parameters).toEqual({ apiGroup: 'k8s.example.com', kind: 'Params', name: 'p', scope: 'Namespace', namespace: 'team-a' });
  });

  it('checks the parameters reference: kind and name required, scope Cluster or Namespace, apiGroup a DNS subdomain', async () => {
    const st = expectStatus(
      await s.post(IC, { metadata: { name: 'params-bad' }, spec: { controller: 'acme.io/c', parameters: { apiGroup: 'Bad_Group', kind: '', name: 'a/b', scope: 'Global' } } }),
      422,
      'Invalid',
    );
    expect(st.details.causes).toEqual([
      expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec.parameters.apiGroup' }),
      { reason: 'FieldValueRequired', field: 'spec.parameters.kind', message: 'Required value' },
      { reason: 'FieldValueInvalid', field: 'spec.parameters.name', message: `Invalid value: "a/b": may not contain '/'` },
      { reason: 'FieldValueNotSupported', field: 'spec.parameters.scope', message: 'Unsupported value: "Global": supported values: "Cluster", "Namespace"' },
    ]);
  });

  it('validates the name as a DNS subdomain', async () => {
    expectStatus(await s.post(IC, { metadata: { name: 'Upper' }, spec: { controller: 'acme.io/c' } }), 422, 'Invalid');
    expect((await s.post(IC, { metadata: { name: 'a.b.c' }, spec: { controller: 'acme.io/c' } })).status).toBe(201);
  });
});
