/**
 * Stored configurations the API would refuse today (an older server wrote them; here the SQLite
 * file is edited while the server is stopped): a webhook with no usable AdmissionReview version
 * fails its calls, as failurePolicy says; a webhook with side effects refuses dry runs unsent.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookServer, type WebhookServer } from '../helpers/admission-webhook-server.mjs';
import { createConfiguration, deleteConfiguration, eventually, hook, metric, webhookCalls, webhookPki, type WebhookPki } from '../helpers/admission-webhooks.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CM = '/api/v1/namespaces/default/configmaps';

/** Rewrites the newest stored revision of the configuration `name` with `edit`. */
function editStored(dataDir: string, name: string, edit: (obj: { webhooks: Record<string, unknown>[] }) => void): void {
  const db = new Database(join(dataDir, 'state.db'));
  try {
    const row = db.prepare('SELECT revision, value FROM kv WHERE key LIKE ? ORDER BY revision DESC LIMIT 1').get(`%/validatingwebhookconfigurations/${name}`) as { revision: number; value: string };
    const obj = JSON.parse(row.value) as { webhooks: Record<string, unknown>[] };
    edit(obj);
    db.prepare('UPDATE kv SET value = ? WHERE revision = ?').run(JSON.stringify(obj), row.revision);
  } finally {
    db.close();
  }
}

describe('stored webhook configurations the API no longer accepts', () => {
  let dir: string;
  let pki: WebhookPki;
  let wh: WebhookServer;
  let s: TestServer;
  let n = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-webhook-stored-'));
    pki = await webhookPki();
    wh = await startWebhookServer({ cert: pki.serving.certPem, key: pki.serving.keyPem });
    const url = (path: string) => ({ url: `https://127.0.0.1:${wh.port}${path}`, caBundle: pki.caBundle });
    const first = await startTestServer({ dataDir: dir });
    await createConfiguration(first, 'validating', 'noversion', [hook({ name: 'noversion.webhooks.test', ...url('/allow') })]);
    await createConfiguration(first, 'validating', 'sideeffects', [hook({ name: 'sideeffects.webhooks.test', ...url('/allow') })]);
    await first.close();
    editStored(dir, 'noversion', (c) => {
      (c.webhooks[0] as Record<string, unknown>).admissionReviewVersions = ['v9'];
    });
    editStored(dir, 'sideeffects', (c) => {
      (c.webhooks[0] as Record<string, unknown>).sideEffects = 'Some';
    });
    s = await startTestServer({ dataDir: dir });
  });
  afterAll(async () => {
    await s?.close();
    await wh?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails every call of a webhook with no usable AdmissionReview version (failurePolicy Fail)', async () => {
    const r = await s.post(CM, { metadata: { name: `cm-${++n}` } });
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      'Internal error occurred: failed calling webhook "noversion.webhooks.test": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    );
    expect(await metric(s, 'apiserver_admission_webhook_rejection_count', { name: 'noversion.webhooks.test', error_type: 'calling_webhook_error', rejection_code: '400' })).toBe(1);
    await deleteConfiguration(s, 'validating', 'noversion');
  });

  it('refuses a dry run that would reach a webhook with side effects, without sending it', async () => {
    await webhookCalls('127.0.0.1', wh.port, { ca: pki.ca.certPem }, true);
    const dry = await eventually(() => s.post(`${CM}?dryRun=All`, { metadata: { name: `cm-${++n}` } }), (x) => x.status !== 500);
    expect(dry.status).toBe(400);
    expect(dry.body.message).toBe('admission webhook "sideeffects.webhooks.test" does not support dry run');
    expect(await webhookCalls('127.0.0.1', wh.port, { ca: pki.ca.certPem })).toEqual([]);
    const real = await s.post(CM, { metadata: { name: `cm-${++n}` } });
    expect(real.status).toBe(201);
    expect((await webhookCalls('127.0.0.1', wh.port, { ca: pki.ca.certPem })).map((c) => c.review.request.dryRun)).toEqual([false]);
  });
});
