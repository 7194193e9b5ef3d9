/**
 * ABAC and a real HTTPS authorization webhook (started here, with its own CA) in combination with
 * RBAC, in both orders: the first mode with an opinion decides. The webhook's SubjectAccessReview
 * exchange in v1beta1 and v1, its decision cache, and what a failing webhook means.
 */
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { writeWebhookKubeconfig } from '../helpers/webhook-kubeconfig.js';
import { makeTestCertificates, type TestCertificates } from '../helpers/test-ca.js';
import { AUTHZ_V1, RBAC_V1, caller, eventually, roleBinding, userSubject } from './helpers.js';

interface Review {
  apiVersion: string;
  kind: string;
  spec: Record<string, any>;
}

let certs: TestCertificates;
let webhook: Server;
let webhookUrl: string;
const received: Review[] = [];
/** The webhook's policy: mallory is denied everything, wendy allowed everything, others get no opinion. */
let answer = (r: Review): Record<string, unknown> => {
  const user = r.spec.user as string;
  if (user === 'mallory') return { allowed: false, denied: true, reason: 'mallory is blocked by the webhook' };
  if (user === 'wendy') return { allowed: true, reason: 'wendy is welcome' };
  if (user === 'janus') return { allowed: true, denied: true, reason: 'two minds' };
  if (user === 'eve') return { allowed: false, reason: 'not listed', evaluationError: 'the directory is down' };
  return { allowed: false };
};

beforeAll(async () => {
  certs = await makeTestCertificates();
  webhook = createHttpsServer({ cert: certs.cert, key: certs.key }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const review = JSON.parse(body) as Review;
      received.push(review);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status: answer(review) }));
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  webhookUrl = `https://127.0.0.1:${(webhook.address() as AddressInfo).port}/authorize`;
});
afterAll(async () => {
  await new Promise<void>((r) => webhook.close(() => r()));
  certs.remove();
});

function kubeconfig(name: string, opts: { server?: string; withCa?: boolean } = {}): string {
  return writeWebhookKubeconfig(join(certs.dir, `${name}.kubeconfig`), { server: opts.server ?? webhookUrl, ...(opts.withCa === false ? {} : { certificateAuthority: 'ca.crt' }) });
}

function policyFile(lines: object[]): string {
  const path = join(certs.dir, `policy-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, lines.map((l) => JSON.stringify({ apiVersion: 'abac.authorization.orch.io/v1beta1', kind: 'Policy', spec: l })).join('\n'));
  return path;
}

const ABAC_POLICY = [
  { user: 'abby', namespace: 'team', resource: '*', apiGroup: '*' },
  { user: 'mallory', namespace: 'team', resource: 'configmaps', apiGroup: '' },
  { user: '*', namespace: 'team', resource: 'secrets', apiGroup: '', readonly: true },
];

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
  received.length = 0;
});

async function serverWith(modes: string[], extra: Record<string, unknown> = {}): Promise<TestServer> {
  s = await startTestServer({
    authorizationModes: modes,
    ...(modes.includes('ABAC') ? { authorizationPolicyFile: policyFile(ABAC_POLICY) } : {}),
    ...(modes.includes('Webhook') ? { authorizationWebhookConfigFile: kubeconfig('default') } : {}),
    authorizationWebhookRetry: { attempts: 2, initialBackoffMs: 10 },
    ...extra,
  });
  expect((await s.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
  // RBAC lets mallory and rita read configmaps in team.
  expect((await s.post(`${RBAC_V1}/namespaces/team/rolebindings`, roleBinding('readers', 'ClusterRole', 'view', [userSubject('mallory'), userSubject('rita')]))).status).toBe(201);
  await eventually(async () => (await caller(s!, 'rita').get('/api/v1/namespaces/team/configmaps')).status === 200, 'rita may read');
  return s;
}

const listConfigMaps = (server: TestServer, user: string, groups: string[] = []) => caller(server, user, groups).get('/api/v1/namespaces/team/configmaps');

describe('ABAC with RBAC', () => {
  it.each([[['RBAC', 'ABAC']], [['ABAC', 'RBAC']]])('%j: either grant allows; neither refuses with the reasons', async (modes) => {
    const server = await serverWith(modes);
    expect((await caller(server, 'abby').post('/api/v1/namespaces/team/configmaps', { metadata: { name: `abby-${(modes[0] as string).toLowerCase()}` } })).status).toBe(201);
    expect((await listConfigMaps(server, 'rita')).status).toBe(200);
    const r = await caller(server, 'nobody').get('/api/v1/namespaces/team/pods');
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('pods is forbidden: User "nobody" cannot list resource "pods" in API group "" in the namespace "team": No policy matched.');
  });

  it('a * line is every authenticated user, never the anonymous one', async () => {
    const server = await serverWith(['RBAC', 'ABAC']);
    expect((await caller(server, 'zoe', ['system:authenticated']).get('/api/v1/namespaces/team/secrets')).status).toBe(200);
    expect((await caller(server, 'zoe', ['system:authenticated']).post('/api/v1/namespaces/team/secrets', { metadata: { name: 'x' } })).status).toBe(403);
    expect((await caller(server, 'system:anonymous').get('/api/v1/namespaces/team/secrets')).status).toBe(403);
  });

  it('refuses to start with a bad policy file, naming the line', async () => {
    const bad = join(certs.dir, 'bad.jsonl');
    writeFileSync(bad, '{"apiVersion":"abac.authorization.orch.io/v1beta1","kind":"Policy","spec":{}}\n{oops\n');
    await expect(startTestServer({ authorizationModes: ['ABAC'], authorizationPolicyFile: bad })).rejects.toThrow(`error reading policy file ${bad}, line 2: {oops: `);
  });
});

describe('Webhook with RBAC and ABAC', () => {
  it('sends a v1beta1 SubjectAccessReview by default and follows its answer', async () => {
    const server = await serverWith(['Webhook', 'RBAC']);
    const denied = await listConfigMaps(server, 'mallory');
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('configmaps is forbidden: User "mallory" cannot list resource "configmaps" in API group "" in the namespace "team": mallory is blocked by the webhook');
    expect((await caller(server, 'wendy').get('/api/v1/nodes')).status).toBe(200);
    // No opinion from the webhook: RBAC decides.
    expect((await listConfigMaps(server, 'rita')).status).toBe(200);
    const review = received.find((r) => r.spec.user === 'mallory');
    expect(review).toEqual({
      apiVersion: 'authorization.orch.io/v1beta1',
      kind: 'SubjectAccessReview',
      spec: { user: 'mallory', group: ['system:authenticated'], resourceAttributes: { namespace: 'team', verb: 'list', version: 'v1', resource: 'configmaps' } },
    });
  });

  it('speaks v1 when asked (groups, not group)', async () => {
    const server = await serverWith(['Webhook', 'RBAC'], { authorizationWebhookVersion: 'v1' });
    expect((await caller(server, 'wendy').get('/version')).status).toBe(200);
    expect((await caller(server, 'wendy').get('/metrics')).status).toBe(200);
    const review = received.find((r) => r.spec.nonResourceAttributes?.path === '/metrics');
    expect(review).toEqual({ apiVersion: 'authorization.orch.io/v1', kind: 'SubjectAccessReview', spec: { user: 'wendy', groups: ['system:authenticated'], nonResourceAttributes: { path: '/metrics', verb: 'get' } } });
  });

  it.each([
    [['RBAC', 'ABAC', 'Webhook'], 200, 201],
    [['Webhook', 'ABAC', 'RBAC'], 403, 403],
  ])('%j: the first mode with an opinion decides (mallory: RBAC and ABAC allow, the webhook denies)', async (modes, listStatus, createStatus) => {
    const server = await serverWith(modes);
    expect((await listConfigMaps(server, 'mallory')).status).toBe(listStatus);
    expect((await caller(server, 'mallory').post('/api/v1/namespaces/team/configmaps', { metadata: { name: 'm' } })).status).toBe(createStatus);
    // Nobody has an opinion on nobody: the reasons of every mode that gave one.
    const r = await caller(server, 'nobody').get('/api/v1/namespaces/team/pods');
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/: No policy matched\.$/);
  });

  it('caches answers: an allow for the authorized TTL, a refusal for the unauthorized one', async () => {
    const server = await serverWith(['Webhook', 'RBAC'], { authorizationWebhookCacheAuthorizedTtlMs: 60_000, authorizationWebhookCacheUnauthorizedTtlMs: 0 });
    const calls = (user: string) => received.filter((r) => r.spec.user === user).length;
    for (let i = 0; i < 3; i++) expect((await caller(server, 'wendy').get('/api/v1/namespaces/team/pods')).status).toBe(200);
    expect(calls('wendy')).toBe(1);
    for (let i = 0; i < 3; i++) expect((await caller(server, 'nobody').get('/api/v1/namespaces/team/pods')).status).toBe(403);
    expect(calls('nobody')).toBe(3);
  });

  it('a cached allow outlives a change of the webhook\'s mind; a fresh question sees it', async () => {
    const server = await serverWith(['Webhook', 'RBAC'], { authorizationWebhookCacheAuthorizedTtlMs: 60_000 });
    expect((await caller(server, 'wendy').get('/api/v1/namespaces/team/pods')).status).toBe(200);
    const before = answer;
    answer = () => ({ allowed: false, denied: true, reason: 'changed my mind' });
    try {
      expect((await caller(server, 'wendy').get('/api/v1/namespaces/team/pods')).status).toBe(200);
      expect((await caller(server, 'wendy').get('/api/v1/namespaces/team/services')).status).toBe(403);
    } finally {
      answer = before;
    }
  });

  it('a webhook that cannot be reached fails the request with 500, unless a later mode allows', async () => {
    const server = await serverWith(['Webhook', 'RBAC'], { authorizationWebhookConfigFile: kubeconfig('down', { server: 'https://127.0.0.1:1/authorize' }) });
    const r = await caller(server, 'nobody').get('/api/v1/namespaces/team/pods');
    expect(r.status).toBe(500);
    expect(r.body.reason).toBe('InternalError');
    expect(r.body.message).toMatch(/^Internal error occurred: calling the authorization webhook: connect ECONNREFUSED/);
    expect((await listConfigMaps(server, 'rita')).status).toBe(200);
  });

  it('an answer both allowed and denied is an authorizer error: 500, whatever a later mode says', async () => {
    const server = await serverWith(['Webhook', 'RBAC']);
    const r = await caller(server, 'janus').get('/api/v1/namespaces/team/pods');
    expect(r.status).toBe(500);
    expect(r.body.message).toBe('Internal error occurred: webhook subject access review returned both allow and deny response');
  });

  it('a webhook that does not answer in time fails the request with 500, unless a later mode allows', async () => {
    const silent = createHttpsServer({ cert: certs.cert, key: certs.key }, () => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const url = `https://127.0.0.1:${(silent.address() as AddressInfo).port}/authorize`;
      const server = await serverWith(['Webhook', 'RBAC'], { authorizationWebhookConfigFile: kubeconfig('silent', { server: url }), authorizationWebhookTimeoutMs: 200 });
      const r = await caller(server, 'nobody').get('/api/v1/namespaces/team/pods');
      expect(r.status).toBe(500);
      expect(r.body.message).toBe('Internal error occurred: the authorization webhook did not answer in time');
      expect((await listConfigMaps(server, 'rita')).status).toBe(200);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it("a webhook's evaluationError is not passed on (as Kubernetes): no opinion with its reason", async () => {
    const server = await serverWith(['Webhook', 'RBAC']);
    const r = await caller(server, 'eve').get('/api/v1/namespaces/team/pods');
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('pods is forbidden: User "eve" cannot list resource "pods" in API group "" in the namespace "team": not listed');
    const review = await server.post(`${AUTHZ_V1}/subjectaccessreviews`, { spec: { user: 'eve', resourceAttributes: { namespace: 'team', verb: 'list', resource: 'pods' } } });
    expect(review.body.status).toEqual({ allowed: false, reason: 'not listed' });
  });

  it('a webhook whose certificate is not trusted is not believed', async () => {
    const server = await serverWith(['Webhook', 'RBAC'], { authorizationWebhookConfigFile: kubeconfig('no-ca', { withCa: false }) });
    const r = await caller(server, 'wendy').get('/api/v1/nodes');
    expect(r.status).toBe(500);
    expect(r.body.message).toMatch(/certificate/);
    expect(received).toHaveLength(0);
  });

  it('a webhook cannot list rules: SelfSubjectRulesReview is incomplete, with why', async () => {
    const server = await serverWith(['RBAC', 'Webhook']);
    const r = await caller(server, 'rita').post(`${AUTHZ_V1}/selfsubjectrulesreviews`, { spec: { namespace: 'team' } });
    expect(r.status).toBe(201);
    expect(r.body.status).toMatchObject({ incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' });
  });
});
