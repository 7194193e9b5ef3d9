import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';
import { eventually, expectStatus, makeNamespace, NAMESPACES, TEST_RESOURCES } from './fixtures.js';

const gone = (s: TestServer, path: string) => async (): Promise<true | undefined> => ((await s.get(path)).status === 404 ? true : undefined);

describe('namespaces', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ resources: TEST_RESOURCES });
  });
  afterAll(() => s.close());

  it('carry the orch.io/metadata.name label, which clients cannot change or remove', async () => {
    const r = await s.post(NAMESPACES, { metadata: { name: 'labelled', labels: { 'orch.io/metadata.name': 'spoofed', team: 'a' } } });
    expect(r.status).toBe(201);
    expect(r.body.metadata.labels).toEqual({ 'orch.io/metadata.name': 'labelled', team: 'a' });
    const put = await s.put(`${NAMESPACES}/labelled`, { ...r.body, metadata: { ...r.body.metadata, labels: { team: 'b' } } });
    expect(put.body.metadata.labels).toEqual({ team: 'b', 'orch.io/metadata.name': 'labelled' });
    const sel = await s.get(`${NAMESPACES}?labelSelector=${encodeURIComponent('orch.io/metadata.name=labelled')}`);
    expect(sel.body.items.map((n: any) => n.metadata.name)).toEqual(['labelled']);
    for (const name of ['default', 'orch-system', 'orch-public', 'orch-node-lease']) {
      expect((await s.get(`${NAMESPACES}/${name}`)).body.metadata.labels).toEqual({ 'orch.io/metadata.name': name });
    }
  });

  it('start Active with the orch finalizer', async () => {
    const r = await s.post(NAMESPACES, { metadata: { name: 'fresh' } });
    expect(r.body.spec).toEqual({ finalizers: ['orch'] });
    expect(r.body.status).toEqual({ phase: 'Active' });
  });

  it('validate spec.finalizers', async () => {
    const st = expectStatus(await s.post(NAMESPACES, { metadata: { name: 'bad-fin' }, spec: { finalizers: ['custom'] } }), 422, 'Invalid');
    expect(st.message).toBe('Namespace "bad-fin" is invalid: spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified');
  });

  it('cannot be deleted when they are default, orch-system or orch-public (403)', async () => {
    for (const name of ['default', 'orch-system', 'orch-public']) {
      const st = expectStatus(await s.del(`${NAMESPACES}/${name}`), 403, 'Forbidden');
      expect(st.message).toBe(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
      expect(st.details).toEqual({ name, kind: 'namespaces' });
      expect((await s.get(`${NAMESPACES}/${name}`)).body.status.phase).toBe('Active');
    }
  });

  it('stay Active after a dry-run delete', async () => {
    await makeNamespace(s, 'dry-ns');
    expect((await s.post('/api/v1/namespaces/dry-ns/configmaps', { metadata: { name: 'kept' } })).status).toBe(201);
    const r = await s.del(`${NAMESPACES}/dry-ns?dryRun=All`);
    expect(r.status).toBe(200);
    expect(r.body.status.phase).toBe('Terminating');
    const ns = (await s.get(`${NAMESPACES}/dry-ns`)).body;
    expect(ns.status.phase).toBe('Active');
    expect(ns.metadata.deletionTimestamp).toBeUndefined();
    expect((await s.post('/api/v1/namespaces/dry-ns/configmaps', { metadata: { name: 'more' } })).status).toBe(201);
    expect((await s.get('/api/v1/namespaces/dry-ns/configmaps/kept')).status).toBe(200);
  });

  it('take their ConfigMaps and Secrets with them when deleted', async () => {
    await makeNamespace(s, 'doomed');
    for (let i = 0; i < 3; i++) {
      expect((await s.post('/api/v1/namespaces/doomed/configmaps', { metadata: { name: `cm-${i}` } })).status).toBe(201);
      expect((await s.post('/api/v1/namespaces/doomed/secrets', { metadata: { name: `s-${i}` }, stringData: { k: 'v' } })).status).toBe(201);
    }
    expect((await s.post('/apis/widgets.example.com/v1/namespaces/doomed/widgets', { metadata: { name: 'w' } })).status).toBe(201);
    // Same names elsewhere are untouched.
    expect((await s.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm-0' } })).status).toBe(201);

    const r = await s.del(`${NAMESPACES}/doomed`);
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('Namespace');
    expect(r.body.metadata.deletionTimestamp).toBeTruthy();
    expect(r.body.status.phase).toBe('Terminating');

    await eventually(gone(s, `${NAMESPACES}/doomed`), 'namespace doomed to disappear');
    expect((await s.get('/api/v1/namespaces/doomed/configmaps')).body.items).toEqual([]);
    expect((await s.get('/api/v1/namespaces/doomed/secrets')).body.items).toEqual([]);
    expect((await s.get('/apis/widgets.example.com/v1/namespaces/doomed/widgets')).body.items).toEqual([]);
    expect((await s.get('/api/v1/namespaces/default/configmaps/cm-0')).status).toBe(200);
    // The name is free again.
    expect((await s.post(NAMESPACES, { metadata: { name: 'doomed' } })).status).toBe(201);
  });

  it('stay Terminating while content finalizers remain, and report it in conditions', async () => {
    await makeNamespace(s, 'stuck');
    expect((await s.post('/api/v1/namespaces/stuck/configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } })).status).toBe(201);
    expect((await s.post('/api/v1/namespaces/stuck/configmaps', { metadata: { name: 'free' } })).status).toBe(201);
    expect((await s.del(`${NAMESPACES}/stuck`)).status).toBe(200);

    const ns = await eventually(async () => {
      const n = (await s.get(`${NAMESPACES}/stuck`)).body;
      const types = (n.status.conditions ?? []).map((c: any) => c.type);
      return types.includes('NamespaceContentRemaining') ? n : undefined;
    }, 'conditions on namespace stuck');
    expect(ns.status.phase).toBe('Terminating');
    const cond = (type: string): any => ns.status.conditions.find((c: any) => c.type === type);
    expect(cond('NamespaceContentRemaining')).toMatchObject({
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: configmaps has 1 resource instances',
    });
    expect(cond('NamespaceFinalizersRemaining')).toMatchObject({
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    });
    expect(cond('NamespaceContentRemaining').lastTransitionTime).toMatch(/Z$/);
    // Content without finalizers is gone; the held object is marked.
    expect((await s.get('/api/v1/namespaces/stuck/configmaps/free')).status).toBe(404);
    const held = (await s.get('/api/v1/namespaces/stuck/configmaps/held')).body;
    expect(held.metadata.deletionTimestamp).toBeTruthy();

    // A second delete is refused while the system empties the namespace.
    const again = expectStatus(await s.del(`${NAMESPACES}/stuck`), 409, 'Conflict');
    expect(again.message).toBe(
      'Operation cannot be fulfilled on namespaces "stuck": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
    );

    const released = await s.patch('/api/v1/namespaces/stuck/configmaps/held', { metadata: { finalizers: null } }, 'application/merge-patch+json');
    expect(released.status).toBe(200);
    await eventually(gone(s, `${NAMESPACES}/stuck`), 'namespace stuck to disappear');
  });

  it('let /finalize change spec.finalizers only', async () => {
    const ns = (await s.post(NAMESPACES, { metadata: { name: 'fin-sub' } })).body;
    const r = await s.put(`${NAMESPACES}/fin-sub/finalize`, { ...ns, spec: { finalizers: ['example.com/mine'] }, status: { phase: 'Terminating' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.finalizers).toEqual(['example.com/mine']);
    expect(r.body.status.phase).toBe('Active');
    expectStatus(await s.put(`${NAMESPACES}/fin-sub/finalize`, { ...r.body, spec: { finalizers: ['bare'] } }), 422, 'Invalid');
    expectStatus(await s.request('PATCH', `${NAMESPACES}/fin-sub/finalize`, { body: {}, contentType: 'application/merge-patch+json' }), 405, 'MethodNotAllowed');
  });

  async function finalizeWithoutFinalizers(name: string): Promise<Reply> {
    const cur = (await s.get(`${NAMESPACES}/${name}`)).body;
    expect(cur.spec.finalizers).toEqual(['orch']);
    return s.put(`${NAMESPACES}/${name}/finalize`, { ...cur, spec: { finalizers: [] } });
  }

  it('go away once /finalize removes the last finalizer of a Terminating namespace', async () => {
    await makeNamespace(s, 'fin-release');
    expect((await s.post('/api/v1/namespaces/fin-release/configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } })).status).toBe(201);
    const marked = (await s.del(`${NAMESPACES}/fin-release`)).body;
    expect(marked.status.phase).toBe('Terminating');
    // The controller cannot finish (content remains); an operator finalizes by hand.
    // The namespace controller writes its conditions meanwhile, so the operator does what any
    // client does under optimistic concurrency: read again and retry on 409.
    let r = await finalizeWithoutFinalizers('fin-release');
    for (let attempt = 0; r.status === 409 && attempt < 10; attempt++) r = await finalizeWithoutFinalizers('fin-release');
    expect(r.status, r.text).toBe(200);
    expect((await s.get(`${NAMESPACES}/fin-release`)).status).toBe(404);
  });

  it('are deleted at once when nothing holds them', async () => {
    const ns = (await s.post(NAMESPACES, { metadata: { name: 'no-fin' } })).body;
    await s.put(`${NAMESPACES}/no-fin/finalize`, { ...ns, spec: { finalizers: [] } });
    const r = await s.del(`${NAMESPACES}/no-fin`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'no-fin', kind: 'namespaces' } });
    expect((await s.get(`${NAMESPACES}/no-fin`)).status).toBe(404);
  });

  it('refuse deletecollection (405)', async () => {
    const st = expectStatus(await s.del(NAMESPACES), 405, 'MethodNotAllowed');
    expect(st.message).toBe('the server does not allow this method on the requested resource');
    expect((await s.get(`${NAMESPACES}/default`)).status).toBe(200);
  });
});

describe('namespaces under apiDomain k8s.io', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
  });
  afterAll(() => s.close());

  it('are kube-system, kube-public, kube-node-lease and default, labelled kubernetes.io/metadata.name', async () => {
    const names = (await s.get(NAMESPACES)).body.items.map((n: any) => n.metadata.name);
    expect(names).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const sys = (await s.get(`${NAMESPACES}/kube-system`)).body;
    expect(sys.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'kube-system' });
    expect(sys.spec.finalizers).toEqual(['kubernetes']);
    const made = (await s.post(NAMESPACES, { metadata: { name: 'k8s-made' } })).body;
    expect(made.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'k8s-made' });
  });

  it('protect kube-system, kube-public and default', async () => {
    for (const name of ['default', 'kube-system', 'kube-public']) {
      expectStatus(await s.del(`${NAMESPACES}/${name}`), 403, 'Forbidden');
    }
  });

  it('name the meta group meta.k8s.io in option errors', async () => {
    const st = expectStatus(await s.post('/api/v1/namespaces/default/configmaps?dryRun=x', { metadata: { name: 'x' } }), 422, 'Invalid');
    expect(st.message.startsWith('CreateOptions.meta.k8s.io "" is invalid')).toBe(true);
  });
});
