/**
 * Over HTTP: on an orch.io server, a request in Kubernetes' names gets a Warning or an error that
 * names the cause and `--api-domain=k8s.io`, and nothing else about the answer changes; on a k8s.io
 * server the same requests are simply served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineResource, t, type ObjectOf } from '../../src/index.js';
import { nameValidators } from '../../src/machinery/name-validation.js';
import { objectHeader } from '../../src/schema/index.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';

const FIX = '--api-domain=k8s.io';
const KUBECTL_AGENT = 'kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07';
const KUBECTL_TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

/** The texts of a reply's Warning headers (`299 - "text"`). */
function warnings(r: Reply): string[] {
  const raw = r.headers.warning;
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : raw.split(/,(?=\s*299 )/);
  return list.map((w) => /^\s*299 - "(.*)"\s*$/.exec(w)?.[1]?.replace(/\\(.)/g, '$1') ?? w);
}

/** A kind someone serves under a k8s.io group on an orch.io server: its path must work undisturbed. */
const ThingSchema = t.struct('io.k8s.things.v1.Thing', { ...objectHeader });
const thingResource = defineResource<ObjectOf<typeof ThingSchema>>(() => ({
  group: 'things.k8s.io',
  version: 'v1',
  kind: 'Thing',
  resource: 'things',
  singular: 'thing',
  namespaced: false,
  schema: ThingSchema,
  strategy: { nameValidator: nameValidators.dnsSubdomain },
}));

describe('an orch.io server explains Kubernetes’ names', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ resources: [thingResource] });
  });
  afterAll(() => s?.close());

  it('refuses a body in application/vnd.kubernetes.protobuf with 415, saying why, and creates nothing', async () => {
    const r = await s.request('POST', '/api/v1/namespaces', {
      body: Buffer.from('k8s\0\n\x02v1\x12\x09Namespace', 'binary'),
      contentType: 'application/vnd.kubernetes.protobuf',
      headers: { accept: 'application/vnd.kubernetes.protobuf,application/json' },
    });
    expect(r.status).toBe(415);
    expect(r.body.reason).toBe('UnsupportedMediaType');
    expect(r.body.message).toMatch(/^the body of the request was in an unknown format - accepted media types include: application\/json, application\/yaml, application\/vnd\.orch\.protobuf; /);
    expect(r.body.message).toContain("application/vnd.kubernetes.protobuf is Kubernetes' name for protobuf (here application/vnd.orch.protobuf)");
    expect(r.body.message).toContain(`this server serves the API domain orch.io, not k8s.io: for kubectl and other Kubernetes clients, start it with ${FIX}`);
    // The reason is in the message; the same words again as warnings would add nothing.
    expect(warnings(r)).toEqual([]);
    const list = await s.get('/api/v1/namespaces');
    expect(list.body.items.map((n: { metadata: { name: string } }) => n.metadata.name).sort()).toEqual(['default', 'orch-node-lease', 'orch-public', 'orch-system']);
  });

  it('answers JSON to an Accept that prefers Kubernetes’ protobuf, with a warning', async () => {
    const r = await s.get('/api/v1/namespaces/default', { accept: 'application/vnd.kubernetes.protobuf, application/json' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body.metadata.name).toBe('default');
    expect(warnings(r)).toEqual([
      `application/vnd.kubernetes.protobuf is Kubernetes' name for protobuf (here application/vnd.orch.protobuf), so the answer is not protobuf; this server serves the API domain orch.io, not k8s.io: for kubectl and other Kubernetes clients, start it with ${FIX}`,
    ]);
  });

  it('refuses an Accept of Kubernetes’ protobuf alone with 406, saying why', async () => {
    const r = await s.get('/api/v1/namespaces/default', { accept: 'application/vnd.kubernetes.protobuf' });
    expect(r.status).toBe(406);
    expect(r.body.reason).toBe('NotAcceptable');
    expect(r.body.message).toMatch(/^only the following media types are accepted: application\/json, application\/yaml, application\/vnd\.orch\.protobuf; the Accept header uses Kubernetes' names: application\/vnd\.kubernetes\.protobuf/);
    expect(r.body.message).toContain(FIX);
  });

  it('answers kubectl’s Table request in meta.k8s.io with the plain list and a warning', async () => {
    const r = await s.get('/api/v1/namespaces', { accept: KUBECTL_TABLE });
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('NamespaceList');
    expect(warnings(r)).toEqual([
      `as=Table;g=meta.k8s.io is Kubernetes' name (here g=meta.orch.io), so the answer is the plain object or list, not a Table; this server serves the API domain orch.io, not k8s.io: for kubectl and other Kubernetes clients, start it with ${FIX}`,
    ]);
  });

  it('warns on a watch asked for as a meta.k8s.io Table, too', async () => {
    const w = await s.watch('/api/v1/namespaces?watch=true', { accept: KUBECTL_TABLE });
    try {
      expect(w.status).toBe(200);
      expect(warnings({ status: w.status, headers: w.headers, text: '', body: undefined })[0]).toContain(FIX);
    } finally {
      w.close();
    }
  });

  it('refuses a Table in meta.k8s.io without a fallback with 406, saying why', async () => {
    const r = await s.get('/api/v1/namespaces', { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(r.status).toBe(406);
    expect(r.body.message).toContain("the Accept header uses Kubernetes' names: as=Table;g=meta.k8s.io is Kubernetes' name (here g=meta.orch.io)");
    expect(r.body.message).toContain(FIX);
  });

  it('serves the unaggregated discovery to an Accept that prefers apidiscovery.k8s.io, without a warning', async () => {
    const r = await s.get('/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' });
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('APIGroupList');
    expect(warnings(r)).toEqual([]);
  });

  it.each([
    ['a resource', '/apis/rbac.authorization.k8s.io/v1/clusterroles', 'rbac.authorization'],
    ['a named namespaced resource', '/apis/apps.k8s.io/v1/namespaces/default/deployments/web', 'apps'],
    ['a group', '/apis/networking.k8s.io', 'networking'],
    ['a group version', '/apis/networking.k8s.io/v1', 'networking'],
    ['an OpenAPI document', '/openapi/v3/apis/rbac.authorization.k8s.io/v1', 'rbac.authorization'],
  ])('answers 404 for %s under a k8s.io group, naming the group served instead', async (_what, path, base) => {
    const r = await s.get(path);
    expect(r.status).toBe(404);
    expect(r.body.reason).toBe('NotFound');
    expect(r.body.message).toBe(
      `the server could not find the requested resource; ${base}.k8s.io is Kubernetes' name of the group served here as ${base}.orch.io; this server serves the API domain orch.io, not k8s.io: for kubectl and other Kubernetes clients, start it with ${FIX}`,
    );
  });

  it('serves a kind someone defined under a k8s.io group as usual', async () => {
    const created = await s.post('/apis/things.k8s.io/v1/things', { apiVersion: 'things.k8s.io/v1', kind: 'Thing', metadata: { name: 'one' } });
    expect(created.status).toBe(201);
    const got = await s.get('/apis/things.k8s.io/v1/things/one');
    expect(got.status).toBe(200);
    expect(warnings(got)).toEqual([]);
    const missing = await s.get('/apis/things.k8s.io/v1/things/two');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('things.things.k8s.io "two" not found');
  });

  it('warns kubectl (a client-go User-Agent) reading the OpenAPI documents, which it cannot use here', async () => {
    for (const path of ['/openapi/v2', '/openapi/v3/api/v1', '/openapi/v3/apis/apps/v1']) {
      const r = await s.get(path, { 'user-agent': KUBECTL_AGENT, accept: 'application/json' });
      expect(r.status, path).toBe(200);
      expect(warnings(r), path).toEqual([
        `kubectl finds a kind in OpenAPI by x-kubernetes-group-version-kind, which this server writes as x-orch-group-version-kind, so kubectl explain and client-side validation find no kinds here; this server serves the API domain orch.io, not k8s.io: for kubectl and other Kubernetes clients, start it with ${FIX}`,
      ]);
    }
    const index = await s.get('/openapi/v3', { 'user-agent': KUBECTL_AGENT });
    expect(warnings(index)).toEqual([]);
    const other = await s.get('/openapi/v3/api/v1', { 'user-agent': 'curl/8.5.0' });
    expect(warnings(other)).toEqual([]);
  });

  it('says nothing to requests in its own names', async () => {
    const replies = [
      await s.get('/api/v1/namespaces', { accept: 'application/json;as=Table;v=v1;g=meta.orch.io,application/json', 'user-agent': KUBECTL_AGENT }),
      await s.get('/api/v1/namespaces/default', { accept: 'application/vnd.orch.protobuf' }),
      await s.get('/apis/rbac.authorization.orch.io/v1/clusterroles'),
      await s.get('/apis/rbac.authorization.orch.io/v1/clusterroles/missing'),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 404]);
    expect(replies.flatMap(warnings)).toEqual([]);
    expect(replies[3]?.body.message).toBe('clusterroles.rbac.authorization.orch.io "missing" not found');
  });
});

describe('a k8s.io server serves Kubernetes’ names without a word', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
  });
  afterAll(() => s?.close());

  it('Table, protobuf, k8s.io groups and OpenAPI for kubectl', async () => {
    const table = await s.get('/api/v1/namespaces', { accept: KUBECTL_TABLE });
    expect(table.body.kind).toBe('Table');
    const proto = await s.get('/api/v1/namespaces/default', { accept: 'application/vnd.kubernetes.protobuf' });
    expect(proto.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    const roles = await s.get('/apis/rbac.authorization.k8s.io/v1/clusterroles');
    expect(roles.status).toBe(200);
    const missing = await s.get('/apis/rbac.authorization.orch.io/v1/clusterroles');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('the server could not find the requested resource');
    const openapi = await s.get('/openapi/v3/api/v1', { 'user-agent': KUBECTL_AGENT });
    expect([table, proto, roles, missing, openapi].flatMap(warnings)).toEqual([]);
  });
});
