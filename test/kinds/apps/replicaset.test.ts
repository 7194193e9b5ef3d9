/** ReplicaSet (apps/v1): defaults, selector and template rules, generation, /status, /scale and field selectors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectStatus } from '../../rest/fixtures.js';

const NS = 'rs-test';
const RS = `/apis/apps/v1/namespaces/${NS}/replicasets`;
const MERGE = 'application/merge-patch+json';
const spec = (extra: Record<string, unknown> = {}) => ({
  selector: { matchLabels: { app: 'web' } },
  template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
  ...extra,
});

describe('ReplicaSet', () => {
  let s: TestServer;
  let n = 0;
  const create = (body: Record<string, unknown>, metadata: Record<string, unknown> = {}) => s.post(RS, { metadata: { name: `rs-${++n}`, ...metadata }, spec: body });
  const created = async (body = spec(), metadata: Record<string, unknown> = {}) => {
    const r = await create(body, metadata);
    expect(r.status, r.text).toBe(201);
    return r.body;
  };

  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it('is served with short name rs, category all, /status and /scale', async () => {
    const doc = (await s.get('/apis/apps/v1')).body;
    expect(doc.resources.find((r: any) => r.name === 'replicasets')).toMatchObject({ kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'], categories: ['all'] });
    expect(doc.resources.find((r: any) => r.name === 'replicasets/status')).toMatchObject({ kind: 'ReplicaSet', verbs: ['get', 'patch', 'update'] });
    expect(doc.resources.find((r: any) => r.name === 'replicasets/scale')).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });

  it('defaults replicas to 1 (keeping an explicit 0), the template, and an empty status', async () => {
    const rs = await created();
    expect(rs.spec.replicas).toBe(1);
    expect(rs.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
    expect(rs.status).toEqual({ replicas: 0 });
    expect(rs.metadata.generation).toBe(1);
    expect((await created(spec({ replicas: 0 }))).spec.replicas).toBe(0);
  });

  it('checks replicas, minReadySeconds, selector and template', async () => {
    const st = expectStatus(await create(spec({ replicas: -1, minReadySeconds: -1, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'web', image: 'i' }] } } })), 422, 'Invalid');
    expect(st.details.causes.map((c: any) => `${c.field} ${c.message}`)).toEqual([
      'spec.replicas Invalid value: -1: must be greater than or equal to 0',
      'spec.minReadySeconds Invalid value: -1: must be greater than or equal to 0',
      'spec.template.metadata.labels Invalid value: {"app":"x"}: `selector` does not match template `labels`',
    ]);
    const noSelector = expectStatus(await create({ template: spec().template }), 422, 'Invalid');
    expect(noSelector.details.causes[0]).toEqual({ reason: 'FieldValueRequired', field: 'spec.selector', message: 'Required value' });
  });

  it('keeps the selector immutable and bumps the generation on spec changes only', async () => {
    const rs = await created();
    const path = `${RS}/${rs.metadata.name}`;
    const st = expectStatus(await s.patch(path, { spec: { selector: { matchLabels: { app: 'web', v: '2' } } } }, MERGE), 422, 'Invalid');
    expect(st.details.causes).toContainEqual(expect.objectContaining({ field: 'spec.selector', message: expect.stringContaining('field is immutable') }));
    expect((await s.patch(path, { metadata: { annotations: { a: 'b' } } }, MERGE)).body.metadata.generation).toBe(1);
    expect((await s.patch(path, { spec: { minReadySeconds: 3 } }, MERGE)).body.metadata.generation).toBe(2);
  });

  it('writes status only through /status, within the counts', async () => {
    const rs = await created();
    const path = `${RS}/${rs.metadata.name}`;
    expect((await s.patch(path, { status: { replicas: 3 } }, MERGE)).body.status.replicas).toBe(0);
    const ok = await s.patch(`${path}/status`, { status: { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 } }, MERGE);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.status).toMatchObject({ replicas: 3, readyReplicas: 2 });
    const bad = expectStatus(await s.patch(`${path}/status`, { status: { fullyLabeledReplicas: 4, availableReplicas: 3 } }, MERGE), 422, 'Invalid');
    expect(bad.details.causes.map((c: any) => `${c.field} ${c.message}`)).toEqual([
      'status.fullyLabeledReplicas Invalid value: 4: cannot be greater than status.replicas',
      'status.availableReplicas Invalid value: 3: cannot be greater than readyReplicas',
    ]);
  });

  it('selects by status.replicas', async () => {
    const a = await created();
    await s.patch(`${RS}/${a.metadata.name}/status`, { status: { replicas: 7 } }, MERGE);
    const r = await s.get(`${RS}?fieldSelector=status.replicas%3D7`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.items.map((i: any) => i.metadata.name)).toEqual([a.metadata.name]);
  });

  it('scales through /scale', async () => {
    const rs = await created();
    const path = `${RS}/${rs.metadata.name}`;
    const scale = await s.get(`${path}/scale`);
    expect(scale.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 }, status: { replicas: 0, selector: 'app=web' } });
    const r = await s.patch(`${path}/scale`, { spec: { replicas: 5 } }, MERGE);
    expect(r.status, r.text).toBe(200);
    expect((await s.get(path)).body).toMatchObject({ spec: { replicas: 5 }, metadata: { generation: 2 } });
  });
});
