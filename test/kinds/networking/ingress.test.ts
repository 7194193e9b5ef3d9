/** Ingress (networking.<domain>/v1): schema, validation as Kubernetes', /status and generation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectStatus } from '../../rest/fixtures.js';

const NS = 'ing-test';
const ING = `/apis/networking.orch.io/v1/namespaces/${NS}/ingresses`;
const MERGE = 'application/merge-patch+json';
const backend = (name = 'web', port: Record<string, unknown> = { number: 80 }) => ({ service: { name, port } });
const rule = (paths: unknown[], host?: string) => ({ ...(host ? { host } : {}), http: { paths } });

describe('Ingress', () => {
  let s: TestServer;
  let n = 0;
  const name = (): string => `ing-${++n}`;
  const create = (spec: unknown, metadata: Record<string, unknown> = {}) => s.post(ING, { metadata: { name: name(), ...metadata }, spec });
  const invalid = async (spec: unknown) => expectStatus(await create(spec), 422, 'Invalid').details.causes;

  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it('is namespaced with short name ing, a status subresource and no category', async () => {
    const list = await s.get('/apis/networking.orch.io/v1');
    const entry = list.body.resources.find((r: any) => r.name === 'ingresses');
    expect(entry).toMatchObject({ kind: 'Ingress', namespaced: true, shortNames: ['ing'], singularName: 'ingress' });
    expect(entry.categories).toBeUndefined();
    expect(list.body.resources.find((r: any) => r.name === 'ingresses/status')).toMatchObject({ verbs: ['get', 'patch', 'update'] });
  });

  it('stores the full schema as sent', async () => {
    const spec = {
      ingressClassName: 'nginx',
      defaultBackend: { resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'static' } },
      tls: [{ hosts: ['foo.example.com', '*.bar.example.com'], secretName: 'tls-cert' }],
      rules: [
        rule([{ path: '/api', pathType: 'Prefix', backend: backend('api', { name: 'http' }) }], 'foo.example.com'),
        rule([{ pathType: 'ImplementationSpecific', backend: backend() }], '*.bar.example.com'),
        { host: 'nohttp.example.com' },
      ],
    };
    const r = await create(spec);
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec).toEqual(spec);
    expect(r.body.metadata.generation).toBe(1);
    expect(r.body.status).toEqual({ loadBalancer: {} });
  });

  it('needs rules or a default backend', async () => {
    expect(await invalid({})).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: null: either `defaultBackend` or `rules` must be specified' },
    ]);
  });

  it('requires pathType, one of Exact, Prefix, ImplementationSpecific', async () => {
    expect(await invalid({ rules: [rule([{ path: '/', backend: backend() }])] })).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.rules[0].http.paths[0].pathType', message: 'Required value: pathType must be specified' },
    ]);
    expect(await invalid({ rules: [rule([{ path: '/', pathType: 'Regex', backend: backend() }])] })).toEqual([
      {
        reason: 'FieldValueNotSupported',
        field: 'spec.rules[0].http.paths[0].pathType',
        message: 'Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
      },
    ]);
    for (const pathType of ['Exact', 'Prefix', 'ImplementationSpecific']) {
      expect((await create({ rules: [rule([{ path: '/x', pathType, backend: backend() }])] })).status).toBe(201);
    }
  });

  it('checks paths: absolute, and for Exact and Prefix no //, /./, /../, %2f and no /. or /.. at the end', async () => {
    const paths = ['rel', '/a//b', '/a/./b', '/a/../b', '/a%2fb', '/a%2Fb', '/a/.', '/a/..'].map((path) => ({ path, pathType: 'Exact', backend: backend() }));
    const causes = await invalid({ rules: [rule(paths)] });
    const at = (i: number) => `spec.rules[0].http.paths[${i}].path`;
    expect(causes).toEqual([
      { reason: 'FieldValueInvalid', field: at(0), message: 'Invalid value: "rel": must be an absolute path' },
      { reason: 'FieldValueInvalid', field: at(1), message: `Invalid value: "/a//b": must not contain '//'` },
      { reason: 'FieldValueInvalid', field: at(2), message: `Invalid value: "/a/./b": must not contain '/./'` },
      { reason: 'FieldValueInvalid', field: at(3), message: `Invalid value: "/a/../b": must not contain '/../'` },
      { reason: 'FieldValueInvalid', field: at(4), message: `Invalid value: "/a%2fb": must not contain '%2f'` },
      { reason: 'FieldValueInvalid', field: at(5), message: `Invalid value: "/a%2Fb": must not contain '%2F'` },
      { reason: 'FieldValueInvalid', field: at(6), message: `Invalid value: "/a/.": cannot end with '/.'` },
      { reason: 'FieldValueInvalid', field: at(7), message: `Invalid value: "/a/..": cannot end with '/..'` },
    ]);
    // Exact and Prefix need a path; ImplementationSpecific may leave it out but not make it relative.
    expect(await invalid({ rules: [rule([{ pathType: 'Prefix', backend: backend() }])] })).toEqual([
      { reason: 'FieldValueInvalid', field: at(0), message: 'Invalid value: "": must be an absolute path' },
    ]);
    expect(await invalid({ rules: [rule([{ path: 'x', pathType: 'ImplementationSpecific', backend: backend() }])] })).toEqual([
      { reason: 'FieldValueInvalid', field: at(0), message: 'Invalid value: "x": must be an absolute path' },
    ]);
    expect((await create({ rules: [rule([{ path: '/a//b', pathType: 'ImplementationSpecific', backend: backend() }])] })).status).toBe(201);
  });

  it('requires at least one path in an http rule', async () => {
    expect(await invalid({ rules: [{ http: { paths: [] } }] })).toEqual([{ reason: 'FieldValueRequired', field: 'spec.rules[0].http.paths', message: 'Required value' }]);
  });

  it('checks hosts: DNS names, one leading wildcard label, never an IP', async () => {
    const causes = await invalid({ rules: [{ host: '10.0.0.1' }, { host: 'Foo.com' }, { host: 'a.*.com' }, { host: '*' }, { host: '*.ok.com' }] });
    const c = (field: string, start: string) => ({ reason: 'FieldValueInvalid', field, message: expect.stringContaining(start) });
    expect(causes).toEqual([
      c('spec.rules[0].host', 'Invalid value: "10.0.0.1": must be a DNS name, not an IP address'),
      c('spec.rules[1].host', 'Invalid value: "Foo.com": a lowercase RFC 1123 subdomain must'),
      c('spec.rules[2].host', 'Invalid value: "a.*.com": a wildcard DNS-1123 subdomain must start'),
      c('spec.rules[3].host', 'Invalid value: "*": a wildcard DNS-1123 subdomain must start'),
    ]);
    expect(causes[2].message).toContain("(e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  });

  it('checks TLS hosts and secret names', async () => {
    const causes = await invalid({ defaultBackend: backend(), tls: [{ hosts: ['ok.com', 'Bad_Host', '*.w.com', 'x.*'], secretName: 'Bad_Secret' }] });
    expect(causes.map((c: any) => c.field)).toEqual(['spec.tls[0].hosts[1]', 'spec.tls[0].hosts[3]', 'spec.tls[0].secretName']);
  });

  it('checks backends: service or resource, not both, not neither', async () => {
    expect(await invalid({ defaultBackend: { ...backend(), resource: { kind: 'K', name: 'n' } } })).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.defaultBackend', message: 'Invalid value: "": cannot set both resource and service backends' },
    ]);
    expect(await invalid({ defaultBackend: {} })).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.defaultBackend', message: 'Invalid value: "": resource or service backend is required' },
    ]);
    expect(await invalid({ defaultBackend: { resource: { apiGroup: 'Bad_Group', kind: '', name: '..' } } })).toEqual([
      expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec.defaultBackend.resource.apiGroup' }),
      { reason: 'FieldValueRequired', field: 'spec.defaultBackend.resource.kind', message: 'Required value' },
      { reason: 'FieldValueInvalid', field: 'spec.defaultBackend.resource.name', message: `Invalid value: "..": may not be '..'` },
    ]);
  });

  it('checks service backends: a DNS-1035 name and a port name or number, not both', async () => {
    expect(await invalid({ defaultBackend: { service: { name: '', port: { number: 80 } } } })).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.defaultBackend.service.name', message: 'Required value' },
    ]);
    const badName = await invalid({ defaultBackend: backend('1web') });
    expect(badName).toEqual([expect.objectContaining({ field: 'spec.defaultBackend.service.name', message: expect.stringContaining('a DNS-1035 label must consist') })]);
    expect(await invalid({ defaultBackend: backend('web', { name: 'http', number: 80 }) })).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.defaultBackend', message: 'Invalid value: "": cannot set both port name & port number' },
    ]);
    expect(await invalid({ defaultBackend: backend('web', {}) })).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.defaultBackend', message: 'Required value: port name or number is required' },
    ]);
    expect(await invalid({ defaultBackend: backend('web', { number: 65536 }) })).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.defaultBackend.service.port.number', message: 'Invalid value: 65536: must be between 1 and 65535, inclusive' },
    ]);
    expect(await invalid({ defaultBackend: backend('web', { name: 'Http--port-name-too-long' }) })).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.defaultBackend.service.port.name', message: 'Invalid value: "Http--port-name-too-long": must be no more than 15 characters' },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.defaultBackend.service.port.name',
        message: 'Invalid value: "Http--port-name-too-long": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      },
      { reason: 'FieldValueInvalid', field: 'spec.defaultBackend.service.port.name', message: 'Invalid value: "Http--port-name-too-long": must not contain consecutive hyphens' },
    ]);
    expect(await invalid({ defaultBackend: backend('web', { name: '80' }) })).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.defaultBackend.service.port.name', message: 'Invalid value: "80": must contain at least one letter (a-z)' },
    ]);
  });

  it('checks ingressClassName, and on create its agreement with the legacy annotation', async () => {
    expect(await invalid({ ingressClassName: 'Bad_Class', defaultBackend: backend() })).toEqual([
      expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec.ingressClassName' }),
    ]);
    const disagree = await create({ ingressClassName: 'a', defaultBackend: backend() }, { annotations: { 'orch.io/ingress.class': 'b' } });
    expect(expectStatus(disagree, 422, 'Invalid').details.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'annotations.orch.io/ingress.class', message: 'Invalid value: "b": must match `ingressClassName` when both are specified' },
    ]);
    const agree = await s.post(ING, { metadata: { name: 'agree', annotations: { 'orch.io/ingress.class': 'a' } }, spec: { ingressClassName: 'a', defaultBackend: backend() } });
    expect(agree.status, agree.text).toBe(201);
    // An update may leave them disagreeing: the rule is Kubernetes' create-time check.
    const upd = await s.patch(`${ING}/agree`, { metadata: { annotations: { 'orch.io/ingress.class': 'b' } } }, MERGE);
    expect(upd.status, upd.text).toBe(200);
  });

  it('keeps status out of the main endpoint and spec out of /status; generation follows the spec', async () => {
    const created = await s.post(ING, { metadata: { name: 'st' }, spec: { defaultBackend: backend() }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } });
    expect(created.status).toBe(201);
    expect(created.body.status).toEqual({ loadBalancer: {} });
    const lb = { ingress: [{ ip: '10.0.0.1', ports: [{ port: 80, protocol: 'TCP' }] }, { hostname: 'lb.example.com' }] };
    const st = await s.patch(`${ING}/st/status`, { spec: { defaultBackend: backend('other') }, status: { loadBalancer: lb } }, MERGE);
    expect(st.status, st.text).toBe(200);
    expect(st.body.status.loadBalancer).toEqual(lb);
    expect(st.body.spec.defaultBackend.service.name).toBe('web');
    expect(st.body.metadata.generation).toBe(1);
    const main = await s.patch(`${ING}/st`, { spec: { defaultBackend: backend('other') }, status: { loadBalancer: null } }, MERGE);
    expect(main.body.status.loadBalancer).toEqual(lb);
    expect(main.body.metadata.generation).toBe(2);
  });

  it('validates the load balancer status: IPs and DNS hostnames that are not IPs', async () => {
    expect((await s.post(ING, { metadata: { name: 'lb' }, spec: { defaultBackend: backend() } })).status).toBe(201);
    const r = await s.patch(`${ING}/lb/status`, { status: { loadBalancer: { ingress: [{ ip: 'nope' }, { hostname: '1.2.3.4' }, { hostname: 'Bad_Name' }] } } }, MERGE);
    const causes = expectStatus(r, 422, 'Invalid').details.causes;
    expect(causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'status.loadBalancer.ingress[0].ip', message: 'Invalid value: "nope": must be a valid IP address' },
      { reason: 'FieldValueInvalid', field: 'status.loadBalancer.ingress[1].hostname', message: 'Invalid value: "1.2.3.4": must be a DNS name, not an IP address' },
      { reason: 'FieldValueInvalid', field: 'status.loadBalancer.ingress[2].hostname', message: expect.stringContaining('"Bad_Name": a lowercase RFC 1123 subdomain') },
    ]);
  });
});
