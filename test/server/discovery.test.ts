/** Discovery documents and /version, as kubectl and client-go read them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CRUD = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

describe('discovery', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const coreResource = async (name: string): Promise<any> => {
    const r = await s.get('/api/v1');
    return r.body.resources.find((x: any) => x.name === name);
  };

  it('/api lists the core versions and the address the client used', async () => {
    const r = await s.get('/api');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.body.kind).toBe('APIVersions');
    expect(r.body.versions).toEqual(['v1']);
    expect(r.body.serverAddressByClientCIDRs).toEqual([{ clientCIDR: '0.0.0.0/0', serverAddress: new URL(s.url).host }]);
  });

  it('/api/v1 is an APIResourceList of the core kinds', async () => {
    const r = await s.get('/api/v1');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'v1' });
    const names = r.body.resources.map((x: any) => x.name);
    expect(names).toEqual(expect.arrayContaining(['namespaces', 'namespaces/status', 'namespaces/finalize', 'configmaps', 'secrets']));
  });

  it('describes namespaces as Kubernetes does: cluster-scoped, no deletecollection, short name ns', async () => {
    expect(await coreResource('namespaces')).toEqual({
      name: 'namespaces',
      singularName: 'namespace',
      namespaced: false,
      kind: 'Namespace',
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['ns'],
      storageVersionHash: 'Q3oi5N2YM8M=',
    });
  });

  it('lists the namespace subresources: status (get, patch, update) and finalize (update)', async () => {
    expect(await coreResource('namespaces/status')).toMatchObject({ name: 'namespaces/status', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['get', 'patch', 'update'] });
    expect(await coreResource('namespaces/finalize')).toMatchObject({ name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['update'] });
  });

  it('describes configmaps and secrets with every verb and the storage version hashes Kubernetes publishes', async () => {
    expect(await coreResource('configmaps')).toEqual({
      name: 'configmaps',
      singularName: 'configmap',
      namespaced: true,
      kind: 'ConfigMap',
      verbs: CRUD,
      shortNames: ['cm'],
      storageVersionHash: 'qFsyl6wFWjQ=',
    });
    expect(await coreResource('secrets')).toMatchObject({ name: 'secrets', singularName: 'secret', namespaced: true, kind: 'Secret', verbs: CRUD, storageVersionHash: 'S6u1pOWzb84=' });
  });

  it('/apis is an APIGroupList whose every group and version resolves', async () => {
    const r = await s.get('/apis');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'APIGroupList', apiVersion: 'v1' });
    expect(Array.isArray(r.body.groups)).toBe(true);
    for (const g of r.body.groups) {
      const one = await s.get(`/apis/${g.name}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ kind: 'APIGroup', name: g.name, preferredVersion: g.preferredVersion });
      for (const v of g.versions) {
        const list = await s.get(`/apis/${v.groupVersion}`);
        expect(list.status).toBe(200);
        expect(list.body).toMatchObject({ kind: 'APIResourceList', groupVersion: v.groupVersion });
        expect(list.body.resources.length).toBeGreaterThan(0);
      }
    }
  });

  it.each(['/apis/nosuch.orch.io', '/apis/nosuch.orch.io/v1', '/api/v2', '/apis/nosuch.orch.io/v1/widgets'])('%s is a 404 Status', async (path) => {
    const r = await s.get(path);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });
  });

  it('/ lists the root paths', async () => {
    const r = await s.get('/');
    expect(r.status).toBe(200);
    expect(r.body.paths).toEqual(expect.arrayContaining(['/api', '/api/v1', '/apis', '/healthz', '/livez', '/readyz', '/metrics', '/version', '/readyz/ping']));
  });

  it('/version has the fields clients parse for skew checks', async () => {
    const r = await s.get('/version');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['buildDate', 'compiler', 'gitCommit', 'gitTreeState', 'gitVersion', 'goVersion', 'major', 'minor', 'platform']);
    expect(r.body.major).toMatch(/^\d+$/);
    expect(r.body.minor).toMatch(/^\d+\+?$/);
    expect(r.body.gitVersion).toMatch(new RegExp(`^v${r.body.major}\\.${r.body.minor.replace('+', '')}\\.\\d+`));
    expect(r.body.platform).toMatch(/^[a-z0-9]+\/[a-z0-9]+$/);
  });

  it('non-resource paths refuse writes with 405', async () => {
    const r = await s.post('/api/v1', {});
    expect(r.status).toBe(405);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed' });
  });
});

describe('discovery with --api-domain=k8s.io', () => {
  it('publishes the same core documents: the core group carries no domain', async () => {
    const a = await startTestServer();
    const b = await startTestServer({ apiDomain: 'k8s.io' });
    try {
      expect((await b.get('/api/v1')).body).toEqual((await a.get('/api/v1')).body);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
