/**
 * Service-account and bootstrap tokens over real HTTPS: TokenRequest answers, who each token proves
 * (read back from a CertificateSigningRequest, which records its requester), revocation when the
 * account, Secret or Pod goes, and 401 for forged, expired, wrong-issuer, wrong-audience, revoked
 * and malformed tokens with nothing changed and no credential in a log line or an answer.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../helpers/chain-server.js';
import { grantClusterRoleToGroup } from '../helpers/rbac-grants.js';
import { httpCall, startTestServer, type Reply, type TestServer } from '../helpers/server.js';
import { letEveryoneAskWhoami } from '../helpers/whoami.js';
import { EC_CSR } from '../kinds/certificates/fixtures.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const NS = '/api/v1/namespaces/default';
const b64 = (s: string): string => Buffer.from(s).toString('base64');

let s: TestServer;
let dir: string;
const logs: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const foreignKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
/** Every token the tests used: none may appear in a log line or an answer. */
const seenTokens: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-sa-'));
  const keyFile = join(dir, 'sa.key');
  writeFileSync(keyFile, key.privateKey.export({ type: 'sec1', format: 'pem' }));
  s = await startTestServer({
    tls: true,
    enableBootstrapTokenAuth: true,
    serviceAccountSigningKeyFile: keyFile,
    serviceAccountKeyFiles: [keyFile],
    serviceAccountMaxTokenExpirationSeconds: 2 * 3600,
    logger: memoryLogger(logs),
  });
  // The default authorization is RBAC: token users may ask who they are and read (view).
  await letEveryoneAskWhoami(s.target);
  await grantClusterRoleToGroup(s.target, 'view', 'system:authenticated');
});

afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A request carrying only the bearer token (and the CA to trust), no client certificate. */
function as(token: string | undefined, method: string, path: string, body?: unknown): Promise<Reply> {
  if (token) seenTokens.push(token);
  return httpCall({ url: s.url, tls: { ca: s.tls?.ca as string } }, method, path, {
    ...(body !== undefined ? { body } : {}),
    ...(token !== undefined ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
}

async function tokenRequest(account: string, spec: Record<string, unknown> = {}): Promise<Reply> {
  return s.post(`${NS}/serviceaccounts/${account}/token`, { apiVersion: 'authentication.orch.io/v1', kind: 'TokenRequest', spec });
}

async function tokenFor(account: string, spec: Record<string, unknown> = {}): Promise<string> {
  const r = await tokenRequest(account, spec);
  expect(r.status, r.text).toBe(201);
  seenTokens.push(r.body.status.token as string);
  return r.body.status.token as string;
}

let csrs = 0;
/** Who `token` proves, as a CertificateSigningRequest made with it records. */
async function whoIs(token: string): Promise<{ status: number; spec?: Record<string, unknown> }> {
  const name = `who-${++csrs}`;
  const r = await as(token, 'POST', '/apis/certificates.orch.io/v1/certificatesigningrequests', {
    apiVersion: 'certificates.orch.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: b64(EC_CSR), signerName: 'example.com/x', usages: ['digital signature'] },
  });
  return r.status === 201 ? { status: 201, spec: r.body.spec } : { status: r.status };
}

async function createAccount(name: string): Promise<string> {
  const r = await s.post(`${NS}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
  expect(r.status, r.text).toBe(201);
  return r.body.metadata.uid as string;
}

/** Waits until the token is refused: a deletion reaches the listers an instant after it is answered. */
async function until401(token: string): Promise<Reply> {
  for (let i = 0; ; i++) {
    const r = await as(token, 'GET', `${NS}/configmaps`);
    if (r.status === 401 || i === 200) return r;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function expectUnauthorized(r: Reply): void {
  expect(r.status).toBe(401);
  expect(r.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', code: 401, message: 'Unauthorized' });
}

describe('TokenRequest (serviceaccounts/<name>/token)', () => {
  it('answers 201 with a token for the API audiences, valid an hour by default', async () => {
    const uid = await createAccount('robot');
    const before = Math.floor(Date.now() / 1000);
    const r = await tokenRequest('robot');
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      apiVersion: 'authentication.orch.io/v1',
      kind: 'TokenRequest',
      metadata: { name: 'robot', namespace: 'default' },
      spec: { audiences: [ISSUER], expirationSeconds: 3600 },
    });
    const expires = Date.parse(r.body.status.expirationTimestamp as string) / 1000;
    expect(expires).toBeGreaterThanOrEqual(before + 3600);
    expect(expires).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600);
    seenTokens.push(r.body.status.token as string);
    const who = await whoIs(r.body.status.token as string);
    expect(who.spec).toMatchObject({
      username: 'system:serviceaccount:default:robot',
      uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
  });

  it('is refused with Kubernetes\' statuses for what cannot be answered', async () => {
    await createAccount('checked');
    const short = await tokenRequest('checked', { expirationSeconds: 599 });
    expect(short.status).toBe(422);
    expect(short.body.message).toBe('TokenRequest.authentication.orch.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
    const renamed = await s.post(`${NS}/serviceaccounts/checked/token`, { apiVersion: 'authentication.orch.io/v1', kind: 'TokenRequest', metadata: { name: 'other' }, spec: {} });
    expect(renamed.status).toBe(422);
    expect(renamed.body.message).toBe('TokenRequest.authentication.orch.io "checked" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified');
    const missing = await tokenRequest('nobody');
    expect([missing.status, missing.body.message]).toEqual([404, 'serviceaccounts "nobody" not found']);
    const deployment = await tokenRequest('checked', { boundObjectRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' } });
    expect([deployment.status, deployment.body.message]).toEqual([400, 'cannot bind token to object of type apps/v1, Kind=Deployment']);
    const noPod = await tokenRequest('checked', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'absent' } });
    expect([noPod.status, noPod.body.message]).toEqual([404, 'pods "absent" not found']);
    const secret = await s.post(`${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bound-secret-x' } });
    const wrongUid = await tokenRequest('checked', { boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: 'bound-secret-x', uid: 'not-it' } });
    expect(wrongUid.status).toBe(409);
    expect(wrongUid.body.message).toBe(
      `Operation cannot be fulfilled on Secret "bound-secret-x": the UID in the bound object reference (not-it) does not match the UID in record. The object might have been deleted and then recreated`,
    );
    expect(secret.status).toBe(201);
    expect((await s.get(`${NS}/serviceaccounts/checked/token`)).status).toBe(405);
  });

  it('shortens a longer expiration to --service-account-max-token-expiration, with a warning', async () => {
    await createAccount('long');
    const r = await tokenRequest('long', { expirationSeconds: 3 * 3600 });
    expect(r.status).toBe(201);
    expect(r.body.spec.expirationSeconds).toBe(7200);
    expect(String(r.headers.warning)).toContain('requested expiration of 10800 seconds shortened to 7200 seconds');
    seenTokens.push(r.body.status.token as string);
  });

  it('binds to a Pod: its name and uid are in extra, and deleting the Pod revokes the token', async () => {
    await createAccount('podder');
    const pod = await s.post(`${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'runner' }, spec: { serviceAccountName: 'podder', containers: [{ name: 'c', image: 'busybox' }] } });
    expect(pod.status, pod.text).toBe(201);
    const other = await tokenRequest('robot', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'runner' } });
    expect([other.status, other.body.message]).toEqual([400, 'cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.']);
    const token = await tokenFor('podder', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'runner', uid: pod.body.metadata.uid } });
    const who = await whoIs(token);
    expect(who.spec?.extra).toEqual({ 'authentication.orch.io/pod-name': ['runner'], 'authentication.orch.io/pod-uid': [pod.body.metadata.uid] });
    expect((await s.del(`${NS}/pods/runner`)).status).toBe(200);
    expectUnauthorized(await until401(token));
  });

  it('binds to a Secret: deleting the Secret revokes the token; deleting the account revokes all of them', async () => {
    await createAccount('doomed');
    expect((await s.post(`${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'doomed-binding' } })).status).toBe(201);
    const secretBound = await tokenFor('doomed', { boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: 'doomed-binding' } });
    const plain = await tokenFor('doomed');
    expect((await as(secretBound, 'GET', `${NS}/configmaps`)).status).toBe(200);
    expect((await s.del(`${NS}/secrets/doomed-binding`)).status).toBe(200);
    expectUnauthorized(await until401(secretBound));
    expect((await as(plain, 'GET', `${NS}/configmaps`)).status).toBe(200);
    expect((await s.del(`${NS}/serviceaccounts/doomed`)).status).toBe(200);
    expectUnauthorized(await until401(plain));
    // A new account of the same name is another account: the old tokens stay refused.
    await createAccount('doomed');
    expectUnauthorized(await as(plain, 'GET', `${NS}/configmaps`));
  });
});

describe('refused tokens: 401, and nothing changes', () => {
  const sign = (claims: Record<string, unknown>, signWith = key.privateKey) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'ES256' }).sign(signWith);
  const bound = (uid: string, extra: Record<string, unknown> = {}) => ({
    iss: ISSUER,
    sub: 'system:serviceaccount:default:robot',
    aud: [ISSUER],
    iat: Math.floor(Date.now() / 1000) - 10,
    nbf: Math.floor(Date.now() / 1000) - 10,
    exp: Math.floor(Date.now() / 1000) + 600,
    'orch.io': { namespace: 'default', serviceaccount: { name: 'robot', uid } },
    ...extra,
  });

  it.each<[string, (uid: string) => Promise<string>]>([
    ['forged (another key)', (uid) => sign(bound(uid), foreignKey.privateKey)],
    ['expired', (uid) => sign(bound(uid, { exp: Math.floor(Date.now() / 1000) - 120 }))],
    ['of another issuer', (uid) => sign(bound(uid, { iss: 'https://elsewhere.example' }))],
    ['for another audience', (uid) => sign(bound(uid, { aud: ['vault'] }))],
    ['of a replaced account (uid)', () => sign(bound('another-uid'))],
    ['malformed', async () => 'not.a.jwt'],
    ['truncated', async (uid) => (await sign(bound(uid))).slice(0, -5)],
    ['bootstrap-shaped without a Secret', async () => 'zzzzzz.0123456789abcdef'],
  ])('%s', async (_what, make) => {
    const uid = (await s.get(`${NS}/serviceaccounts/robot`)).body.metadata.uid as string;
    expect((await as(await sign(bound(uid)), 'GET', `${NS}/configmaps`)).status).toBe(200);
    const token = await make(uid);
    const name = `made-by-${csrs++}`;
    expectUnauthorized(await as(token, 'POST', `${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }));
    expect((await s.get(`${NS}/configmaps/${name}`)).status).toBe(404);
  });

  it('a token asked for another audience does not open the API, but a TokenReview for that audience accepts it', async () => {
    const token = await tokenFor('robot', { audiences: ['vault'] });
    expectUnauthorized(await as(token, 'GET', `${NS}/configmaps`));
    const review = (audiences?: string[]) =>
      s.post('/apis/authentication.orch.io/v1/tokenreviews', { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } });
    const forVault = await review(['vault']);
    expect(forVault.body.status).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:robot' }, audiences: ['vault'] });
    expect((await review()).body.status).toEqual({ authenticated: false, error: expect.stringContaining('is invalid for the target audiences') });
  });
});

describe('legacy (Secret-based) tokens', () => {
  it('work while the Secret holds them, and stop when it changes', async () => {
    const uid = await createAccount('legacy');
    const token = await new SignJWT({
      'orch.io/serviceaccount/namespace': 'default',
      'orch.io/serviceaccount/secret.name': 'legacy-token',
      'orch.io/serviceaccount/service-account.name': 'legacy',
      'orch.io/serviceaccount/service-account.uid': uid,
    })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('orch/serviceaccount')
      .setSubject('system:serviceaccount:default:legacy')
      .sign(key.privateKey);
    const secret = await s.post(`${NS}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'legacy-token', annotations: { 'orch.io/service-account.name': 'legacy' } },
      type: 'orch.io/service-account-token',
      data: { token: b64(token) },
    });
    expect(secret.status, secret.text).toBe(201);
    seenTokens.push(token);
    await until200(token);
    expect((await whoIs(token)).spec).toMatchObject({ username: 'system:serviceaccount:default:legacy', uid });
    expect((await s.patch(`${NS}/secrets/legacy-token`, { data: { token: b64('rotated') } }, 'application/merge-patch+json')).status).toBe(200);
    expectUnauthorized(await until401(token));
  });
});

describe('the token controller', () => {
  async function secretWhenFilled(name: string): Promise<Reply> {
    for (let i = 0; ; i++) {
      const r = await s.get(`${NS}/secrets/${name}`);
      if ((r.status === 200 && r.body.data?.token) || i === 200) return r;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('fills a token Secret of an account with ca.crt, namespace and a working legacy token; deletes it with the account', async () => {
    const uid = await createAccount('filled');
    const created = await s.post(`${NS}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'filled-token', annotations: { 'orch.io/service-account.name': 'filled' } },
      type: 'orch.io/service-account-token',
    });
    expect(created.status, created.text).toBe(201);
    const secret = await secretWhenFilled('filled-token');
    expect(secret.body.metadata.annotations).toEqual({ 'orch.io/service-account.name': 'filled', 'orch.io/service-account.uid': uid });
    expect(Buffer.from(secret.body.data['ca.crt'], 'base64').toString()).toBe(s.tls?.ca);
    expect(Buffer.from(secret.body.data.namespace, 'base64').toString()).toBe('default');
    const token = Buffer.from(secret.body.data.token, 'base64').toString();
    seenTokens.push(token);
    expect((await whoIs(token)).spec).toMatchObject({ username: 'system:serviceaccount:default:filled', uid });
    expect((await s.del(`${NS}/serviceaccounts/filled`)).status).toBe(200);
    expectUnauthorized(await until401(token));
    let gone = await s.get(`${NS}/secrets/filled-token`);
    for (let i = 0; i < 200 && gone.status !== 404; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      gone = await s.get(`${NS}/secrets/filled-token`);
    }
    expect(gone.status).toBe(404);
  });

  it('deletes a token Secret whose account does not exist', async () => {
    const created = await s.post(`${NS}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'orphan-token', annotations: { 'orch.io/service-account.name': 'never-made' } },
      type: 'orch.io/service-account-token',
    });
    expect(created.status).toBe(201);
    let r = await s.get(`${NS}/secrets/orphan-token`);
    for (let i = 0; i < 200 && r.status !== 404; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      r = await s.get(`${NS}/secrets/orphan-token`);
    }
    expect(r.status).toBe(404);
  });
});

async function until200(token: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await as(token, 'GET', `${NS}/configmaps`)).status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('bootstrap tokens (--enable-bootstrap-token-auth)', () => {
  async function bootstrapSecret(id: string, data: Record<string, string>): Promise<void> {
    const r = await s.post('/api/v1/namespaces/orch-system/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `bootstrap-token-${id}` },
      type: 'bootstrap.orch.io/token',
      stringData: { 'token-id': id, ...data },
    });
    expect(r.status, r.text).toBe(201);
  }

  it('authenticate system:bootstrap:<id> in system:bootstrappers and the extra groups', async () => {
    await bootstrapSecret('abcdef', {
      'token-secret': '0123456789abcdef',
      'usage-bootstrap-authentication': 'true',
      'auth-extra-groups': 'system:bootstrappers:workers',
      expiration: new Date(Date.now() + 3600_000).toISOString(),
    });
    await until200('abcdef.0123456789abcdef');
    expect((await whoIs('abcdef.0123456789abcdef')).spec).toMatchObject({
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:bootstrappers:workers', 'system:authenticated'],
    });
    expectUnauthorized(await as('abcdef.0123456789abcdee', 'GET', `${NS}/configmaps`));
  });

  it('refuse an expired token and one without the usage flag', async () => {
    await bootstrapSecret('expird', { 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', expiration: '2020-01-01T00:00:00Z' });
    await bootstrapSecret('nouse0', { 'token-secret': '0123456789abcdef' });
    // A good token written after them: once it works, the lister holds the two above too.
    await bootstrapSecret('later0', { 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' });
    await until200('later0.0123456789abcdef');
    expectUnauthorized(await as('expird.0123456789abcdef', 'GET', `${NS}/configmaps`));
    expectUnauthorized(await as('nouse0.0123456789abcdef', 'GET', `${NS}/configmaps`));
  });
});

describe('issuer discovery', () => {
  it('serves the OpenID configuration and the key set, with which a relying party verifies tokens', async () => {
    // The default policy lets service accounts read them (system:service-account-issuer-discovery), not anonymous callers.
    expect((await as(undefined, 'GET', '/.well-known/openid-configuration')).status).toBe(403);
    const reader = await tokenFor('robot');
    const config = await as(reader, 'GET', '/.well-known/openid-configuration');
    expect(config.status).toBe(200);
    expect(config.headers['content-type']).toBe('application/json');
    expect(config.headers['cache-control']).toBe('public, max-age=3600');
    const port = new URL(s.url).port;
    expect(config.body).toEqual({
      issuer: ISSUER,
      jwks_uri: `https://127.0.0.1:${port}/openid/v1/jwks`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
    const jwks = await as(reader, 'GET', '/openid/v1/jwks');
    expect(jwks.headers['content-type']).toBe('application/jwk-set+json');
    expect(jwks.body.keys).toHaveLength(1);
    expect(Object.keys(jwks.body.keys[0])).toEqual(['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
    const token = await tokenFor('robot', { audiences: ['relying-party'] });
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks.body), { issuer: ISSUER, audience: 'relying-party' });
    expect(payload.sub).toBe('system:serviceaccount:default:robot');
    expect((await s.get('/')).body.paths).toEqual(expect.arrayContaining(['/.well-known/openid-configuration', '/openid/v1/jwks']));
  });
});

describe('credentials', () => {
  it('never appear in a log line', () => {
    expect(seenTokens.length).toBeGreaterThan(10);
    const text = JSON.stringify(logs);
    // The operator does learn why: the refusals are logged, by rule.
    for (const why of ['token signature is invalid', 'service account token has expired', 'is invalid for the target audiences', 'service account token has been invalidated']) {
      expect(text).toContain(why);
    }
    for (const token of seenTokens) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.split('.').at(-1));
    }
    expect(text).not.toContain('0123456789abcdef');
  });
});
