/**
 * The audit annotations of mutating webhooks, end to end: a real webhook patches, the audit log
 * shows `mutation.webhook.admission.orch.io/round_0_index_0` from level Metadata and the patch
 * annotation only from level Request, as in Kubernetes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookServer, type WebhookServer } from '../helpers/admission-webhook-server.mjs';
import { createConfiguration, eventually, hook, webhookPki, type WebhookPki } from '../helpers/admission-webhooks.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { auditIdOf, eventsOf, readEvents } from '../audit/helpers.js';

const POLICY = `apiVersion: audit.orch.io/v1
kind: Policy
rules:
- level: Metadata
  namespaces: ["meta"]
- level: Request
  namespaces: ["req"]
- level: None
`;

describe('audit annotations of mutating webhooks', () => {
  let dir: string;
  let pki: WebhookPki;
  let wh: WebhookServer;
  let s: TestServer;
  let logPath: string;
  let n = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-webhook-audit-'));
    logPath = join(dir, 'audit.log');
    pki = await webhookPki();
    wh = await startWebhookServer({ cert: pki.serving.certPem, key: pki.serving.keyPem });
    s = await startTestServer({ audit: { policyText: POLICY, log: { path: logPath } } });
    for (const ns of ['meta', 'req']) expect((await s.post('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
    await createConfiguration(s, 'mutating', 'audited', [hook({ name: 'audited.webhooks.test', url: `https://127.0.0.1:${wh.port}/patch/audited`, caBundle: pki.caBundle })]);
  });
  afterAll(async () => {
    await s?.close();
    await wh?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const annotationsOf = async (ns: string): Promise<Record<string, string>> => {
    const r = await eventually(() => s.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${++n}` } }), (x) => x.body?.metadata?.labels?.audited === 'yes');
    expect(r.status).toBe(201);
    const events = await eventsOf(() => readEvents(logPath), auditIdOf(r.headers));
    return events.find((e) => e.stage === 'ResponseComplete')?.annotations ?? {};
  };

  it('records the mutation at Metadata, without the patch', async () => {
    const a = await annotationsOf('meta');
    expect(a['mutation.webhook.admission.orch.io/round_0_index_0']).toBe('{"configuration":"audited","webhook":"audited.webhooks.test","mutated":true}');
    expect(a['patch.webhook.admission.orch.io/round_0_index_0']).toBeUndefined();
  });

  it('records the patch too at Request', async () => {
    const a = await annotationsOf('req');
    expect(a['mutation.webhook.admission.orch.io/round_0_index_0']).toBe('{"configuration":"audited","webhook":"audited.webhooks.test","mutated":true}');
    expect(JSON.parse(a['patch.webhook.admission.orch.io/round_0_index_0'] ?? '{}')).toEqual({
      configuration: 'audited',
      webhook: 'audited.webhooks.test',
      patch: [{ op: 'add', path: '/metadata/labels', value: { audited: 'yes' } }],
      patchType: 'JSONPatch',
    });
  });
});
