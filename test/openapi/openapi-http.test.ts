/**
 * /openapi/v2 and /openapi/v3 over HTTP: the index and its hashes, the per-group-version documents,
 * negotiation, ETags and 304s, cache headers and the redirect of a stale hash, under both API domains.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameValidators } from '../../src/machinery/name-validation.js';
import { defineResource, type ResourceFactory } from '../../src/index.js';
import { objectHeader, t, type ObjectOf } from '../../src/schema/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const WidgetSchema = t.struct('stable.v1.Widget', {
  ...objectHeader,
  spec: t.field(2, t.struct('stable.v1.WidgetSpec', { size: t.field(1, t.quantity()), port: t.field(2, t.intOrString()) })),
});
const widgets: ResourceFactory = defineResource<ObjectOf<typeof WidgetSchema>>(() => ({
  group: 'stable.example.com',
  version: 'v1',
  kind: 'Widget',
  resource: 'widgets',
  singular: 'widget',
  namespaced: true,
  schema: WidgetSchema,
  strategy: { nameValidator: nameValidators.dnsSubdomain },
}));

const sha512 = (text: string): string => createHash('sha512').update(text).digest('hex').toUpperCase();

/** Every `$ref` of a document, to check that each names a definition the document holds. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe.each([
  { apiDomain: 'orch.io', ext: 'x-orch-', other: 'x-kubernetes-', ns: 'io.orch' },
  { apiDomain: 'k8s.io', ext: 'x-kubernetes-', other: 'x-orch-', ns: 'io.k8s' },
])('OpenAPI under $apiDomain', ({ apiDomain, ext, other, ns }) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain, resources: [widgets] });
  });
  afterAll(() => s.close());

  it('lists /openapi/v2 and /openapi/v3 among the root paths', async () => {
    const r = await s.get('/');
    expect(r.body.paths).toEqual(expect.arrayContaining(['/openapi/v2', '/openapi/v3']));
  });

  it('indexes one document per group-version, each URL carrying the hash of its content', async () => {
    const idx = await s.get('/openapi/v3');
    expect(idx.status).toBe(200);
    expect(idx.headers['content-type']).toBe('application/json');
    expect(idx.headers['cache-control']).toBe('no-cache, private');
    // One document per served group-version: the core one and every one /apis lists (built-in kinds and the test kind).
    const groups = (await s.get('/apis')).body.groups as { versions: { groupVersion: string }[] }[];
    const served = ['api/v1', ...groups.flatMap((g) => g.versions.map((v) => `apis/${v.groupVersion}`))];
    expect(served).toContain('apis/stable.example.com/v1');
    expect(Object.keys(idx.body.paths).sort()).toEqual(served.sort());
    for (const [key, entry] of Object.entries<{ serverRelativeURL: string }>(idx.body.paths)) {
      const url = new URL(entry.serverRelativeURL, s.url);
      expect(url.pathname).toBe(`/openapi/v3/${key}`);
      const doc = await s.get(entry.serverRelativeURL);
      expect(doc.status).toBe(200);
      expect(url.searchParams.get('hash')).toBe(sha512(doc.text));
      expect(doc.headers.etag).toBe(`"${sha512(doc.text)}"`);
    }
  });

  it('serves a group-version as OpenAPI 3.0 with its kinds, referenced types, extensions and operations', async () => {
    const r = await s.get('/openapi/v3/api/v1');
    expect(r.status).toBe(200);
    const doc = r.body;
    expect(doc.openapi).toBe('3.0.0');
    const schemas = doc.components.schemas;
    const cm = schemas[`${ns}.api.core.v1.ConfigMap`];
    expect(cm[`${ext}group-version-kind`]).toEqual([{ group: '', kind: 'ConfigMap', version: 'v1' }]);
    expect(cm.properties.data).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
    expect(cm.properties.binaryData.additionalProperties).toEqual({ type: 'string', format: 'byte' });
    expect(cm.properties.metadata.allOf).toEqual([{ $ref: `#/components/schemas/${ns}.apimachinery.pkg.apis.meta.v1.ObjectMeta` }]);
    expect(schemas[`${ns}.api.core.v1.ConfigMapList`][`${ext}group-version-kind`]).toEqual([{ group: '', kind: 'ConfigMapList', version: 'v1' }]);
    const meta = schemas[`${ns}.apimachinery.pkg.apis.meta.v1.ObjectMeta`];
    expect(meta.properties.finalizers).toMatchObject({ [`${ext}list-type`]: 'set', [`${ext}patch-strategy`]: 'merge' });
    expect(meta.properties.ownerReferences).toMatchObject({ [`${ext}list-type`]: 'map', [`${ext}list-map-keys`]: ['uid'], [`${ext}patch-merge-key`]: 'uid' });
    expect(schemas[`${ns}.apimachinery.pkg.apis.meta.v1.OwnerReference`][`${ext}map-type`]).toBe('atomic');
    expect(schemas[`${ns}.apimachinery.pkg.apis.meta.v1.Time`]).toMatchObject({ type: 'string', format: 'date-time' });
    expect(schemas[`${ns}.api.stable.v1.Widget`]).toBeUndefined();

    const patch = doc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].patch;
    expect(patch[`${ext}action`]).toBe('patch');
    expect(patch[`${ext}group-version-kind`]).toEqual({ group: '', kind: 'ConfigMap', version: 'v1' });
    expect(patch.parameters.map((p: any) => p.name)).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(Object.keys(patch.requestBody.content)).toContain('application/merge-patch+json');
    const list = doc.paths['/api/v1/namespaces/{namespace}/configmaps'].get;
    expect(list.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['labelSelector', 'limit', 'continue', 'resourceVersion', 'resourceVersionMatch', 'watch', 'allowWatchBookmarks', 'timeoutSeconds']));
    expect(list.responses['200'].content['application/json'].schema.$ref).toBe(`#/components/schemas/${ns}.api.core.v1.ConfigMapList`);
    const del = doc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].delete;
    expect(del.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['gracePeriodSeconds', 'propagationPolicy', 'dryRun']));
    expect(doc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].parameters.map((p: any) => p.name)).toEqual(['name', 'namespace', 'pretty']);
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/v1/'))).toBe(true);

    const text = r.text;
    expect(text).not.toContain(other);
    for (const ref of refs(doc)) expect(schemas[ref.replace('#/components/schemas/', '')], ref).toBeDefined();
  });

  it('serves the other group-versions under /apis with their own named types', async () => {
    const doc = (await s.get('/openapi/v3/apis/stable.example.com/v1')).body;
    const schemas = doc.components.schemas;
    expect(schemas[`${ns}.api.stable.v1.Widget`][`${ext}group-version-kind`]).toEqual([{ group: 'stable.example.com', kind: 'Widget', version: 'v1' }]);
    expect(schemas[`${ns}.apimachinery.pkg.util.intstr.IntOrString`]).toMatchObject({ format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(schemas[`${ns}.apimachinery.pkg.api.resource.Quantity`]).toMatchObject({ oneOf: [{ type: 'string' }, { type: 'number' }] });
    expect(doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/widgets'].post.operationId).toBe('createStableExampleComV1NamespacedWidget');
    expect(schemas[`${ns}.api.core.v1.ConfigMap`]).toBeUndefined();
  });

  it('names types as Kubernetes 1.25 does: an Ingress reports its load balancer with the core/v1 type', async () => {
    const schemas = (await s.get('/openapi/v3/apis/networking.' + apiDomain + '/v1')).body.components.schemas;
    expect(JSON.stringify(schemas[`${ns}.api.networking.v1.IngressStatus`].properties.loadBalancer)).toContain(`${ns}.api.core.v1.LoadBalancerStatus`);
    expect(schemas[`${ns}.api.core.v1.LoadBalancerStatus`]).toBeDefined();
    expect(schemas[`${ns}.api.networking.v1.IngressLoadBalancerStatus`]).toBeUndefined();
  });

  it('marks a document fetched with its current hash immutable, and redirects a stale hash', async () => {
    const idx = (await s.get('/openapi/v3')).body;
    const url: string = idx.paths['api/v1'].serverRelativeURL;
    const hashed = await s.get(url);
    expect(hashed.headers['cache-control']).toBe('public, immutable');
    expect(hashed.headers.vary).toBe('Accept');
    expect(Date.parse(String(hashed.headers.expires))).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
    const plain = await s.get('/openapi/v3/api/v1');
    expect(plain.headers['cache-control']).toBe('no-cache, private');
    expect(plain.headers.expires).toBeUndefined();
    expect(plain.text).toBe(hashed.text);
    const stale = await s.get('/openapi/v3/api/v1?hash=0123');
    expect(stale.status).toBe(301);
    expect(stale.headers.location).toBe(url);
  });

  it('answers If-None-Match with 304 for the current ETag only', async () => {
    for (const path of ['/openapi/v3', '/openapi/v3/api/v1', '/openapi/v2']) {
      const first = await s.get(path);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
      const again = await s.get(path, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect((await s.get(path, { 'if-none-match': `W/${etag}` })).status).toBe(304);
      expect((await s.get(path, { 'if-none-match': `"other", ${etag}` })).status).toBe(304);
      expect((await s.get(path, { 'if-none-match': '*' })).status).toBe(304);
      const changed = await s.get(path, { 'if-none-match': '"not-it"' });
      expect(changed.status).toBe(200);
      expect(changed.text).toBe(first.text);
    }
  });

  it('answers If-Modified-Since with 304 when the document is no newer, unless If-None-Match is sent', async () => {
    const first = await s.get('/openapi/v2');
    const lastModified = String(first.headers['last-modified']);
    expect((await s.get('/openapi/v2', { 'if-modified-since': lastModified })).status).toBe(304);
    expect((await s.get('/openapi/v2', { 'if-modified-since': new Date(Date.parse(lastModified) - 3600_000).toUTCString() })).status).toBe(200);
    expect((await s.get('/openapi/v2', { 'if-modified-since': lastModified, 'if-none-match': '"not-it"' })).status).toBe(200);
  });

  it('serves /openapi/v2 as Swagger 2.0 JSON holding every group-version', async () => {
    const r = await s.get('/openapi/v2');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers.vary).toBe('Accept');
    expect(r.headers['cache-control']).toBe('no-cache, private');
    expect(r.headers.etag).toBe(`"${sha512(r.text)}"`);
    const doc = r.body;
    expect(doc.swagger).toBe('2.0');
    expect(doc.definitions[`${ns}.api.core.v1.ConfigMap`][`${ext}group-version-kind`]).toEqual([{ group: '', kind: 'ConfigMap', version: 'v1' }]);
    expect(doc.definitions[`${ns}.api.stable.v1.Widget`]).toBeDefined();
    expect(doc.definitions[`${ns}.apimachinery.pkg.util.intstr.IntOrString`]).toMatchObject({ type: 'string', format: 'int-or-string' });
    const patch = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/widgets/{name}'].patch;
    expect(patch.parameters.find((p: any) => p.name === 'fieldValidation')).toMatchObject({ in: 'query', type: 'string' });
    expect(patch.parameters.find((p: any) => p.in === 'body').schema.$ref).toBe(`#/definitions/${ns}.apimachinery.pkg.apis.meta.v1.Patch`);
    expect(r.text).not.toContain(other);
    for (const ref of refs(doc)) expect(doc.definitions[ref.replace('#/definitions/', '')], ref).toBeDefined();
  });

  it('answers 404 for an unknown group-version and 406 for a format it cannot produce', async () => {
    const missing = await s.get('/openapi/v3/apis/nothing.example.com/v1');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: 'Status', reason: 'NotFound' });
    expect((await s.get('/openapi/v4')).status).toBe(404);
    const v3pb = await s.get('/openapi/v3/api/v1', { accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' });
    expect(v3pb.status).toBe(406);
    expect(v3pb.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable' });
    expect((await s.get('/openapi/v2', { accept: 'text/html' })).status).toBe(406);
    expect((await s.get('/openapi/v2', { accept: 'text/html, */*;q=0.1' })).headers['content-type']).toBe('application/json');
    expect((await s.request('POST', '/openapi/v2', { body: {} })).status).toBe(405);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const r = await s.request('HEAD', '/openapi/v3/api/v1');
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    expect(r.headers.etag).toBe((await s.get('/openapi/v3/api/v1')).headers.etag);
  });
});
