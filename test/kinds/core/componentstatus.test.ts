/**
 * componentstatuses (v1, deprecated): read-only, computed at each read: etcd-0 is the storage
 * backend's health, controller-manager the in-process controllers, scheduler a probe of
 * 127.0.0.1:10259 as 1.25 makes it (healthy or not depending on what listens there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectStatus, warningsOf } from './helpers.js';

const CS = '/api/v1/componentstatuses';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

describe('componentstatuses', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
  });
  afterAll(() => s.close());

  it('is listed in discovery as get and list only, short name cs', async () => {
    const entry = (await s.get('/api/v1')).body.resources.find((r: { name: string }) => r.name === 'componentstatuses');
    expect(entry).toMatchObject({ kind: 'ComponentStatus', verbs: ['get', 'list'], namespaced: false, shortNames: ['cs'] });
  });

  it('lists controller-manager, etcd-0 and scheduler with the deprecation warning', async () => {
    const r = await s.get(CS);
    expect(r.status, r.text).toBe(200);
    expect(warningsOf(r)).toContain('v1 ComponentStatus is deprecated in v1.19+');
    expect(r.body).toMatchObject({ kind: 'ComponentStatusList', apiVersion: 'v1' });
    const byName = Object.fromEntries(r.body.items.map((i: { metadata: { name: string } }) => [i.metadata.name, i]));
    expect(Object.keys(byName)).toEqual(['controller-manager', 'etcd-0', 'scheduler']);
    expect(byName['etcd-0'].conditions).toEqual([{ type: 'Healthy', status: 'True', message: '{"health":"true","reason":""}' }]);
    expect(byName['controller-manager'].conditions).toEqual([{ type: 'Healthy', status: 'True', message: 'ok' }]);
    const scheduler = byName.scheduler.conditions[0];
    expect(scheduler.type).toBe('Healthy');
    if (scheduler.status === 'False') expect(scheduler.message).toMatch(/^(Get "https:\/\/127\.0\.0\.1:10259\/healthz": dial tcp 127\.0\.0\.1:10259: |HTTP probe failed with statuscode: )/);
  });

  it('gets one by name, prints the table, and refuses writes and unknown names', async () => {
    const one = await s.get(`${CS}/etcd-0`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ kind: 'ComponentStatus', metadata: { name: 'etcd-0' } });
    const table = await s.get(CS, { accept: TABLE });
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Status', 'Message', 'Error']);
    expect(table.body.rows[1].cells).toEqual(['etcd-0', 'Healthy', '{"health":"true","reason":""}', '']);
    expectStatus(await s.get(`${CS}/nope`), 404, 'NotFound');
    expectStatus(await s.post(CS, { metadata: { name: 'x' } }), 405, 'MethodNotAllowed');
    expectStatus(await s.del(`${CS}/etcd-0`), 405, 'MethodNotAllowed');
  });
});
