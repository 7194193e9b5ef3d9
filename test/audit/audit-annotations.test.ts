/**
 * The audit annotations other parts of the server add, end to end on an HTTPS server with a policy
 * file and the log file read back: a real HTTPS mutating webhook (caBundle) that patches and one
 * that only allows (`mutation.webhook.admission.orch.io/round_0_index_N` from Metadata, the
 * `patch.` annotation only from Request, as Kubernetes 1.25 writes them), and authorization's
 * decision and reason (`authorization.orch.io/decision`, `/reason`) for an allowed and a forbidden
 * request. The deprecated endpoint's `orch.io/deprecated` is asserted in audit-log.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookServer, type WebhookServer } from '../helpers/admission-webhook-server.mjs';
import { createConfiguration, eventually, hook, webhookPki } from '../helpers/admission-webhooks.js';
import { grantClusterRoleToGroup } from '../helpers/rbac-grants.js';
import { httpCall, startTestServer, type Target, type TestServer } from '../helpers/server.js';
import { auditIdOf, eventsOf, readEvents, type LoggedEvent } from './helpers.js';

const POLICY = `apiVersion: audit.orch.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
- level: Metadata
  namespaces: ["meta"]
- level: Request
  namespaces: ["req"]
- level: RequestResponse
  namespaces: ["rr"]
- level: Metadata
`;

const MUTATED = '{"configuration":"audited","webhook":"patcher.webhooks.test","mutated":true}';
const UNMUTATED = '{"configuration":"audited","webhook":"allower.webhooks.test","mutated":false}';
const PATCH = { configuration: 'audited', webhook: 'patcher.webhooks.test', patch: [{ op: 'add', path: '/metadata/labels', value: { audited: 'yes' } }], patchType: 'JSONPatch' };
const MUTATION_0 = 'mutation.webhook.admission.orch.io/round_0_index_0';
const MUTATION_1 = 'mutation.webhook.admission.orch.io/round_0_index_1';
const PATCH_0 = 'patch.webhook.admission.orch.io/round_0_index_0';
const PATCH_1 = 'patch.webhook.admission.orch.io/round_0_index_1';

let dir: string;
let logPath: string;
let wh: WebhookServer;
let s: TestServer;
let tina: Target;
let n = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-audit-annotations-'));
  logPath = join(dir, 'audit.log');
  writeFileSync(join(dir, 'policy.yaml'), POLICY);
  writeFileSync(join(dir, 'tokens.csv'), 'tina-token,tina,uid-tina,"dev"\n');
  const pki = await webhookPki();
  wh = await startWebhookServer({ cert: pki.serving.certPem, key: pki.serving.keyPem });
  s = await startTestServer({ tls: true, tokenAuthFile: join(dir, 'tokens.csv'), audit: { policyFile: join(dir, 'policy.yaml'), log: { path: logPath } } });
  tina = { url: s.url, tls: { ca: s.tls?.ca as string } };
  for (const ns of ['meta', 'req', 'rr']) expect((await s.post('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  // Two webhooks in one configuration: index 0 patches, index 1 allows without a patch.
  await createConfiguration(s, 'mutating', 'audited', [
    hook({ name: 'patcher.webhooks.test', url: `https://127.0.0.1:${wh.port}/patch/audited`, caBundle: pki.caBundle }),
    hook({ name: 'allower.webhooks.test', url: `https://127.0.0.1:${wh.port}/allow`, caBundle: pki.caBundle }),
  ]);
  await grantClusterRoleToGroup(s.target, 'view', 'dev');
});

afterAll(async () => {
  await s?.close();
  await wh?.close();
  rmSync(dir, { recursive: true, force: true });
});

const completed = (evs: LoggedEvent[]): LoggedEvent => {
  const done = evs.find((e) => e.stage === 'ResponseComplete');
  if (!done) throw new Error('no ResponseComplete event');
  return done;
};

/** Creates a config map through the webhooks (once the configuration is in force) and returns its events. */
async function createThroughWebhooks(ns: string): Promise<LoggedEvent[]> {
  const r = await eventually(() => s.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${++n}` } }), (x) => x.body?.metadata?.labels?.audited === 'yes');
  expect(r.status).toBe(201);
  return eventsOf(() => readEvents(logPath), auditIdOf(r.headers));
}

describe('the mutating webhooks’ audit annotations', () => {
  it('at Metadata: mutated true for the patching webhook, false for the allowing one, and no patch', async () => {
    const evs = await createThroughWebhooks('meta');
    const done = completed(evs);
    expect(done.level).toBe('Metadata');
    expect(done.annotations?.[MUTATION_0]).toBe(MUTATED);
    expect(done.annotations?.[MUTATION_1]).toBe(UNMUTATED);
    expect(done.annotations?.[PATCH_0]).toBeUndefined();
    expect(done.annotations?.[PATCH_1]).toBeUndefined();
    // Admission runs after the RequestReceived event is written: that one carries none of them.
    expect(evs.find((e) => e.stage === 'RequestReceived')?.annotations?.[MUTATION_0]).toBeUndefined();
  });

  for (const [ns, level] of [
    ['req', 'Request'],
    ['rr', 'RequestResponse'],
  ] as const) {
    it(`at ${level}: the patch and its type too, only for the webhook that patched`, async () => {
      const done = completed(await createThroughWebhooks(ns));
      expect(done.level).toBe(level);
      expect(done.annotations?.[MUTATION_0]).toBe(MUTATED);
      expect(done.annotations?.[MUTATION_1]).toBe(UNMUTATED);
      // Go's encoding: keys in the struct's order, the patch operations' keys sorted.
      expect(done.annotations?.[PATCH_0]).toBe(JSON.stringify(PATCH));
      expect(done.annotations?.[PATCH_1]).toBeUndefined();
    });
  }
});

describe('authorization’s audit annotations', () => {
  it('records allow with the RBAC reason for a user a binding allows', async () => {
    const r = await httpCall(tina, 'GET', '/api/v1/namespaces/meta/configmaps', { headers: { authorization: 'Bearer tina-token' } });
    expect(r.status).toBe(200);
    const done = completed(await eventsOf(() => readEvents(logPath), auditIdOf(r.headers)));
    expect(done.user.username).toBe('tina');
    expect(done.annotations).toMatchObject({
      'authorization.orch.io/decision': 'allow',
      'authorization.orch.io/reason': 'RBAC: allowed by ClusterRoleBinding "test-view-dev" of ClusterRole "view" to Group "dev"',
    });
  });

  it('records forbid, with the reason RBAC gives (none), for a request the policy does not allow', async () => {
    const r = await httpCall(tina, 'POST', '/api/v1/namespaces/meta/configmaps', { headers: { authorization: 'Bearer tina-token' }, body: { metadata: { name: 'nope' } } });
    expect(r.status).toBe(403);
    expect(r.body?.message).toBe('configmaps is forbidden: User "tina" cannot create resource "configmaps" in API group "" in the namespace "meta"');
    const done = completed(await eventsOf(() => readEvents(logPath), auditIdOf(r.headers)));
    expect(done.responseStatus?.code).toBe(403);
    expect(done.annotations).toMatchObject({ 'authorization.orch.io/decision': 'forbid', 'authorization.orch.io/reason': '' });
    // Refused before admission: no webhook annotation.
    expect(done.annotations?.[MUTATION_0]).toBeUndefined();
  });

  it('records allow with an empty reason for system:masters, allowed ahead of RBAC', async () => {
    const r = await s.get('/api/v1/namespaces/meta/configmaps');
    expect(r.status).toBe(200);
    const done = completed(await eventsOf(() => readEvents(logPath), auditIdOf(r.headers)));
    expect(done.annotations).toMatchObject({ 'authorization.orch.io/decision': 'allow', 'authorization.orch.io/reason': '' });
  });
});
