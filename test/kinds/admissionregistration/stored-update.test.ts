/**
 * The looser rules for existing configurations: a configuration that an older server stored (with
 * side effects Unknown, no AdmissionReview version this server speaks, duplicate webhook names, a
 * selector value no longer valid) can still be updated while it keeps those problems, though no
 * new configuration may have them. The stored object is planted in a real SQLite file between two
 * server runs, as an upgrade would leave it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteKV } from '../../../src/storage/sqlite/sqlite-kv.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { causesOf, expectInvalid } from '../rbac/helpers.js';

const GROUP = 'admissionregistration.orch.io';
const MERGE = 'application/merge-patch+json';

const hook = (name: string): Record<string, unknown> => ({
  name,
  clientConfig: { url: 'https://hooks.example.com/check' },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
});

/** What an older server might have stored: each webhook breaks one of today's create rules. */
function legacy(webhooks: any[]): any[] {
  const [a, b] = webhooks.map((w) => structuredClone(w));
  a.sideEffects = 'Unknown';
  a.admissionReviewVersions = ['v1alpha0'];
  a.objectSelector = { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front end'] }] };
  b.name = a.name;
  return [a, b];
}

describe.each([
  ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'],
  ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'],
])('%s stored by an older server', (kind, resource) => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-webhook-legacy-'));
  const path = `/apis/${GROUP}/v1/${resource}`;
  let s: TestServer;

  beforeAll(async () => {
    const first = await startTestServer({ dataDir: dir });
    const created = await first.post(path, { metadata: { name: 'old' }, webhooks: [hook('a.example.com'), hook('b.example.com')] });
    expect(created.status, created.text).toBe(201);
    await first.close();

    const kv = createSqliteKV({ path: join(dir, 'state.db') });
    const { entries: items } = await kv.list(`/registry/${GROUP}/${resource}/`);
    const entry = items.find((e) => e.key.endsWith('/old'));
    if (!entry) throw new Error(`stored configuration not found among ${items.map((e) => e.key).join(', ')}`);
    const obj = JSON.parse(entry.value);
    obj.webhooks = legacy(obj.webhooks);
    await kv.update(entry.key, JSON.stringify(obj), entry.modRevision);
    await kv.close();

    s = await startTestServer({ dataDir: dir });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes updates that keep the stored problems', async () => {
    const labelled = await s.patch(`${path}/old`, { metadata: { labels: { touched: 'yes' } } }, MERGE);
    expect(labelled.status, labelled.text).toBe(200);
    const current = labelled.body;
    current.webhooks[1].timeoutSeconds = 5;
    const changed = await s.put(`${path}/old`, current);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.webhooks[0].sideEffects).toBe('Unknown');
    expect(changed.body.webhooks[1].timeoutSeconds).toBe(5);
  });

  it('still checks what the stored object did not break', async () => {
    const current = (await s.get(`${path}/old`)).body;
    current.webhooks[1].timeoutSeconds = 60;
    const st = expectInvalid(await s.put(`${path}/old`, current), kind, 'old');
    expect(causesOf(st)).toEqual([['FieldValueInvalid', 'webhooks[1].timeoutSeconds', 'Invalid value: 60: the timeout value must be between 1 and 30 seconds']]);
  });

  it('refuses the same content in a new configuration', async () => {
    const current = (await s.get(`${path}/old`)).body;
    const st = expectInvalid(await s.post(path, { metadata: { name: 'new' }, webhooks: current.webhooks }), kind, 'new');
    expect(causesOf(st).map((c) => c.slice(0, 2))).toEqual([
      ['FieldValueNotSupported', 'webhooks[0].sideEffects'],
      ['FieldValueInvalid', 'webhooks[0].objectSelector.matchExpressions[0].values[0]'],
      ['FieldValueInvalid', 'webhooks[0].admissionReviewVersions'],
      ['FieldValueDuplicate', 'webhooks[1].name'],
    ]);
  });
});
