/**
 * One HTTPS server with every authentication method it supports switched on, and a caller of each:
 * the administrator's client certificate and a CA-signed one (x509), two static tokens, a bound
 * service-account token from TokenRequest and a legacy one from a token Secret, a bootstrap token,
 * an OIDC id_token from an identity provider started here, a token a TokenReview webhook started
 * here vouches for, the front proxy's certificate with identity headers, no credential at all, and
 * a static-token user impersonating another. What each may do is the business of the matrix test;
 * this file only makes the callers, and waits until the server knows each of them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificateAuthority, issueCertificate } from '../../src/machinery/x509/certificates.js';
import { startIdentityProvider, type IdentityProvider } from '../helpers/identity-provider.js';
import { httpCall, startTestServer, type Reply, type Target, type TestServer } from '../helpers/server.js';
import { startTokenReviewWebhook, type TokenReviewWebhook } from '../helpers/token-review-webhook.js';

export const METHODS = ['admin', 'cara', 'tina', 'tom', 'robot', 'deployer', 'boot', 'oidc', 'hooked', 'proxied', 'anonymous', 'ivy'] as const;
export type Method = (typeof METHODS)[number];

/** How each caller proves who it is, in the words of a table row. */
export const HOW: Record<Method, string> = {
  admin: 'x509: the administrator certificate (system:masters)',
  cara: 'x509: a certificate of the cluster CA, O=auditors',
  tina: 'static token file, group dev',
  tom: 'static token file, no grants',
  robot: 'service-account token from TokenRequest (team/robot)',
  deployer: 'legacy service-account token from a token Secret (other/deployer)',
  boot: 'bootstrap token',
  oidc: 'OIDC id_token, group oidc:dev',
  hooked: 'token webhook, group corp:dev',
  proxied: 'front proxy (request headers), group proxy-ops',
  anonymous: 'no credential',
  ivy: 'tom impersonating ivy',
};

export interface Caller {
  readonly target: Target;
  readonly headers: Record<string, string>;
  /** The username the server gives the caller, as its 403 messages name it. */
  readonly username: string;
  call(method: string, path: string, body?: unknown, contentType?: string): Promise<Reply>;
}

export interface MatrixWorld {
  server: TestServer;
  callers: Record<Method, Caller>;
  close(): Promise<void>;
}

const TOKENS = { tina: 'tina-token-0123456789', tom: 'tom-token-0123456789' };
const BOOTSTRAP = { id: 'abcdef', secret: '0123456789abcdef' };

/** Starts everything; `setup` runs as the administrator before the service-account tokens are made. */
export async function startMatrixWorld(setup: (admin: TestServer) => Promise<void>): Promise<MatrixWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-authz-matrix-'));
  const idp: IdentityProvider = await startIdentityProvider();
  const hook: TokenReviewWebhook = await startTokenReviewWebhook();
  hook.decide('webhook-token-jane', { authenticated: true, user: { username: 'jane@corp', uid: 'corp-17', groups: ['corp:dev'] } });
  const proxyCa = await createCertificateAuthority('front-proxy-ca', 1);
  const proxyCert = await issueCertificate(proxyCa, { commonName: 'front-proxy', usage: 'client', validForDays: 1 });
  writeFileSync(join(dir, 'proxy-ca.crt'), proxyCa.certPem);
  writeFileSync(join(dir, 'tokens.csv'), `${TOKENS.tina},tina,1,dev\n${TOKENS.tom},tom,2\n`);

  const server = await startTestServer({
    tls: true,
    dataDir: join(dir, 'data'),
    storageBackend: 'memory',
    tokenAuthFile: join(dir, 'tokens.csv'),
    enableBootstrapTokenAuth: true,
    oidc: { issuerUrl: idp.issuer, clientId: idp.clientId, caFile: idp.caFile, groupsClaim: 'groups', groupsPrefix: 'oidc:', keyRefreshIntervalMs: 0 },
    tokenWebhook: { configFile: hook.kubeconfigFile },
    requestheaderClientCaFile: join(dir, 'proxy-ca.crt'),
    requestheaderAllowedNames: ['front-proxy'],
    requestheaderUsernameHeaders: ['X-Remote-User'],
    requestheaderGroupHeaders: ['X-Remote-Group'],
  });
  const close = async (): Promise<void> => {
    await server.close();
    await idp.close();
    await hook.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await setup(server);
    const clusterCa = { certPem: readFileSync(join(dir, 'data', 'pki', 'ca.crt'), 'utf8'), keyPem: readFileSync(join(dir, 'data', 'pki', 'ca.key'), 'utf8') };
    const cara = await issueCertificate(clusterCa, { commonName: 'cara', organizations: ['auditors'], usage: 'client', validForDays: 1 });
    const ca = server.tls!.ca as string;
    const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });
    const make = (target: Target, headers: Record<string, string>, username: string): Caller => ({
      target,
      headers,
      username,
      call: (method, path, body, contentType) => httpCall(target, method, path, { headers, ...(body !== undefined ? { body } : {}), ...(contentType ? { contentType } : {}) }),
    });
    const plain: Target = { url: server.url, tls: { ca } };
    const callers: Record<Method, Caller> = {
      admin: make({ url: server.url, tls: server.tls! }, {}, 'orch-admin'),
      cara: make({ url: server.url, tls: { ca, cert: cara.certPem, key: cara.keyPem } }, {}, 'cara'),
      tina: make(plain, bearer(TOKENS.tina), 'tina'),
      tom: make(plain, bearer(TOKENS.tom), 'tom'),
      robot: make(plain, bearer(await boundToken(server, 'team', 'robot')), 'system:serviceaccount:team:robot'),
      deployer: make(plain, bearer(await legacyToken(server, 'other', 'deployer')), 'system:serviceaccount:other:deployer'),
      boot: make(plain, bearer(await bootstrapToken(server)), `system:bootstrap:${BOOTSTRAP.id}`),
      oidc: make(plain, bearer(await idp.idToken({ sub: 'alice', groups: ['dev'] })), `${idp.issuer}#alice`),
      hooked: make(plain, bearer('webhook-token-jane'), 'jane@corp'),
      proxied: make({ url: server.url, tls: { ca, cert: proxyCert.certPem, key: proxyCert.keyPem } }, { 'X-Remote-User': 'paula', 'X-Remote-Group': 'proxy-ops' }, 'paula'),
      anonymous: make(plain, {}, 'system:anonymous'),
      ivy: make(plain, { ...bearer(TOKENS.tom), 'Impersonate-User': 'ivy' }, 'ivy'),
    };
    return { server, callers, close };
  } catch (e) {
    await close();
    throw e;
  }
}

async function created(r: Reply, what: string): Promise<Reply> {
  if (r.status !== 201) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r;
}

async function serviceAccount(s: TestServer, namespace: string, name: string): Promise<void> {
  await created(await s.post(`/api/v1/namespaces/${namespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } }), `service account ${namespace}/${name}`);
}

/** A token of the TokenRequest API, bound to the account. */
async function boundToken(s: TestServer, namespace: string, name: string): Promise<string> {
  await serviceAccount(s, namespace, name);
  const r = await created(await s.post(`/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, { apiVersion: 'authentication.orch.io/v1', kind: 'TokenRequest', spec: {} }), 'TokenRequest');
  return r.body.status.token as string;
}

/** The token the token controller writes into a service-account token Secret. */
async function legacyToken(s: TestServer, namespace: string, name: string): Promise<string> {
  await serviceAccount(s, namespace, name);
  const secret = `${name}-token`;
  await created(
    await s.post(`/api/v1/namespaces/${namespace}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: secret, annotations: { 'orch.io/service-account.name': name } }, type: 'orch.io/service-account-token' }),
    'token Secret',
  );
  for (let i = 0; i < 250; i++) {
    const r = await s.get(`/api/v1/namespaces/${namespace}/secrets/${secret}`);
    const token = r.body?.data?.token as string | undefined;
    if (token) return Buffer.from(token, 'base64').toString();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the token controller never filled ${namespace}/${secret}`);
}

async function bootstrapToken(s: TestServer): Promise<string> {
  await created(
    await s.post('/api/v1/namespaces/orch-system/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `bootstrap-token-${BOOTSTRAP.id}` },
      type: 'bootstrap.orch.io/token',
      stringData: { 'token-id': BOOTSTRAP.id, 'token-secret': BOOTSTRAP.secret, 'usage-bootstrap-authentication': 'true' },
    }),
    'bootstrap token Secret',
  );
  return `${BOOTSTRAP.id}.${BOOTSTRAP.secret}`;
}
