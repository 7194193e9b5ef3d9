import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CRDS, cronTabCrd } from './fixtures.js';

const CT = '/apis/stable.example.com/v1/namespaces/default/crontabs';

async function waitFor<T>(fn: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function established(s: TestServer, name: string): Promise<Record<string, any>> {
  return waitFor(async () => {
    const r = await s.get(`${CRDS}/${name}`);
    return r.body.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True') ? r.body : undefined;
  }, `${name} Established`);
}

describe('CustomResourceDefinitions over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('serves a CRD: names accepted, Established, discovery and OpenAPI follow with new ETags', async () => {
    const before = await s.get('/apis', { Accept: 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList' });
    const v3Before = await s.get('/openapi/v3');
    expect(v3Before.body.paths['apis/stable.example.com/v1']).toBeUndefined();
    const created = await s.post(CRDS, cronTabCrd());
    expect(created.status).toBe(201);
    expect(created.body.status.storedVersions).toEqual(['v1']);
    const crd = await established(s, 'crontabs.stable.example.com');
    expect(crd.status.acceptedNames).toMatchObject({ plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] });
    expect(crd.status.conditions.find((c: { type: string }) => c.type === 'NamesAccepted')).toMatchObject({ status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    expect(crd.status.conditions.find((c: { type: string }) => c.type === 'Established')).toMatchObject({ reason: 'InitialNamesAccepted' });

    const after = await s.get('/apis', { Accept: 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList' });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const group = after.body.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'stable.example.com');
    expect(group.versions.map((v: { version: string }) => v.version)).toEqual(['v1', 'v1beta1']);
    expect(group.versions[0].resources[0]).toMatchObject({ resource: 'crontabs', scope: 'Namespaced', shortNames: ['ct'], categories: ['all'] });
    expect(group.versions[0].resources[0].subresources.map((x: { subresource: string }) => x.subresource).sort()).toEqual(['scale', 'status']);
    const list = await s.get('/apis/stable.example.com/v1');
    expect(list.body.resources.map((r: { name: string }) => r.name)).toEqual(['crontabs', 'crontabs/status', 'crontabs/scale']);
    expect((await s.get('/apis/stable.example.com')).body.preferredVersion.version).toBe('v1');
    const v3 = await s.get('/openapi/v3');
    expect(v3.body.paths['apis/stable.example.com/v1']).toBeDefined();
    const v2 = await s.get('/openapi/v2');
    expect(Object.keys(v2.body.paths)).toContain('/apis/stable.example.com/v1/namespaces/{namespace}/crontabs');
  });

  it('creates, defaults, validates and prunes custom objects', async () => {
    const ok = await s.post(CT, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a' }, spec: { cronSpec: '* * * * */5', image: 'img', unknownField: 1 } });
    expect(ok.status).toBe(201);
    expect(ok.body.spec).toEqual({ cronSpec: '* * * * */5', image: 'img', replicas: 1 });
    expect(ok.body.metadata.generation).toBe(1);
    expect(ok.headers.warning).toContain('unknown field \\"spec.unknownField\\"');
    const bad = await s.post(CT, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'b' }, spec: { cronSpec: 'nope', replicas: 11, mode: 'Medium', image: 3 } });
    expect(bad.status).toBe(422);
    expect(bad.body.reason).toBe('Invalid');
    expect(bad.body.message).toContain('CronTab.stable.example.com "b" is invalid');
    expect(bad.body.message).toContain('spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10');
    expect(bad.body.message).toContain('spec.mode: Unsupported value: "Medium": supported values: "Fast", "Slow"');
    expect(bad.body.message).toContain('spec.image: Invalid value: 3: spec.image in body must be of type string: "integer"');
    expect(bad.body.message).toContain("spec.cronSpec in body should match");
    const missing = await s.post(CT, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c' }, spec: {} });
    expect(missing.body.message).toContain('spec.cronSpec: Required value');
    const strict = await s.post(`${CT}?fieldValidation=Strict`, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'd' }, spec: { cronSpec: '* * * * *', typo: true } });
    expect(strict.status).toBe(400);
    expect(strict.body.message).toContain('unknown field "spec.typo"');
  });

  it('keeps status out of main writes, bumps generation on spec changes, and serves /status and /scale', async () => {
    await s.post(CT, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'sub' }, spec: { cronSpec: '* * * * *' }, status: { replicas: 9 } });
    const got = await s.get(`${CT}/sub`);
    expect(got.body.status).toBeUndefined();
    const st = await s.patch(`${CT}/sub/status`, { status: { replicas: 2, labelSelector: 'app=x' } }, 'application/merge-patch+json');
    expect(st.status).toBe(200);
    expect(st.body.status.replicas).toBe(2);
    expect(st.body.metadata.generation).toBe(1);
    const spec = await s.patch(`${CT}/sub`, { spec: { image: 'new' } }, 'application/merge-patch+json');
    expect(spec.body.metadata.generation).toBe(2);
    const scale = await s.get(`${CT}/sub/scale`);
    expect(scale.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 }, status: { replicas: 2, selector: 'app=x' } });
    const scaled = await s.patch(`${CT}/sub/scale`, { spec: { replicas: 4 } }, 'application/merge-patch+json');
    expect(scaled.status).toBe(200);
    expect((await s.get(`${CT}/sub`)).body.spec.replicas).toBe(4);
  });

  it('serves other versions by rewriting apiVersion, with the deprecation warning; stores the storage version', async () => {
    const old = await s.post('/apis/stable.example.com/v1beta1/namespaces/default/crontabs', { apiVersion: 'stable.example.com/v1beta1', kind: 'CronTab', metadata: { name: 'old' }, spec: { cronSpec: '* * * * *', extra: 'kept' } });
    expect(old.status).toBe(201);
    expect(old.body.apiVersion).toBe('stable.example.com/v1beta1');
    expect(old.headers.warning).toContain('stable.example.com/v1beta1 CronTab is deprecated; use stable.example.com/v1 CronTab');
    const v1 = await s.get(`${CT}/old`);
    expect(v1.body.apiVersion).toBe('stable.example.com/v1');
  });

  it('answers a Table with the printer columns', async () => {
    const r = await s.get(CT, { Accept: 'application/json;as=Table;v=v1;g=meta.orch.io' });
    expect(r.status).toBe(200);
    expect(r.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Spec', 'Replicas', 'Age']);
    const row = r.body.rows.find((x: { cells: unknown[] }) => x.cells[0] === 'a');
    expect(row.cells.slice(0, 3)).toEqual(['a', '* * * * */5', 1]);
  });

  it('refuses protobuf-only Accept with 406 and answers JSON when JSON is also accepted', async () => {
    expect((await s.get(`${CT}/a`, { Accept: 'application/vnd.orch.protobuf' })).status).toBe(406);
    const both = await s.get(`${CT}/a`, { Accept: 'application/vnd.orch.protobuf, application/json' });
    expect(both.status).toBe(200);
    expect(both.headers['content-type']).toBe('application/json');
  });

  it('refuses invalid CRDs with Kubernetes messages', async () => {
    const crd = cronTabCrd() as any;
    crd.metadata.name = 'wrong.stable.example.com';
    crd.spec.versions[1].storage = true;
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.image = {};
    const r = await s.post(CRDS, crd);
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('metadata.name: Invalid value: "wrong.stable.example.com": must be spec.names.plural+"."+spec.group');
    expect(r.body.message).toContain('spec.versions: Invalid value: ');
    expect(r.body.message).toContain('must have exactly one version marked as storage version');
    expect(r.body.message).toContain('spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[image].type: Required value: must not be empty for specified object fields');
  });

  it('refuses names another CRD of the group holds (NamesAccepted False)', async () => {
    const other = cronTabCrd() as any;
    other.metadata.name = 'crontabs2.stable.example.com';
    other.spec.names = { plural: 'crontabs2', kind: 'CronTab2', shortNames: ['ct'] };
    expect((await s.post(CRDS, other)).status).toBe(201);
    const got = await waitFor(async () => {
      const r = await s.get(`${CRDS}/crontabs2.stable.example.com`);
      return r.body.status?.conditions?.length ? r.body : undefined;
    }, 'conditions');
    expect(got.status.conditions.find((c: { type: string }) => c.type === 'NamesAccepted')).toMatchObject({ status: 'False', reason: 'ShortNamesConflict', message: '"ct" is already in use' });
    expect(got.status.conditions.find((c: { type: string }) => c.type === 'Established')).toMatchObject({ status: 'False', reason: 'NotAccepted' });
    expect((await s.get('/apis/stable.example.com/v1/crontabs2')).status).toBe(404);
  });

  it('deleting a CRD deletes its objects, then the CRD, and stops serving it', async () => {
    const r = await s.request('DELETE', `${CRDS}/crontabs.stable.example.com`);
    expect(r.status).toBe(200);
    await waitFor(async () => ((await s.get(`${CRDS}/crontabs.stable.example.com`)).status === 404 ? true : undefined), 'the CRD to go');
    expect((await s.get(CT)).status).toBe(404);
    expect((await s.get('/apis/stable.example.com/v1')).body.resources.map((r: { name: string }) => r.name)).not.toContain('crontabs');
    // The short name is free again: the other CRD of the group now gets its names and is served.
    await established(s, 'crontabs2.stable.example.com');
    expect((await s.get('/apis/stable.example.com/v1/namespaces/default/crontabs2')).status).toBe(200);
    expect((await s.request('DELETE', `${CRDS}/crontabs2.stable.example.com`)).status).toBe(200);
    await waitFor(async () => ((await s.get('/apis')).body.groups.some((g: { name: string }) => g.name === 'stable.example.com') ? undefined : true), 'the group to go');
  });
});
