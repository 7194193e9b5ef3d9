/**
 * Static tokens, the authenticating proxy and TokenReview over a real HTTPS listener, and the rule
 * that credentials never reach the log: one server with --token-auth-file and --requestheader-*,
 * its log captured.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type OrchServer } from '../../src/index.js';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../src/machinery/x509/certificates.js';
import { memoryLogger, type ChainServer } from '../helpers/chain-server.js';
import { httpCall, type Target } from '../helpers/server.js';
import { whoami } from '../helpers/whoami.js';

const CM = '/api/v1/namespaces/default/configmaps';
const TOKEN = 'tok-3f9a1c0d7e2b5a46';
const BAD_TOKEN = 'never-log-this-9b1e77c2d4';
let dir: string;
let server: OrchServer;
let proxyCa: CertificateAndKey;
let proxyCert: CertificateAndKey;
const logs: ChainServer['logs'] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-authn-methods-'));
  writeFileSync(join(dir, 'tokens.csv'), `${TOKEN},jane,1001,"dev,qa"\nother-token,bob,1002\n`);
  proxyCa = await createCertificateAuthority('front-proxy-ca', 1);
  proxyCert = await issueCertificate(proxyCa, { commonName: 'front-proxy', usage: 'client', validForDays: 1 });
  writeFileSync(join(dir, 'proxy-ca.crt'), proxyCa.certPem);
  server = await createServer({
    port: 0,
    logger: memoryLogger(logs),
    dataDir: dir,
    storageBackend: 'memory',
    tokenAuthFile: join(dir, 'tokens.csv'),
    requestheaderClientCaFile: join(dir, 'proxy-ca.crt'),
    requestheaderAllowedNames: ['front-proxy'],
    requestheaderUsernameHeaders: ['X-Remote-User'],
    requestheaderGroupHeaders: ['X-Remote-Group'],
    requestheaderExtraHeadersPrefix: ['X-Remote-Extra-'],
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const anonymous = (): Target => ({ url: server.url, tls: { ca: server.tls?.caPem } });
const withCert = (cert: CertificateAndKey): Target => ({ url: server.url, tls: { ca: server.tls?.caPem, cert: cert.certPem, key: cert.keyPem } });
const tokenReview = (token: string, audiences?: string[]) =>
  httpCall({ url: server.url, tls: server.tls!.clientOptions }, 'POST', '/apis/authentication.orch.io/v1/tokenreviews', {
    body: { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } },
  });

describe('static tokens', () => {
  it('a token of the file is its user, with its uid and groups', async () => {
    expect((await whoami(anonymous(), { Authorization: `Bearer ${TOKEN}` })).user).toEqual({ username: 'jane', uid: '1001', groups: ['dev', 'qa', 'system:authenticated'] });
  });

  it.each([`Bearer ${BAD_TOKEN}`, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`])('%j gets 401, and nothing is written', async (authorization) => {
    const r = await httpCall(anonymous(), 'POST', CM, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'by-bad-token' } }, headers: { Authorization: authorization } });
    expect(r.status).toBe(401);
    expect(r.body.reason).toBe('Unauthorized');
    expect((await httpCall({ url: server.url, tls: server.tls!.clientOptions }, 'GET', `${CM}/by-bad-token`)).status).toBe(404);
  });
});

describe('authenticating proxy', () => {
  const identity = { 'X-Remote-User': 'alice', 'X-Remote-Group': 'system:masters', 'X-Remote-Extra-Acme.com%2Fproject': 'apollo' };

  it('the proxy certificate makes the headers count: user, groups and decoded extra keys', async () => {
    expect((await whoami(withCert(proxyCert), identity)).user).toEqual({ username: 'alice', groups: ['system:masters', 'system:authenticated'], extra: { 'acme.com/project': ['apollo'] } });
  });

  it('the headers of a caller without the proxy certificate are ignored: it is anonymous, or whoever its credential says', async () => {
    expect((await whoami(anonymous(), identity)).user).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
    expect((await whoami(anonymous(), { ...identity, Authorization: `Bearer ${TOKEN}` })).user?.username).toBe('jane');
    expect((await whoami({ url: server.url, tls: server.tls!.clientOptions }, identity)).user?.username).toBe('orch-admin');
  });

  it('a certificate of the proxy CA with a CN that is not allowed gets 401', async () => {
    const stranger = await issueCertificate(proxyCa, { commonName: 'stranger', usage: 'client', validForDays: 1 });
    expect((await whoami(withCert(stranger), identity)).reply.status).toBe(401);
  });

  it('the proxy certificate without a user header proves nobody: 401', async () => {
    expect((await whoami(withCert(proxyCert))).reply.status).toBe(401);
  });
});

describe('TokenReview', () => {
  it("answers with the server's decision and stores nothing", async () => {
    const r = await tokenReview(TOKEN);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', spec: { token: TOKEN } });
    expect(r.body.status).toEqual({ authenticated: true, user: { username: 'jane', uid: '1001', groups: ['dev', 'qa', 'system:authenticated'], extra: {} } });
    const bad = await tokenReview(BAD_TOKEN);
    expect(bad.status).toBe(201);
    expect(bad.body.status).toEqual({ authenticated: false, error: 'invalid bearer token' });
    const list = await httpCall({ url: server.url, tls: server.tls!.clientOptions }, 'GET', '/apis/authentication.orch.io/v1/tokenreviews');
    expect(list.status).toBe(405);
  });

  it('a token of the file is good for the API server only: asked for other audiences, it does not authenticate', async () => {
    const r = await tokenReview(TOKEN, ['some-other-service']);
    expect(r.body.status).toEqual({ authenticated: false, error: 'invalid bearer token' });
  });

  it('refuses a review without a token, as Kubernetes', async () => {
    const r = await httpCall({ url: server.url, tls: server.tls!.clientOptions }, 'POST', '/apis/authentication.orch.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', spec: {} },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('token is required for TokenReview in authentication');
  });

  it('is served in discovery as create only, cluster-scoped', async () => {
    const r = await httpCall({ url: server.url, tls: server.tls!.clientOptions }, 'GET', '/apis/authentication.orch.io/v1');
    expect(r.body.resources).toEqual([expect.objectContaining({ name: 'tokenreviews', kind: 'TokenReview', namespaced: false, verbs: ['create'] })]);
  });
});

describe('credentials never reach the log', () => {
  it('a bad token, a good token and the proxy headers appear nowhere in what the server logged', async () => {
    expect(logs.some((l) => l.msg === 'unable to authenticate the request')).toBe(true);
    const text = JSON.stringify(logs);
    for (const secret of [BAD_TOKEN, TOKEN, 'apollo']) expect(text).not.toContain(secret);
    const metrics = await httpCall({ url: server.url, tls: server.tls!.clientOptions }, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    for (const secret of [BAD_TOKEN, TOKEN, 'apollo']) expect(metrics.text).not.toContain(secret);
  });
});
