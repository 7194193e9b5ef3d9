/**
 * Deleting a CRD whose objects are held by a finalizer: the CRD stays Terminating (its cleanup
 * finalizer, InstanceDeletionFailed while objects remain), creates are refused, and once the
 * object's finalizer goes, the CRD goes too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CRDS, cronTabCrd } from './fixtures.js';

const CT = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const NAME = 'crontabs.stable.example.com';

async function until<T>(fn: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('deleting a CRD with objects held by finalizers', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('stays Terminating and refuses creates until its objects are gone', async () => {
    expect((await s.post(CRDS, cronTabCrd())).status).toBe(201);
    await until(async () => ((await s.get(CT)).status === 200 ? true : undefined), 'served');
    const held = await s.post(CT, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'held', finalizers: ['example.com/hold'] }, spec: { cronSpec: '* * * * *' } });
    expect(held.status).toBe(201);
    const del = await s.request('DELETE', `${CRDS}/${NAME}`);
    expect(del.status).toBe(200);
    expect(del.body.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.orch.io']);
    expect(del.body.status.conditions.find((c: { type: string }) => c.type === 'Terminating')).toMatchObject({ status: 'True', reason: 'InstanceDeletionPending' });
    const failing = await until(async () => {
      const crd = (await s.get(`${CRDS}/${NAME}`)).body;
      const t = crd.status.conditions.find((c: { type: string }) => c.type === 'Terminating');
      return t?.reason === 'InstanceDeletionFailed' ? t : undefined;
    }, 'InstanceDeletionFailed');
    expect(failing.message).toContain('could not issue all deletes');
    const refused = await s.post(CT, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'late' }, spec: { cronSpec: '* * * * *' } });
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('create not allowed while custom resource definition is terminating');
    // The object is marked for deletion; its finalizer going lets it, then the CRD, go.
    expect((await s.patch(`${CT}/held`, { metadata: { finalizers: null } }, 'application/merge-patch+json')).status).toBe(200);
    await until(async () => ((await s.get(`${CRDS}/${NAME}`)).status === 404 ? true : undefined), 'the CRD to go');
    expect((await s.get(CT)).status).toBe(404);
  });
});
