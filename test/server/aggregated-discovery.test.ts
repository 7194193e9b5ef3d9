/**
 * Aggregated discovery on /api and /apis: negotiated by content type (v2, v2beta1, JSON, YAML and
 * protobuf), plain discovery as the fallback, the document's content, --runtime-config, ETag/304,
 * under both API domains.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ProtobufReader } from '../../src/machinery/codec/protobuf-reader.js';
import { decodeEnvelope } from '../../src/schema/protobuf/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const accept = (group: string, version: string, type = 'application/json') => `${type};g=${group};v=${version};as=APIGroupDiscoveryList`;

async function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; contentType: string | null; bytes: Uint8Array }> {
  const r = await fetch(url, { headers });
  return { status: r.status, contentType: r.headers.get('content-type'), bytes: new Uint8Array(await r.arrayBuffer()) };
}

const resourceOf = (list: any, group: string, version: string, resource: string): any =>
  list.items.find((g: any) => (g.metadata.name ?? '') === group)?.versions.find((v: any) => v.version === version)?.resources.find((r: any) => r.resource === resource);

for (const domain of ['orch.io', 'k8s.io']) {
  const DG = `apidiscovery.${domain}`;
  const V2 = accept(DG, 'v2');
  const V2BETA1 = accept(DG, 'v2beta1');

  describe(`aggregated discovery (${domain})`, () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer({ apiDomain: domain });
    });
    afterAll(() => s.close());

    it('answers /apis in v2 with the aggregated Content-Type, ETag, Vary and every named group', async () => {
      const r = await s.get('/apis', { accept: V2 });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe(V2);
      expect(r.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
      expect(r.headers.vary).toBe('Accept');
      expect(r.body).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: `${DG}/v2`, metadata: {} });
      // The same groups, in the same order, as the plain group list; versions in preference order.
      const plain = await s.get('/apis');
      expect(r.body.items.map((g: any) => g.metadata.name)).toEqual(plain.body.groups.map((g: any) => g.name));
      for (const [i, g] of plain.body.groups.entries()) {
        expect(r.body.items[i].versions.map((v: any) => v.version)).toEqual(g.versions.map((v: any) => v.version));
        for (const v of r.body.items[i].versions) expect(v.freshness).toBe('Current');
      }
      expect(r.body.items.some((g: any) => g.metadata.name === 'apps')).toBe(true);
      expect(r.body.items.some((g: any) => !g.metadata.name)).toBe(false);
    });

    it('answers /api with the core group alone', async () => {
      const r = await s.get('/api', { accept: V2 });
      expect(r.status).toBe(200);
      expect(r.body.items).toHaveLength(1);
      expect(r.body.items[0].metadata.name ?? '').toBe('');
      expect(r.body.items[0].versions.map((v: any) => v.version)).toEqual(['v1']);
      const ns = resourceOf(r.body, '', 'v1', 'namespaces');
      expect(ns).toMatchObject({
        resource: 'namespaces',
        responseKind: { group: '', version: '', kind: 'Namespace' },
        scope: 'Cluster',
        singularResource: 'namespace',
        shortNames: ['ns'],
      });
      expect(ns.subresources.map((x: any) => x.subresource).sort()).toEqual(['finalize', 'status']);
      expect(resourceOf(r.body, '', 'v1', 'configmaps')).toMatchObject({ scope: 'Namespaced', singularResource: 'configmap' });
    });

    it('describes deployments with their status and scale subresources (scale answers autoscaling/v1 Scale)', async () => {
      const r = await s.get('/apis', { accept: V2 });
      const d = resourceOf(r.body, 'apps', 'v1', 'deployments');
      expect(d).toEqual({
        resource: 'deployments',
        responseKind: { group: '', version: '', kind: 'Deployment' },
        scope: 'Namespaced',
        singularResource: 'deployment',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['deploy'],
        categories: ['all'],
        subresources: expect.arrayContaining([
          { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
          { subresource: 'status', responseKind: { group: '', version: '', kind: 'Deployment' }, verbs: ['get', 'patch', 'update'] },
        ]),
      });
      // No subresource stands as a resource of its own.
      const apps = r.body.items.find((g: any) => g.metadata.name === 'apps');
      for (const v of apps.versions) for (const res of v.resources) expect(res.resource).not.toContain('/');
    });

    it('carries the same resources as the plain per-version lists', async () => {
      const r = await s.get('/apis', { accept: V2 });
      for (const g of r.body.items) {
        for (const v of g.versions) {
          const plain = await s.get(`/apis/${g.metadata.name}/${v.version}`);
          const names = plain.body.resources.map((x: any) => x.name).sort();
          const agg = v.resources.flatMap((x: any) => [x.resource, ...(x.subresources ?? []).map((sub: any) => `${x.resource}/${sub.subresource}`)]).sort();
          expect(agg, `${g.metadata.name}/${v.version}`).toEqual(names);
        }
      }
    });

    it('lists a deprecated version after the preferred one, as served as any other', async () => {
      const r = await s.get('/apis', { accept: V2 });
      const fc = r.body.items.find((g: any) => g.metadata.name === `flowcontrol.apiserver.${domain}`);
      expect(fc.versions.map((v: any) => v.version)).toEqual(['v1beta2', 'v1beta1']);
      expect(fc.versions[1].resources.map((x: any) => x.resource).sort()).toEqual(['flowschemas', 'prioritylevelconfigurations']);
    });

    it('serves v2beta1 with the same document and ETag', async () => {
      const v2 = await s.get('/apis', { accept: V2 });
      const beta = await s.get('/apis', { accept: V2BETA1 });
      expect(beta.status).toBe(200);
      expect(beta.headers['content-type']).toBe(V2BETA1);
      expect(beta.body.apiVersion).toBe(`${DG}/v2beta1`);
      expect(beta.body.items).toEqual(v2.body.items);
      expect(beta.headers.etag).toBe(v2.headers.etag);
    });

    it('picks the aggregated form from the list client-go sends, wherever it stands', async () => {
      const both = await s.get('/apis', { accept: `${V2},${V2BETA1},application/json` });
      expect(both.headers['content-type']).toBe(V2);
      const betaFirst = await s.get('/apis', { accept: `${V2BETA1};q=1,${V2};q=0.5` });
      expect(betaFirst.headers['content-type']).toBe(V2BETA1);
      // As in Kubernetes, plain JSON first does not hide an aggregated range later in the list.
      const plainFirst = await s.get('/api', { accept: `application/json,${V2}` });
      expect(plainFirst.body.kind).toBe('APIGroupDiscoveryList');
      // A wildcard type with the aggregated parameters gets JSON.
      const wild = await s.get('/apis', { accept: `*/*;g=${DG};v=v2;as=APIGroupDiscoveryList` });
      expect(wild.headers['content-type']).toBe(V2);
    });

    it('falls back to plain discovery when the aggregated form is not asked for or not known', async () => {
      const plain = await s.get('/apis', { accept: 'application/json' });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-type']).toBe('application/json');
      expect(plain.body.kind).toBe('APIGroupList');
      expect(plain.headers.etag).toBeUndefined();
      const api = await s.get('/api', { accept: 'application/json' });
      expect(api.body.kind).toBe('APIVersions');
      // An unknown version, another kind or another group's name: not ours, so the plain fallback.
      for (const range of [accept(DG, 'v3'), `application/json;g=${DG};v=v2;as=APIGroupList`, accept('apidiscovery.example.com', 'v2')]) {
        const r = await s.get('/apis', { accept: `${range},application/json;q=0.9` });
        expect(r.body.kind, range).toBe('APIGroupList');
      }
    });

    it('answers 406 when neither form is acceptable', async () => {
      for (const a of ['application/xml', accept(DG, 'v3'), `text/html;g=${DG};v=v2;as=APIGroupDiscoveryList`]) {
        const r = await s.get('/apis', { accept: a });
        expect(r.status, a).toBe(406);
        expect(r.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
      }
    });

    it('answers 304 to If-None-Match with the current ETag, and the full document otherwise', async () => {
      const first = await s.get('/apis', { accept: V2 });
      const etag = first.headers.etag as string;
      const again = await s.get('/apis', { accept: V2, 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(etag);
      const stale = await s.get('/apis', { accept: V2, 'if-none-match': '"0123"' });
      expect(stale.status).toBe(200);
      expect(stale.body.items).toEqual(first.body.items);
      // /api has its own document and its own tag.
      const api = await s.get('/api', { accept: V2, 'if-none-match': etag });
      expect(api.status).toBe(200);
      expect(api.headers.etag).not.toBe(etag);
    });

    it('compares If-None-Match to the ETag exactly, as Kubernetes does: no lists, no `*`, no weak tags', async () => {
      const etag = (await s.get('/apis', { accept: V2 })).headers.etag as string;
      for (const inm of [`"other", ${etag}`, `${etag}, "other"`, '*', `W/${etag}`, etag.slice(1, -1)]) {
        const r = await s.get('/apis', { accept: V2, 'if-none-match': inm });
        expect(r.status, inm).toBe(200);
        expect(r.body.kind, inm).toBe('APIGroupDiscoveryList');
        expect(r.headers.etag, inm).toBe(etag);
      }
    });

    it('serves YAML when asked', async () => {
      const r = await s.get('/apis', { accept: accept(DG, 'v2', 'application/yaml') });
      expect(r.headers['content-type']).toBe(accept(DG, 'v2', 'application/yaml'));
      const doc = parseYaml(r.text);
      expect(doc.kind).toBe('APIGroupDiscoveryList');
      expect(resourceOf(doc, 'apps', 'v1', 'deployments').scope).toBe('Namespaced');
    });

    it('serves protobuf in the envelope, with Kubernetes\' field numbers', async () => {
      const pbType = domain === 'k8s.io' ? 'application/vnd.kubernetes.protobuf' : 'application/vnd.orch.protobuf';
      const r = await rawGet(`${s.url}/apis`, { accept: accept(DG, 'v2', pbType) });
      expect(r.status).toBe(200);
      expect(r.contentType).toBe(accept(DG, 'v2', pbType));
      const unk = decodeEnvelope(r.bytes);
      expect(unk.typeMeta).toEqual({ apiVersion: `${DG}/v2`, kind: 'APIGroupDiscoveryList' });
      // Read by hand from apidiscovery/v2 generated.proto: list.items = 2, group.metadata = 1
      // (ObjectMeta.name = 1), group.versions = 2, version.version = 1, version.resources = 2,
      // resource.resource = 1, resource.scope = 3, resource.subresources = 8, subresource.subresource = 1,
      // subresource.responseKind = 2 (GroupVersionKind group = 1, version = 2, kind = 3), version.freshness = 3.
      const fields = (bytes: Uint8Array): Map<number, Uint8Array[]> => {
        const out = new Map<number, Uint8Array[]>();
        const rd = new ProtobufReader(bytes);
        while (!rd.done) {
          const k = rd.key();
          if (k.wireType !== 2) {
            rd.skip(k.wireType);
            continue;
          }
          out.set(k.field, [...(out.get(k.field) ?? []), rd.bytes()]);
        }
        return out;
      };
      const text = (b: Uint8Array | undefined) => Buffer.from(b ?? []).toString('utf8');
      const groups = fields(unk.raw as Uint8Array).get(2) ?? [];
      const apps = groups.map(fields).find((g) => text(fields(g.get(1)![0]!).get(1)?.[0]) === 'apps')!;
      expect(apps).toBeDefined();
      const v1 = apps.get(2)!.map(fields).find((v) => text(v.get(1)?.[0]) === 'v1')!;
      expect(text(v1.get(3)?.[0])).toBe('Current');
      const deploy = v1.get(2)!.map(fields).find((x) => text(x.get(1)?.[0]) === 'deployments')!;
      expect(text(deploy.get(3)?.[0])).toBe('Namespaced');
      const scale = deploy.get(8)!.map(fields).find((x) => text(x.get(1)?.[0]) === 'scale')!;
      const gvk = fields(scale.get(2)![0]!);
      expect([text(gvk.get(1)?.[0]), text(gvk.get(2)?.[0]), text(gvk.get(3)?.[0])]).toEqual(['autoscaling', 'v1', 'Scale']);
    });
  });
}

describe('aggregated discovery with --runtime-config', () => {
  let s: TestServer;
  const V2 = accept('apidiscovery.orch.io', 'v2');
  beforeAll(async () => {
    s = await startTestServer({ runtimeConfig: 'rbac.authorization.orch.io/v1=false,apps/v1/replicasets=false,v1/configmaps=false,flowcontrol.apiserver.orch.io/v1beta1=false' });
  });
  afterAll(() => s.close());

  it('leaves out disabled groups, versions and resources, as plain discovery does', async () => {
    // Each of them is served without the flag.
    const full = await startTestServer();
    try {
      const all = await full.get('/apis', { accept: V2 });
      expect(all.body.items.some((g: any) => g.metadata.name === 'rbac.authorization.orch.io')).toBe(true);
      expect(resourceOf(all.body, 'apps', 'v1', 'replicasets')).toBeDefined();
      expect(resourceOf(all.body, 'flowcontrol.apiserver.orch.io', 'v1beta1', 'flowschemas')).toBeDefined();
      expect(resourceOf((await full.get('/api', { accept: V2 })).body, '', 'v1', 'configmaps')).toBeDefined();
    } finally {
      await full.close();
    }
    const r = await s.get('/apis', { accept: V2 });
    expect(r.body.items.some((g: any) => g.metadata.name === 'rbac.authorization.orch.io')).toBe(false);
    expect(resourceOf(r.body, 'apps', 'v1', 'replicasets')).toBeUndefined();
    expect(resourceOf(r.body, 'apps', 'v1', 'deployments')).toBeDefined();
    const fc = r.body.items.find((g: any) => g.metadata.name === 'flowcontrol.apiserver.orch.io');
    expect(fc.versions.map((v: any) => v.version)).toEqual(['v1beta2']);
    const core = await s.get('/api', { accept: V2 });
    expect(resourceOf(core.body, '', 'v1', 'configmaps')).toBeUndefined();
    expect(resourceOf(core.body, '', 'v1', 'secrets')).toBeDefined();
  });

  it('has a different ETag from a server with every API on', async () => {
    const full = await startTestServer();
    try {
      const a = await full.get('/apis', { accept: V2 });
      const b = await s.get('/apis', { accept: V2 });
      expect(a.headers.etag).not.toBe(b.headers.etag);
      const c = await full.get('/apis', { accept: V2, 'if-none-match': b.headers.etag as string });
      expect(c.status).toBe(200);
    } finally {
      await full.close();
    }
  });
});
