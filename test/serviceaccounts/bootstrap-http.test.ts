/**
 * The bootstrap token controllers over real HTTPS, with `controllers: ['*', 'tokencleaner',
 * 'bootstrapsigner'] }`: the cleaner deletes expired bootstrap token Secrets (at their expiry, too),
 * the signer keeps `cluster-info` in the public namespace with one verified signature per signing
 * token, anonymous callers may read it, and neither runs unless named.
 */
import { flattenedVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { eventually } from '../reads/fixtures.js';
import { httpCall, startTestServer, type TestServer } from '../helpers/server.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const SECRETS = '/api/v1/namespaces/orch-system/secrets';
const CLUSTER_INFO = '/api/v1/namespaces/orch-public/configmaps/cluster-info';

function tokenSecret(id: string, secret: string, extra: Record<string, string> = {}) {
  return {
    metadata: { name: `bootstrap-token-${id}` },
    type: 'bootstrap.orch.io/token',
    data: Object.fromEntries(Object.entries({ 'token-id': id, 'token-secret': secret, ...extra }).map(([k, v]) => [k, b64(v)])),
  };
}

/** Verifies a detached JWS as a joining client does: payload put back, HS256 enforced, with a JOSE library. */
async function verified(jws: string, content: string, key: string): Promise<boolean> {
  const [protectedHeader, , signature] = jws.split('.');
  try {
    await flattenedVerify({ protected: protectedHeader as string, payload: Buffer.from(content).toString('base64url'), signature: signature as string }, new TextEncoder().encode(key), { algorithms: ['HS256'] });
    return true;
  } catch {
    return false;
  }
}

describe('bootstrap token controllers (named in controllers)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ tls: true, enableBootstrapTokenAuth: true, controllerManager: { controllers: ['*', 'tokencleaner', 'bootstrapsigner'] } });
  });
  afterAll(() => s?.close());

  const anonymous = (path: string) => httpCall({ url: s.url, tls: { ca: s.tls?.ca as string } }, 'GET', path);
  const gone = (path: string) => async () => ((await s.get(path)).status === 404 ? true : undefined);

  it('deletes expired bootstrap token Secrets, and others when they expire', async () => {
    const past = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const soon = new Date(Date.now() + 1_500).toISOString();
    expect((await s.post(SECRETS, tokenSecret('exp001', '0123456789abcdef', { expiration: past }))).status).toBe(201);
    expect((await s.post(SECRETS, tokenSecret('soon01', '0123456789abcdef', { expiration: soon }))).status).toBe(201);
    expect((await s.post(SECRETS, tokenSecret('keep01', '0123456789abcdef'))).status).toBe(201);
    await eventually(gone(`${SECRETS}/bootstrap-token-exp001`), 'the expired token deleted');
    await eventually(gone(`${SECRETS}/bootstrap-token-soon01`), 'the token deleted once expired');
    expect((await s.get(`${SECRETS}/bootstrap-token-keep01`)).status).toBe(200);
  });

  it('keeps cluster-info with one verified signature per signing token; anonymous callers read it', async () => {
    const info = await eventually(async () => {
      const r = await anonymous(CLUSTER_INFO);
      return r.status === 200 ? r.body : undefined;
    }, 'cluster-info');
    const kubeconfig = parse(info.data.kubeconfig);
    expect(kubeconfig.clusters).toEqual([{ name: '', cluster: { server: s.url, 'certificate-authority-data': b64(s.tls?.ca as string) } }]);
    // Anonymous callers read cluster-info and nothing else there.
    expect((await anonymous('/api/v1/namespaces/orch-public/configmaps')).status).toBe(403);

    expect((await s.post(SECRETS, tokenSecret('sign01', 'aaaaaaaaaaaaaaaa', { 'usage-bootstrap-signing': 'true' }))).status).toBe(201);
    expect((await s.post(SECRETS, tokenSecret('auth01', 'bbbbbbbbbbbbbbbb', { 'usage-bootstrap-authentication': 'true' }))).status).toBe(201);
    const soon = new Date(Date.now() + 1_500).toISOString();
    expect((await s.post(SECRETS, tokenSecret('sign02', 'cccccccccccccccc', { 'usage-bootstrap-signing': 'true', expiration: soon }))).status).toBe(201);
    const signed = await eventually(async () => {
      const cm = (await anonymous(CLUSTER_INFO)).body;
      return cm.data['jws-kubeconfig-sign01'] && cm.data['jws-kubeconfig-sign02'] ? cm : undefined;
    }, 'both signatures');
    expect(signed.data['jws-kubeconfig-auth01']).toBeUndefined();
    // Document 3: the full token is the shared secret under orch.io.
    expect(await verified(signed.data['jws-kubeconfig-sign01'], signed.data.kubeconfig, 'sign01.aaaaaaaaaaaaaaaa')).toBe(true);
    expect(await verified(signed.data['jws-kubeconfig-sign01'], signed.data.kubeconfig, 'aaaaaaaaaaaaaaaa')).toBe(false);
    expect(await verified(signed.data['jws-kubeconfig-sign01'], signed.data.kubeconfig.replace(s.url, 'https://evil.example:6443'), 'sign01.aaaaaaaaaaaaaaaa')).toBe(false);

    // An expired token's signature goes at its expiry (the cleaner deletes it too); a deleted token's at once.
    await eventually(async () => ((await anonymous(CLUSTER_INFO)).body.data['jws-kubeconfig-sign02'] === undefined ? true : undefined), 'the expired signature removed');
    expect((await s.del(`${SECRETS}/bootstrap-token-sign01`)).status).toBe(200);
    await eventually(async () => ((await anonymous(CLUSTER_INFO)).body.data['jws-kubeconfig-sign01'] === undefined ? true : undefined), 'the signature of the deleted token removed');

    // A changed kubeconfig is signed as it now is.
    expect((await s.post(SECRETS, tokenSecret('sign03', 'dddddddddddddddd', { 'usage-bootstrap-signing': 'true' }))).status).toBe(201);
    const edited = `${signed.data.kubeconfig}# edited\n`;
    expect((await s.patch(CLUSTER_INFO, { data: { kubeconfig: edited } }, 'application/merge-patch+json')).status).toBe(200);
    await eventually(async () => {
      const cm = (await anonymous(CLUSTER_INFO)).body;
      return cm.data['jws-kubeconfig-sign03'] && (await verified(cm.data['jws-kubeconfig-sign03'], edited, 'sign03.dddddddddddddddd')) ? true : undefined;
    }, 'the edited kubeconfig signed');
  });
});

describe('bootstrap token controllers (default set)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ tls: true, controllerManager: { controllers: ['*'] } });
  });
  afterAll(() => s?.close());

  it('run neither the cleaner nor the signer unless named', async () => {
    const past = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    expect((await s.post(SECRETS, tokenSecret('exp002', '0123456789abcdef', { expiration: past, 'usage-bootstrap-signing': 'true' }))).status).toBe(201);
    // The default controllers have done their work (root CA in the new token's namespace) and left these alone.
    await eventually(async () => ((await s.get('/api/v1/namespaces/orch-public/configmaps/orch-root-ca.crt')).status === 200 ? true : undefined), 'the default controllers running');
    await new Promise((r) => setTimeout(r, 300));
    expect((await s.get(`${SECRETS}/bootstrap-token-exp002`)).status).toBe(200);
    expect((await s.get(CLUSTER_INFO)).status).toBe(404);
  });
});
