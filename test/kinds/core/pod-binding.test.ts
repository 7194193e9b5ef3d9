/** pods/binding over HTTP: a Binding assigns a pending pod to a node, once; Kubernetes' checks and answers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, expectStatus } from './helpers.js';

const PODS = '/api/v1/namespaces/default/pods';
const binding = (name: string, node: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name, ...extra }, target: { kind: 'Node', name: node } });

describe('pods/binding', () => {
  let s: TestServer;
  const pod = async (name: string) => expect((await s.post(PODS, { metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })).status).toBe(201);
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is listed in discovery as a create of Binding', async () => {
    const entry = (await s.get('/api/v1')).body.resources.find((r: any) => r.name === 'pods/binding');
    expect(entry).toMatchObject({ kind: 'Binding', verbs: ['create'], namespaced: true });
  });

  it('binds a pod to a node: 201 Success, the node, the annotations and PodScheduled', async () => {
    await pod('web');
    const bound = await s.post(`${PODS}/web/binding`, binding('web', 'node-1', { annotations: { 'scheduler.example.com/score': '7' } }));
    expect(bound.status, bound.text).toBe(201);
    expect(bound.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Success', code: 201 });
    const got = (await s.get(`${PODS}/web`)).body;
    expect(got.spec.nodeName).toBe('node-1');
    expect(got.metadata.annotations).toEqual({ 'scheduler.example.com/score': '7' });
    expect(got.status.conditions).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'True' })]);
  });

  it('refuses a second binding with a Conflict, a mismatched name, a bad target, and a missing pod', async () => {
    const again = await s.post(`${PODS}/web/binding`, binding('web', 'node-2'));
    expect(expectStatus(again, 409, 'Conflict').message).toBe('Operation cannot be fulfilled on pods/binding "web": pod web is already assigned to node "node-1"');
    await pod('other');
    expectStatus(await s.post(`${PODS}/other/binding`, binding('web', 'node-2')), 400, 'BadRequest');
    expectCauses(await s.post(`${PODS}/other/binding`, { ...binding('other', ''), target: { kind: 'Pod' } }), [
      { reason: 'FieldValueNotSupported', field: 'target.kind', message: 'Unsupported value: "Pod": supported values: "Node", "<empty>"' },
      { reason: 'FieldValueRequired', field: 'target.name', message: 'Required value' },
    ]);
    expectStatus(await s.post(`${PODS}/absent/binding`, binding('absent', 'node-1')), 404, 'NotFound');
    const stale = await s.post(`${PODS}/other/binding`, binding('other', 'node-1', { resourceVersion: '1' }));
    expectStatus(stale, 409, 'Conflict');
    expect((await s.get(`${PODS}/other`)).body.spec.nodeName).toBeUndefined();
  });

  it('changes nothing under dry run', async () => {
    await pod('dry');
    expect((await s.post(`${PODS}/dry/binding?dryRun=All`, binding('dry', 'node-1'))).status).toBe(201);
    expect((await s.get(`${PODS}/dry`)).body.spec.nodeName).toBeUndefined();
  });
});

describe('the legacy bindings collection', () => {
  let s: TestServer;
  const BINDINGS = '/api/v1/namespaces/default/bindings';
  const pod = async (name: string) => expect((await s.post(PODS, { metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })).status).toBe(201);
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is listed in discovery as a create-only Binding collection', async () => {
    const entry = (await s.get('/api/v1')).body.resources.find((r: any) => r.name === 'bindings');
    expect(entry).toMatchObject({ kind: 'Binding', verbs: ['create'], namespaced: true });
    expect((await s.get(BINDINGS)).status).toBe(405);
  });

  it('binds the pod its metadata.name names, as pods/binding does', async () => {
    await pod('web');
    const bound = await s.post(BINDINGS, binding('web', 'node-1', { annotations: { 'scheduler.example.com/score': '7' } }));
    expect(bound.status, bound.text).toBe(201);
    expect(bound.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Success', code: 201 });
    const got = (await s.get(`${PODS}/web`)).body;
    expect(got.spec.nodeName).toBe('node-1');
    expect(got.metadata.annotations).toEqual({ 'scheduler.example.com/score': '7' });
    expect(got.status.conditions).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'True' })]);
    const again = await s.post(BINDINGS, binding('web', 'node-2'));
    expect(expectStatus(again, 409, 'Conflict').message).toBe('Operation cannot be fulfilled on pods/binding "web": pod web is already assigned to node "node-1"');
  });

  it('refuses a missing pod, a bad target and a missing name, and changes nothing under dry run', async () => {
    expectStatus(await s.post(BINDINGS, binding('absent', 'node-1')), 404, 'NotFound');
    await pod('dry');
    expectCauses(await s.post(BINDINGS, { ...binding('dry', ''), target: { kind: 'Pod' } }), [
      { reason: 'FieldValueNotSupported', field: 'target.kind' },
      { reason: 'FieldValueRequired', field: 'target.name' },
    ]);
    expect(expectStatus(await s.post(BINDINGS, { apiVersion: 'v1', kind: 'Binding', metadata: {}, target: { name: 'node-1' } }), 422, 'Invalid').details.causes[0]).toMatchObject({ field: 'metadata.name' });
    expect((await s.post(`${BINDINGS}?dryRun=All`, binding('dry', 'node-1'))).status).toBe(201);
    expect((await s.get(`${PODS}/dry`)).body.spec.nodeName).toBeUndefined();
  });
});
