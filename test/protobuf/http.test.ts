/**
 * Protobuf over HTTP on a real listener: request bodies for create and update, answers for every
 * verb (Status included), protobuf in with JSON out and the reverse, watch streams in frames,
 * and the refusals: 406 and 415 naming what is supported, kinds without a protobuf form, bodies
 * that are not protobuf. Answers are read with protobufjs from the hand-typed Kubernetes .proto
 * files, not with the server's codec.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigMapSchema } from '../../src/apis/core/v1/configmap.js';
import { decodeProtobufObject, encodeProtobufObject } from '../../src/schema/protobuf/index.js';
import { defineResource } from '../../src/registry/define-resource.js';
import { nameValidators } from '../../src/machinery/name-validation.js';
import { decodeObject, objectHeader, t, type KubeObject, type StructSchema } from '../../src/schema/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call, watchFrames, type BinaryReply } from './binary-client.js';
import { decodeKube, decodeKubeEnvelope, encodeKube, encodeKubeEnvelope, typeOf } from './kube-proto.js';

const PB = 'application/vnd.orch.protobuf';
const CORE = 'k8s.io.api.core.v1';
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const CMS = '/api/v1/namespaces/default/configmaps';

/** A kind like a custom resource: its spec keeps whatever it is sent, so it has no protobuf form. */
const FreeformSchema = t.struct('com.example.v1.Freeform', {
  ...objectHeader,
  spec: t.field(2, t.struct('com.example.v1.FreeformSpec', {}, { preserveUnknownFields: true })),
});
const freeformResource = defineResource(() => ({
  group: 'example.com',
  version: 'v1',
  kind: 'Freeform',
  resource: 'freeforms',
  singular: 'freeform',
  namespaced: true,
  schema: FreeformSchema,
  strategy: { nameValidator: nameValidators.dnsSubdomain },
}));
const FREEFORMS = '/apis/example.com/v1/namespaces/default/freeforms';

/** A kind with a /scale view answering another kind, as Deployment answers autoscaling/v1 Scale. */
const ScaleSchema = t.struct('com.example.v1.Scale', {
  ...objectHeader,
  spec: t.field(2, t.struct('com.example.v1.ScaleSpec', { replicas: t.field(1, t.int32()) })),
  status: t.field(3, t.struct('com.example.v1.ScaleStatus', { replicas: t.field(1, t.int32(), { always: true }) })),
});
const SprocketSchema = t.struct('com.example.v1.Sprocket', {
  ...objectHeader,
  spec: t.field(2, t.struct('com.example.v1.SprocketSpec', { replicas: t.field(1, t.int32(), { pointer: true }) })),
});
const sprocketResource = defineResource(() => ({
  group: 'example.com',
  version: 'v1',
  kind: 'Sprocket',
  resource: 'sprockets',
  singular: 'sprocket',
  namespaced: true,
  schema: SprocketSchema,
  strategy: { nameValidator: nameValidators.dnsSubdomain },
  subresources: {
    scale: {
      kind: 'view' as const,
      verbs: ['get', 'update', 'patch'] as const,
      view: { group: 'example.com', version: 'v1', kind: 'Scale' },
      schema: ScaleSchema,
      toView: (p: Obj) => ({ apiVersion: 'example.com/v1', kind: 'Scale', metadata: { name: p.metadata.name, namespace: p.metadata.namespace, resourceVersion: p.metadata.resourceVersion }, spec: { replicas: p.spec.replicas ?? 1 }, status: { replicas: p.spec.replicas ?? 1 } }),
      fromView: (v: Obj, p: KubeObject) => ({ ...p, spec: { ...(p.spec as Obj), replicas: v.spec.replicas ?? 0 } }),
    },
  },
}));
const SPROCKETS = '/apis/example.com/v1/namespaces/default/sprockets';

type Obj = Record<string, any>;
const canonical = (schema: StructSchema, v: unknown): Obj => decodeObject<Obj>(schema, v).value;

/** An answer in protobuf: its envelope's type and the message read by protobufjs as `type`. */
function readProtobuf(r: BinaryReply, type: string): { typeMeta: Obj; object: Obj } {
  expect(r.headers['content-type']).toBe(PB);
  const env = decodeKubeEnvelope(r.raw);
  return { typeMeta: env.typeMeta, object: decodeKube(type, env.raw) };
}

/** A ConfigMap as a protobuf request body, written by protobufjs. */
function configMapBody(json: Obj): Buffer {
  return encodeKubeEnvelope('v1', 'ConfigMap', encodeKube(`${CORE}.ConfigMap`, json));
}

describe('protobuf over HTTP (orch.io)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ resources: [freeformResource, sprocketResource] });
  });
  afterAll(() => s.close());

  it('creates from a protobuf body and answers JSON', async () => {
    const r = await call(s.url, 'POST', CMS, { body: configMapBody({ metadata: { name: 'pb-in', labels: { a: 'b' } }, data: { k: 'v' }, binaryData: { b: 'AAE=' } }), contentType: PB });
    expect(r.status, r.raw.toString()).toBe(201);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'pb-in', labels: { a: 'b' } }, data: { k: 'v' }, binaryData: { b: 'AAE=' } });
    expect(r.json.metadata.uid).toBeTruthy();
  });

  it('answers a JSON create in protobuf, which reads back as the stored JSON', async () => {
    const r = await call(s.url, 'POST', CMS, { body: JSON.stringify({ metadata: { name: 'json-in' }, data: { a: '1' }, immutable: false }), accept: PB });
    expect(r.status).toBe(201);
    const { typeMeta, object } = readProtobuf(r, `${CORE}.ConfigMap`);
    expect(typeMeta).toEqual({ apiVersion: 'v1', kind: 'ConfigMap' });
    const stored = (await call(s.url, 'GET', `${CMS}/json-in`)).json;
    const { kind: _k, apiVersion: _a, ...body } = stored;
    expect(canonical(ConfigMapSchema, object)).toEqual(body);
    expect(object.immutable).toBe(false);
  });

  it('gets, lists, updates and patches in protobuf', async () => {
    const get = await call(s.url, 'GET', `${CMS}/json-in`, { accept: PB });
    expect(get.status).toBe(200);
    const cm = readProtobuf(get, `${CORE}.ConfigMap`).object;
    expect(cm.data).toEqual({ a: '1' });

    const list = await call(s.url, 'GET', CMS, { accept: `${PB}, application/json` });
    expect(list.status).toBe(200);
    const l = readProtobuf(list, `${CORE}.ConfigMapList`);
    expect(l.typeMeta).toEqual({ apiVersion: 'v1', kind: 'ConfigMapList' });
    expect(l.object.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(l.object.items.map((i: Obj) => i.metadata.name).sort()).toEqual(['json-in', 'pb-in']);

    const put = await call(s.url, 'PUT', `${CMS}/json-in`, { body: configMapBody({ ...cm, data: { a: '2' } }), contentType: PB, accept: PB });
    expect(put.status, put.raw.toString()).toBe(200);
    expect(readProtobuf(put, `${CORE}.ConfigMap`).object.data).toEqual({ a: '2' });

    // Patch bodies stay JSON (as in Kubernetes); the answer may be protobuf.
    const patch = await call(s.url, 'PATCH', `${CMS}/json-in`, { body: JSON.stringify({ data: { b: '3' } }), contentType: 'application/merge-patch+json', accept: PB });
    expect(patch.status).toBe(200);
    expect(readProtobuf(patch, `${CORE}.ConfigMap`).object.data).toEqual({ a: '2', b: '3' });
    const badPatch = await call(s.url, 'PATCH', `${CMS}/json-in`, { body: configMapBody({ data: { c: '4' } }), contentType: PB });
    expect(badPatch.status).toBe(415);
  });

  it('deletes with protobuf DeleteOptions and answers a protobuf Status, errors too', async () => {
    const uid = (await call(s.url, 'GET', `${CMS}/pb-in`)).json.metadata.uid as string;
    const options = (o: Obj): Buffer => encodeKubeEnvelope('meta.orch.io/v1', 'DeleteOptions', encodeKube(`${META}.DeleteOptions`, o));
    const conflict = await call(s.url, 'DELETE', `${CMS}/pb-in`, { body: options({ preconditions: { uid: 'not-it' } }), contentType: PB, accept: PB });
    expect(conflict.status).toBe(409);
    const failure = readProtobuf(conflict, `${META}.Status`);
    expect(failure.typeMeta).toEqual({ apiVersion: 'v1', kind: 'Status' });
    expect(failure.object).toMatchObject({ status: 'Failure', reason: 'Conflict', code: 409 });

    const ok = await call(s.url, 'DELETE', `${CMS}/pb-in`, { body: options({ preconditions: { uid } }), contentType: PB, accept: PB });
    expect(ok.status).toBe(200);
    expect(readProtobuf(ok, `${META}.Status`).object).toMatchObject({ status: 'Success', details: { name: 'pb-in', kind: 'configmaps', uid } });

    const missing = await call(s.url, 'GET', `${CMS}/pb-in`, { accept: PB });
    expect(missing.status).toBe(404);
    expect(readProtobuf(missing, `${META}.Status`).object).toMatchObject({ reason: 'NotFound', code: 404 });
  });

  it('answers 406 naming the supported types, and 415 for bodies in other formats', async () => {
    const r = await call(s.url, 'GET', CMS, { accept: 'application/xml' });
    expect(r.status).toBe(406);
    expect(r.json.message).toBe(`only the following media types are accepted: application/json, application/yaml, ${PB}`);
    const k8s = await call(s.url, 'GET', CMS, { accept: 'application/vnd.kubernetes.protobuf' });
    expect(k8s.status).toBe(406);
    const body = await call(s.url, 'POST', CMS, { body: configMapBody({ metadata: { name: 'x' } }), contentType: 'application/vnd.kubernetes.protobuf' });
    expect(body.status).toBe(415);
    // Kubernetes' own protobuf name is explained (test/server/domain-hints.test.ts has the details).
    expect(body.json.message).toMatch(new RegExp(`^the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${PB.replace(/[./+]/g, '\\$&')}; application/vnd.kubernetes.protobuf is Kubernetes' name`));
    const xml = await call(s.url, 'POST', CMS, { body: '<x/>', contentType: 'application/xml' });
    expect(xml.json.message).toBe(`the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${PB}`);
  });

  it.each([
    ['JSON sent as protobuf', Buffer.from('{"metadata":{"name":"x"}}'), /does not appear to be a protobuf message/],
    ['a truncated message', configMapBody({ metadata: { name: 'cut' }, data: { a: 'b' } }).subarray(0, 20), /not a valid protobuf/],
    ['another kind', encodeKubeEnvelope('v1', 'Secret', encodeKube(`${CORE}.Secret`, { metadata: { name: 'x' } })), /the kind in the data \(Secret\) does not match/],
    ['another version', encodeKubeEnvelope('v2', 'ConfigMap', encodeKube(`${CORE}.ConfigMap`, { metadata: { name: 'x' } })), /does not match the expected API version/],
  ])('refuses %s with 400 and changes nothing', async (_what, bytes, message) => {
    const r = await call(s.url, 'POST', CMS, { body: bytes, contentType: PB });
    expect(r.status, r.raw.toString()).toBe(400);
    expect(r.json.message).toMatch(message);
    expect((await call(s.url, 'GET', `${CMS}/cut`)).status).toBe(404);
  });

  it('takes a body without typeMeta as the endpoint kind, as Kubernetes does', async () => {
    const r = await call(s.url, 'POST', CMS, { body: encodeKubeEnvelope('', '', encodeKube(`${CORE}.ConfigMap`, { metadata: { name: 'no-typemeta' } })), contentType: PB });
    expect(r.status, r.raw.toString()).toBe(201);
    expect(r.json).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
  });

  it('refuses protobuf for a kind without a protobuf form, in JSON, and serves it JSON when asked for both', async () => {
    const create = await call(s.url, 'POST', FREEFORMS, { body: JSON.stringify({ metadata: { name: 'f' }, spec: { anything: [1] } }) });
    expect(create.status).toBe(201);
    const only = await call(s.url, 'GET', `${FREEFORMS}/f`, { accept: PB });
    expect(only.status).toBe(406);
    expect(only.headers['content-type']).toBe('application/json');
    expect(only.json.message).toBe('only the following media types are accepted: application/json, application/yaml');
    const both = await call(s.url, 'GET', `${FREEFORMS}/f`, { accept: `${PB}, application/json` });
    expect(both.status).toBe(200);
    expect(both.headers['content-type']).toBe('application/json');
    const missing = await call(s.url, 'GET', `${FREEFORMS}/none`, { accept: `${PB}, application/json` });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('application/json');
    const body = await call(s.url, 'POST', FREEFORMS, { body: encodeProtobufObject(ConfigMapSchema, { metadata: { name: 'g' } }), contentType: PB });
    expect(body.status).toBe(415);
    expect(body.json.message).toBe('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
    const watch = await call(s.url, 'GET', `${FREEFORMS}?watch=true&timeoutSeconds=1`, { accept: PB });
    expect(watch.status).toBe(406);
  });

  it('reads and writes a view subresource (/scale) in protobuf as its own kind', async () => {
    expect((await call(s.url, 'POST', SPROCKETS, { body: JSON.stringify({ metadata: { name: 'sp' }, spec: { replicas: 2 } }) })).status).toBe(201);
    const get = await call(s.url, 'GET', `${SPROCKETS}/sp/scale`, { accept: PB });
    expect(get.status).toBe(200);
    const env = decodeKubeEnvelope(get.raw);
    expect(env.typeMeta).toEqual({ apiVersion: 'example.com/v1', kind: 'Scale' });
    const scale = decodeProtobufObject(ScaleSchema, get.raw);
    expect(scale).toMatchObject({ spec: { replicas: 2 }, status: { replicas: 2 } });
    const put = await call(s.url, 'PUT', `${SPROCKETS}/sp/scale`, { body: encodeProtobufObject(ScaleSchema, { ...scale, spec: { replicas: 0 } }), contentType: PB, accept: PB });
    expect(put.status, put.raw.toString()).toBe(200);
    expect(decodeProtobufObject(ScaleSchema, put.raw)).toMatchObject({ spec: { replicas: 0 } });
    expect((await call(s.url, 'GET', `${SPROCKETS}/sp`)).json.spec).toEqual({ replicas: 0 });
  });

  it('streams a watch in length-prefixed protobuf frames', async () => {
    const w = await watchFrames(s.url, `${CMS}?watch=true&resourceVersion=0&fieldSelector=metadata.name%3Dwatched`, `${PB};stream=watch`);
    try {
      expect(w.status).toBe(200);
      expect(w.headers['content-type']).toBe(`${PB};stream=watch`);
      await call(s.url, 'POST', CMS, { body: configMapBody({ metadata: { name: 'watched' }, data: { n: '1' } }), contentType: PB });
      await call(s.url, 'PATCH', `${CMS}/watched`, { body: JSON.stringify({ data: { n: '2' } }), contentType: 'application/merge-patch+json' });
      await call(s.url, 'DELETE', `${CMS}/watched`);
      const events = (await w.next(3)).map((f) => {
        const type = typeOf(`${META}.WatchEvent`);
        const ev = type.toObject(type.decode(f), { defaults: false }) as Obj;
        const env = decodeKubeEnvelope(ev.object.raw);
        expect(env.typeMeta).toEqual({ apiVersion: 'v1', kind: 'ConfigMap' });
        return [ev.type, decodeKube(`${CORE}.ConfigMap`, env.raw).data];
      });
      expect(events).toEqual([
        ['ADDED', { n: '1' }],
        ['MODIFIED', { n: '2' }],
        ['DELETED', { n: '2' }],
      ]);
    } finally {
      w.close();
    }
  });

  it('keeps JSON watches as they were', async () => {
    const r = await s.watch(`${CMS}?watch=true&resourceVersion=0`);
    try {
      expect(r.headers['content-type']).toBe('application/json');
      const [ev] = await r.next(1);
      expect(ev?.object.kind).toBe('ConfigMap');
    } finally {
      r.close();
    }
  });
});

describe('protobuf over HTTP (k8s.io)', () => {
  const KPB = 'application/vnd.kubernetes.protobuf';
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
  });
  afterAll(() => s.close());

  it('speaks application/vnd.kubernetes.protobuf and not the orch.io type', async () => {
    const create = await call(s.url, 'POST', '/api/v1/namespaces', { body: encodeKubeEnvelope('v1', 'Namespace', encodeKube(`${CORE}.Namespace`, { metadata: { name: 'pb-ns' } })), contentType: KPB, accept: `${KPB}, application/json` });
    expect(create.status, create.raw.toString()).toBe(201);
    expect(create.headers['content-type']).toBe(KPB);
    const ns = decodeKube(`${CORE}.Namespace`, decodeKubeEnvelope(create.raw).raw);
    expect(ns).toMatchObject({ metadata: { name: 'pb-ns' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    const other = await call(s.url, 'GET', '/api/v1/namespaces', { accept: PB });
    expect(other.status).toBe(406);
    expect(other.json.message).toBe(`only the following media types are accepted: application/json, application/yaml, ${KPB}`);
  });

  it('serves a client-go style watch: Accept protobuf then JSON, frames back', async () => {
    const w = await watchFrames(s.url, '/api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=true', `${KPB}, application/json`);
    try {
      expect(w.headers['content-type']).toBe(`${KPB};stream=watch`);
      const created = await call(s.url, 'POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name: 'cg' }, data: { x: 'y' } }) });
      expect(created.status).toBe(201);
      const [f] = await w.next(1);
      const type = typeOf(`${META}.WatchEvent`);
      const ev = type.toObject(type.decode(f!), { defaults: false }) as Obj;
      expect(ev.type).toBe('ADDED');
      const cm = decodeKube(`${CORE}.ConfigMap`, decodeKubeEnvelope(ev.object.raw).raw);
      expect(cm.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
      expect(cm.data).toEqual({ x: 'y' });
    } finally {
      w.close();
    }
  });

  it('sends initial events and the bookmark that ends them in protobuf', async () => {
    const path = '/api/v1/namespaces/default/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';
    const w = await watchFrames(s.url, path, `${KPB}, application/json`);
    try {
      const type = typeOf(`${META}.WatchEvent`);
      const events = (await w.next(2)).map((f) => {
        const ev = type.toObject(type.decode(f), { defaults: false }) as Obj;
        const env = decodeKubeEnvelope(ev.object.raw);
        expect(env.typeMeta).toEqual({ apiVersion: 'v1', kind: 'ConfigMap' });
        return { type: ev.type as string, cm: decodeKube(`${CORE}.ConfigMap`, env.raw) };
      });
      expect(events[0]).toMatchObject({ type: 'ADDED', cm: { metadata: { name: 'cg' } } });
      expect(events[1]!.type).toBe('BOOKMARK');
      expect(events[1]!.cm.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
      expect(events[1]!.cm.metadata.resourceVersion).toMatch(/^\d+$/);
    } finally {
      w.close();
    }
  });
});
