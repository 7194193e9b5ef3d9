/**
 * Server-side apply on custom objects follows the schema's markers (document 1): a map list merges
 * by its keys and a set list by value, each entry owned by its applier; an unmarked list is atomic
 * (a second applier conflicts); without a schema every list is atomic. Also: a CRD and its objects
 * survive a restart of the server on the same store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CRDS, cronTabCrd } from './fixtures.js';

const APPLY = 'application/apply-patch+yaml';
const CT = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const CT_BETA = '/apis/stable.example.com/v1beta1/namespaces/default/crontabs';

async function waitServed(s: TestServer): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await s.get(CT)).status === 200) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the custom resource was never served');
}

const ct = (name: string, spec: Record<string, unknown>, version = 'v1') => ({ apiVersion: `stable.example.com/${version}`, kind: 'CronTab', metadata: { name }, spec: { cronSpec: '* * * * *', ...spec } });

describe('server-side apply on custom objects', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.post(CRDS, cronTabCrd())).status).toBe(201);
    await waitServed(s);
  });
  afterAll(() => s.close());

  it('merges map lists by key and set lists by value, each entry owned by its applier', async () => {
    let r = await s.patch(`${CT}/m?fieldManager=a`, ct('m', { ports: [{ name: 'http', port: 80 }], tags: ['x'] }), APPLY);
    expect(r.status, r.text).toBe(201);
    r = await s.patch(`${CT}/m?fieldManager=b`, ct('m', { ports: [{ name: 'https', port: 443 }], tags: ['y'] }), APPLY);
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.ports).toEqual([{ name: 'http', port: 80 }, { name: 'https', port: 443 }]);
    expect(r.body.spec.tags).toEqual(['x', 'y']);
    const b = r.body.metadata.managedFields.find((e: { manager: string }) => e.manager === 'b');
    expect(b.fieldsV1['f:spec']['f:ports']).toEqual({ 'k:{"name":"https"}': { '.': {}, 'f:name': {}, 'f:port': {} } });
    expect(b.fieldsV1['f:spec']['f:tags']).toEqual({ 'v:"y"': {} });
    // a gives up its entry: only b's remains.
    r = await s.patch(`${CT}/m?fieldManager=a`, ct('m', {}), APPLY);
    expect(r.body.spec.ports).toEqual([{ name: 'https', port: 443 }]);
    expect(r.body.spec.tags).toEqual(['y']);
  });

  it('treats an unmarked list as atomic: a second applier conflicts', async () => {
    await s.patch(`${CT}/atomic?fieldManager=a`, ct('atomic', { args: ['one'] }), APPLY);
    const r = await s.patch(`${CT}/atomic?fieldManager=b`, ct('atomic', { args: ['two'] }), APPLY);
    expect(r.status).toBe(409);
    expect(r.body.message).toContain('conflict with "a"');
    expect(r.body.message).toContain('.spec.args');
  });

  it('treats every list of a schema-less version as atomic', async () => {
    await s.patch(`${CT_BETA}/open?fieldManager=a`, ct('open', { ports: [{ name: 'http' }] }, 'v1beta1'), APPLY);
    const r = await s.patch(`${CT_BETA}/open?fieldManager=b`, ct('open', { ports: [{ name: 'https' }] }, 'v1beta1'), APPLY);
    expect(r.status).toBe(409);
  });
});

describe('custom resources across a restart', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-crd-restart-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the CRD and its objects again after the server restarts on the same store', async () => {
    let s = await startTestServer({ dataDir: dir });
    expect((await s.post(CRDS, cronTabCrd())).status).toBe(201);
    await waitServed(s);
    expect((await s.post(CT, ct('kept', { image: 'i' }))).status).toBe(201);
    await s.close();
    s = await startTestServer({ dataDir: dir });
    try {
      await waitServed(s);
      const got = await s.get(`${CT}/kept`);
      expect(got.status).toBe(200);
      expect(got.body.spec.image).toBe('i');
    } finally {
      await s.close();
    }
  });
});
