/**
 * OpenID Connect and webhook token authentication end to end: a server over HTTPS under
 * --api-domain=k8s.io with a small HTTPS identity provider and a token-review webhook that this test
 * starts on loopback. Who the server takes a caller for is read from a dry-run CSR (Kubernetes 1.25
 * has no "who am I"). Good tokens are their users, for HTTP clients and for unmodified kubectl
 * (the one on PATH and 1.27) with `token:` in its kubeconfig; every bad one is a plain 401 that
 * changes nothing, and no token reaches the server's log.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type OrchServer } from '../../src/index.js';
import type { Logger } from '../../src/machinery/logger.js';
import { startIdentityProvider, type IdentityProvider } from '../helpers/identity-provider.js';
import { installedKubectls, runKubectl, type Kubectl } from '../helpers/kubectl.js';
import { httpCall, type Target } from '../helpers/server.js';
import { startTokenReviewWebhook, type TokenReviewWebhook } from '../helpers/token-review-webhook.js';
import { csrDryRunBody, whoami } from '../helpers/whoami.js';

const DOMAIN = 'k8s.io';
const CM = '/api/v1/namespaces/default/configmaps';
let idp: IdentityProvider;
let hook: TokenReviewWebhook;
let server: OrchServer;
let dir: string;
const logLines: string[] = [];
const capture =
  (level: string) =>
  (msg: string, fields?: Record<string, unknown>): void =>
    void logLines.push(`${level} ${msg} ${JSON.stringify(fields ?? {})}`);
const logger: Logger = { debug: capture('debug'), info: capture('info'), warn: capture('warn'), error: capture('error') };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-external-authn-'));
  idp = await startIdentityProvider();
  hook = await startTokenReviewWebhook();
  hook.decide('webhook-token-jane', { authenticated: true, user: { username: 'jane@corp', uid: 'corp-17', groups: ['corp:dev'] } });
  hook.decide('webhook-token-revoked', { authenticated: false, error: 'token revoked by the corp directory' });
  server = await createServer({
    port: 0,
    storageBackend: 'memory',
    apiDomain: DOMAIN,
    logger,
    oidc: { issuerUrl: idp.issuer, clientId: idp.clientId, caFile: idp.caFile, groupsClaim: 'groups', groupsPrefix: 'oidc:', requiredClaims: { tenant: 'acme' }, keyRefreshIntervalMs: 0 },
    tokenWebhook: { configFile: hook.kubeconfigFile },
  });
});
afterAll(async () => {
  await server?.close();
  await idp?.close();
  await hook?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A client that trusts the server's CA and presents no certificate: the bearer token is its only credential. */
const client = (): Target => ({ url: server.url, tls: { ca: server.tls?.caPem } });
const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const admin = (): Target => ({ url: server.url, tls: server.tls!.clientOptions });
const goodIdToken = (claims: Record<string, unknown> = {}) => idp.idToken({ sub: 'alice', groups: ['dev', 'ops'], tenant: 'acme', ...claims });

/** A refused write: 401 with Kubernetes' Status, the object not there afterwards, the token in no log line. */
async function expectRefused(token: string): Promise<void> {
  const name = `refused-${Math.random().toString(36).slice(2, 8)}`;
  const r = await httpCall(client(), 'POST', CM, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }, headers: bearer(token) });
  expect(r.status).toBe(401);
  expect(r.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  expect((await httpCall(admin(), 'GET', `${CM}/${name}`)).status).toBe(404);
  expect(logLines.join('\n')).not.toContain(token);
}

describe('OpenID Connect tokens over HTTPS', () => {
  it('an id_token of the issuer is its user: issuer#sub, prefixed groups, system:authenticated', async () => {
    const token = await goodIdToken();
    const { reply, user } = await whoami(client(), bearer(token), DOMAIN);
    expect(reply.status).toBe(201);
    expect(user).toEqual({ username: `${idp.issuer}#alice`, groups: ['oidc:dev', 'oidc:ops', 'system:authenticated'] });
    expect(logLines.join('\n')).not.toContain(token);
  });

  it.each<[string, () => Promise<string>]>([
    ['forged (signed by another key under the same kid)', () => idp.idToken({ sub: 'alice', tenant: 'acme' }, { signWith: 'stranger' })],
    ['expired', () => goodIdToken({ exp: Math.floor(Date.now() / 1000) - 10 })],
    ['of another issuer', () => goodIdToken({ iss: 'https://issuer.invalid' })],
    ['for another audience', () => goodIdToken({ aud: 'another-client' })],
    ['without the required claim', () => goodIdToken({ tenant: undefined })],
    ['with another value of the required claim', () => goodIdToken({ tenant: 'umbrella' })],
    ['with an unknown key id', () => idp.idToken({ sub: 'alice', tenant: 'acme' }, { kid: 'unknown-kid' })],
    ['with a damaged signature', async () => `${(await goodIdToken()).slice(0, -12)}!!`],
    ['not a JWT at all', async () => 'definitely-not-a-jwt'],
  ])('%s: 401, nothing changed', async (_name, make) => {
    await expectRefused(await make());
  });

  it('a token with an unknown key id makes the server re-read the key set once, not per request', async () => {
    const before = idp.reads.keys;
    await expectRefused(await idp.idToken({ sub: 'alice', tenant: 'acme' }, { kid: 'another-unknown-kid' }));
    expect(idp.reads.keys - before).toBe(1);
    const token = await goodIdToken();
    for (let i = 0; i < 3; i++) expect((await whoami(client(), bearer(token), DOMAIN)).reply.status).toBe(201);
    expect(idp.reads.keys - before).toBe(1);
  });
});

describe('webhook token authentication over HTTPS', () => {
  it('a token the webhook approves is its user; within the TTL the webhook is asked once', async () => {
    const before = hook.calls();
    for (let i = 0; i < 3; i++) {
      const { user } = await whoami(client(), bearer('webhook-token-jane'), DOMAIN);
      expect(user).toEqual({ username: 'jane@corp', uid: 'corp-17', groups: ['corp:dev', 'system:authenticated'] });
    }
    expect(hook.calls() - before).toBe(1);
    expect(hook.received.at(-1)).toMatchObject({ apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview', caller: 'orch-apiserver' });
  });

  it('a denial with status.error is a plain 401, the error in the log', async () => {
    await expectRefused('webhook-token-revoked');
    expect(logLines.some((l) => l.includes('token revoked by the corp directory'))).toBe(true);
  });

  it('a denial without an error is a plain 401', async () => {
    await expectRefused('webhook-token-nobody-knows');
  });

  it('a webhook that is down means 401, with the reason logged', async () => {
    const down = await createServer({ port: 0, storageBackend: 'memory', apiDomain: DOMAIN, logger, tokenWebhook: { configFile: hook.kubeconfigFile } });
    try {
      hook.failWith = 503;
      const token = 'webhook-token-while-down';
      const r = await httpCall({ url: down.url, tls: { ca: down.tls?.caPem } }, 'GET', CM, { headers: bearer(token) });
      expect(r.status).toBe(401);
      expect(r.body.message).toBe('Unauthorized');
      expect(logLines.some((l) => l.includes('Failed to make webhook authenticator request') && l.includes('503'))).toBe(true);
      expect(logLines.join('\n')).not.toContain(token);
    } finally {
      hook.failWith = undefined;
      await down.close();
    }
  });
});

describe('TokenReview served here', () => {
  const review = async (token: string) =>
    (await httpCall(admin(), 'POST', `/apis/authentication.${DOMAIN}/v1/tokenreviews`, { body: { apiVersion: `authentication.${DOMAIN}/v1`, kind: 'TokenReview', spec: { token } } })).body;

  it('reviews OIDC and webhook tokens through the same authenticators', async () => {
    expect((await review(await goodIdToken())).status).toMatchObject({ authenticated: true, user: { username: `${idp.issuer}#alice`, groups: ['oidc:dev', 'oidc:ops', 'system:authenticated'] } });
    expect((await review('webhook-token-jane')).status).toMatchObject({ authenticated: true, user: { username: 'jane@corp', uid: 'corp-17' } });
    const expired = await review(await goodIdToken({ exp: Math.floor(Date.now() / 1000) - 10 }));
    expect(expired.status.authenticated).toBeFalsy();
  });
});

/** The kubectl on PATH and kubectl 1.27 beside the binary it points to, where installed. */
function pickedKubectls(): Kubectl[] {
  const { found } = installedKubectls();
  return found.filter((k) => k.onPath || k.minor === 27);
}

const kubectls = pickedKubectls();
describe.skipIf(kubectls.length === 0)('kubectl with a bearer token in its kubeconfig', () => {
  function kubeconfigWith(token: string, name: string): { env: NodeJS.ProcessEnv } {
    const home = join(dir, `home-${name}`);
    const file = join(dir, `kubeconfig-${name}`);
    writeFileSync(
      file,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'orch', cluster: { server: server.url, 'certificate-authority-data': Buffer.from(server.tls?.caPem ?? '').toString('base64') } }],
        users: [{ name: 'someone', user: { token } }],
        contexts: [{ name: 'orch', context: { cluster: 'orch', user: 'someone' } }],
        'current-context': 'orch',
      }),
    );
    return { env: { KUBECONFIG: file, HOME: home } };
  }
  const csrFile = (): string => {
    const p = join(dir, 'whoami-csr.json');
    writeFileSync(p, JSON.stringify(csrDryRunBody(DOMAIN)));
    return p;
  };

  it.each(kubectls.map((k) => [k.label, k] as const))('%s: an OIDC id_token and a webhook-checked token are their users; a forged one is Unauthorized', async (label, k) => {
    const id = label.replace(/\W+/g, '-');
    const oidc = kubeconfigWith(await goodIdToken(), `oidc-${id}`);
    const list = await runKubectl(k.bin, ['get', 'namespaces', '-o', 'name'], oidc);
    expect(list.stderr).toBe('');
    expect(list.stdout).toContain('namespace/default');
    const asOidc = await runKubectl(k.bin, ['create', '-f', csrFile(), '--dry-run=server', '-o', 'jsonpath={.spec.username} {.spec.groups}'], oidc);
    expect(asOidc.stderr).toBe('');
    expect(asOidc.stdout).toBe(`${idp.issuer}#alice ["oidc:dev","oidc:ops","system:authenticated"]`);

    const webhook = kubeconfigWith('webhook-token-jane', `webhook-${id}`);
    const asWebhook = await runKubectl(k.bin, ['create', '-f', csrFile(), '--dry-run=server', '-o', 'jsonpath={.spec.username} {.spec.uid}'], webhook);
    expect(asWebhook.stderr).toBe('');
    expect(asWebhook.stdout).toBe('jane@corp corp-17');

    const forged = kubeconfigWith(await idp.idToken({ sub: 'alice', tenant: 'acme' }, { signWith: 'stranger' }), `forged-${id}`);
    const refused = await runKubectl(k.bin, ['create', 'configmap', `forged-${id.toLowerCase()}`], forged);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Unauthorized|You must be logged in to the server/);
    expect((await httpCall(admin(), 'GET', `${CM}/forged-${id.toLowerCase()}`)).status).toBe(404);
  });
});
