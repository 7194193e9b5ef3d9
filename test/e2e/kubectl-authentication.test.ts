/**
 * Unmodified kubectl (1.27 and the newest installed) against a secure server under
 * --api-domain=k8s.io, authenticating each way this server offers: the generated admin
 * kubeconfig, a client certificate the CA signed for another user, a static token, and an
 * authenticating proxy the test starts (a small HTTPS reverse proxy that presents its client
 * certificate and sets X-Remote-User). Bad credentials get kubectl's "Unauthorized". Who the
 * server took kubectl for is read from a dry-run CertificateSigningRequest.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type OrchServer } from '../../src/index.js';
import { kubeconfigFor } from '../../src/server/kubeconfig.js';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../src/machinery/x509/certificates.js';
import { kubectlPicks, kubectlSandbox, type KubectlSandbox } from '../helpers/kubectl.js';
import { csrDryRunBody } from '../helpers/whoami.js';

const picks = kubectlPicks();
if (picks.length === 0) console.log('kubectl authentication e2e skipped: no kubectl on PATH');
const TOKEN = 'kubectl-e2e-static-token-51c0';
/** kubectl's words for a 401 (its discovery client reports every 401 so, as against kube-apiserver). */
const UNAUTHORIZED = 'error: You must be logged in to the server';

let dir: string;
let server: OrchServer;
let ca: CertificateAndKey;
let proxy: Server;
let proxyUrl: string;
let proxyServingCa: CertificateAndKey;
const boxes: KubectlSandbox[] = [];

/**
 * A minimal authenticating proxy: HTTPS for kubectl (its own serving CA), then HTTPS to the API
 * server with the proxy's client certificate, the caller's identity headers replaced by its own.
 */
async function startProxy(target: string, client: CertificateAndKey, serving: CertificateAndKey, user: string, group: string): Promise<Server> {
  const upstream = new URL(target);
  const s = createHttpsServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !k.startsWith('x-remote-') && k !== 'authorization' && k !== 'host'));
    const out = httpsRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...headers, 'X-Remote-User': user, 'X-Remote-Group': group }, ca: server.tls?.caPem, cert: client.certPem, key: client.keyPem },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return s;
}

function kubeconfigWithToken(url: string, caPem: string, token: string): string {
  return kubeconfigFor(url, { caPem }).replace('  user: {}', `  user:\n    token: ${token}`);
}

beforeAll(async () => {
  if (picks.length === 0) return;
  dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-authn-'));
  writeFileSync(join(dir, 'tokens.csv'), `${TOKEN},token-user,42,token-group\n`);
  const proxyCa = await createCertificateAuthority('front-proxy-ca', 1);
  writeFileSync(join(dir, 'proxy-ca.crt'), proxyCa.certPem);
  server = await createServer({
    port: 0,
    logLevel: 'silent',
    apiDomain: 'k8s.io',
    dataDir: dir,
    storageBackend: 'memory',
    tokenAuthFile: join(dir, 'tokens.csv'),
    requestheaderClientCaFile: join(dir, 'proxy-ca.crt'),
    requestheaderUsernameHeaders: ['X-Remote-User'],
    requestheaderGroupHeaders: ['X-Remote-Group'],
  });
  ca = { certPem: readFileSync(join(dir, 'pki', 'ca.crt'), 'utf8'), keyPem: readFileSync(join(dir, 'pki', 'ca.key'), 'utf8') };
  proxyServingCa = await createCertificateAuthority('proxy-serving-ca', 1);
  const proxyServing = await issueCertificate(proxyServingCa, { commonName: 'proxy', ipAddresses: ['127.0.0.1'], usage: 'server', validForDays: 1 });
  const proxyClient = await issueCertificate(proxyCa, { commonName: 'front-proxy', usage: 'client', validForDays: 1 });
  proxy = await startProxy(server.url, proxyClient, proxyServing, 'proxied-user', 'proxied-group');
  proxyUrl = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  writeFileSync(join(dir, 'csr.json'), JSON.stringify(csrDryRunBody('k8s.io')));
});
afterAll(async () => {
  for (const b of boxes) b.remove();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(picks.length === 0).each(picks)('$label authenticates', { timeout: 60_000 }, (k) => {
  const box = (kubeconfig: string): KubectlSandbox => {
    const b = kubectlSandbox(kubeconfig, 'orch-kubectl-authn-');
    boxes.push(b);
    return b;
  };
  /** The user name the server recorded for kubectl's dry-run CSR. */
  const whoami = async (b: KubectlSandbox) => b.run(k.bin, ['create', '-f', join(dir, 'csr.json'), '--dry-run=server', '-o', 'jsonpath={.spec.username} {.spec.groups}']);


  it('with the generated admin kubeconfig: orch-admin in system:masters', async () => {
    const b = box(server.kubeconfig());
    const r = await whoami(b);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('orch-admin ["system:masters","system:authenticated"]');
    expect((await b.run(k.bin, ['get', 'namespace', 'default', '-o', 'name'])).stdout.trim()).toBe('namespace/default');
  });

  it('with a client certificate the CA signed for another user', async () => {
    const jane = await issueCertificate(ca, { commonName: 'jane', organizations: ['dev'], usage: 'client', validForDays: 1 });
    const r = await whoami(box(kubeconfigFor(server.url, { caPem: server.tls!.caPem!, clientCertPem: jane.certPem, clientKeyPem: jane.keyPem })));
    expect(r.stdout).toBe('jane ["dev","system:authenticated"]');
  });

  it('with a static token, and an unknown token is Unauthorized', async () => {
    const r = await whoami(box(kubeconfigWithToken(server.url, server.tls!.caPem!, TOKEN)));
    expect(r.stdout).toBe('token-user ["token-group","system:authenticated"]');
    const bad = await box(kubeconfigWithToken(server.url, server.tls!.caPem!, 'not-a-known-token')).run(k.bin, ['get', 'namespaces']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(UNAUTHORIZED);
  });

  it('with a client certificate of another CA: Unauthorized', async () => {
    const elsewhere = await issueCertificate(await createCertificateAuthority('elsewhere', 1), { commonName: 'orch-admin', organizations: ['system:masters'], usage: 'client', validForDays: 1 });
    const r = await box(kubeconfigFor(server.url, { caPem: server.tls!.caPem!, clientCertPem: elsewhere.certPem, clientKeyPem: elsewhere.keyPem })).run(k.bin, ['get', 'namespaces']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(UNAUTHORIZED);
  });

  it('through an authenticating proxy: the user its headers name', async () => {
    // kubectl's credential is for the proxy (without one it would prompt for a user name); the
    // proxy removes it and speaks for the user with its certificate and headers.
    const b = box(kubeconfigWithToken(proxyUrl, proxyServingCa.certPem, 'login-at-the-proxy'));
    const r = await whoami(b);
    expect(r.stdout).toBe('proxied-user ["proxied-group","system:authenticated"]');
    expect((await b.run(k.bin, ['get', 'namespace', 'default', '-o', 'name'])).stdout.trim()).toBe('namespace/default');
  });
});
