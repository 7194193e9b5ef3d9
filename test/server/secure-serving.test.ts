/**
 * Secure serving through createServer: HTTPS by default with h2 and http/1.1 on one port, watches
 * streaming over h2, the generated CA, serving and admin certificates (names, reuse across restarts,
 * file modes), the TLS flags, and plain HTTP only on loopback.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect as http2Connect } from 'node:http2';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type OrchServer } from '../../src/index.js';
import { createCertificateAuthority, issueCertificate } from '../../src/machinery/x509/certificates.js';
import type { ServerOptions } from '../../src/server/options.js';
import { httpCall, startTestServer, type TestServer } from '../helpers/server.js';

const CM = '/api/v1/namespaces/default/configmaps';
const servers: (OrchServer | TestServer)[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(options: ServerOptions = {}): Promise<OrchServer> {
  const s = await createServer({ port: 0, logLevel: 'silent', ...options });
  servers.push(s);
  return s;
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'orch-tls-'));
  dirs.push(d);
  return d;
}

/** Completes a TLS handshake and returns what it agreed and the certificate the server showed. */
function handshake(s: OrchServer, extra: ConnectionOptions = {}): Promise<{ alpn: string | false; version: string | null; cert: X509Certificate }> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port: Number(port), ca: s.tls?.caPem, ALPNProtocols: ['h2', 'http/1.1'], ...extra }, () => {
      const cert = socket.getPeerX509Certificate();
      resolve({ alpn: socket.alpnProtocol ?? false, version: socket.getProtocol(), cert: cert as X509Certificate });
      socket.end();
    });
    socket.on('error', reject);
  });
}

describe('createServer is secure by default', () => {
  it('serves HTTPS and hands back the URL, the CA, the admin credentials, client options and a kubeconfig', async () => {
    const s = await start();
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const tls = s.tls!;
    expect(new X509Certificate(tls.caPem!).ca).toBe(true);
    const admin = new X509Certificate(tls.adminCertPem!);
    expect(admin.subject).toBe('O=system:masters\nCN=orch-admin');
    expect(admin.verify(new X509Certificate(tls.caPem!).publicKey)).toBe(true);
    expect(tls.clientOptions).toEqual({ ca: tls.caPem, cert: tls.adminCertPem, key: tls.adminKeyPem });
    const kubeconfig = s.kubeconfig();
    expect(kubeconfig).toContain(`server: ${s.url}`);
    expect(kubeconfig).toContain(`certificate-authority-data: ${Buffer.from(tls.caPem!).toString('base64')}`);
    expect(kubeconfig).toContain(`client-certificate-data: ${Buffer.from(tls.adminCertPem!).toString('base64')}`);
    expect(kubeconfig).toContain(`client-key-data: ${Buffer.from(tls.adminKeyPem!).toString('base64')}`);
    // The client options work as they are, for https (HTTP/1.1)...
    const r = await httpCall({ url: s.url, tls: tls.clientOptions }, 'GET', '/api/v1/namespaces/default');
    expect(r.status).toBe(200);
    expect(r.body.metadata.name).toBe('default');
  });

  it('negotiates h2 and http/1.1 on one port and answers the API over both', async () => {
    const s = await start();
    expect((await handshake(s)).alpn).toBe('h2');
    expect((await handshake(s, { ALPNProtocols: ['http/1.1'] })).alpn).toBe('http/1.1');
    const h1 = await httpCall({ url: s.url, tls: s.tls!.clientOptions }, 'GET', '/version');
    expect(h1.status).toBe(200);
    const session = http2Connect(s.url, s.tls!.clientOptions);
    try {
      const h2 = await httpCall({ url: s.url, h2: () => session }, 'GET', '/api');
      expect(h2.status).toBe(200);
      expect(h2.body.kind).toBe('APIVersions');
      // Discovery reports the address the client used (:authority in h2, Host in HTTP/1.1).
      expect(h2.body.serverAddressByClientCIDRs).toEqual([{ clientCIDR: '0.0.0.0/0', serverAddress: new URL(s.url).host }]);
    } finally {
      session.close();
    }
  });

  it('rejects a client that cannot trust it: the CA is needed', async () => {
    const s = await start();
    await expect(handshake(s, { ca: undefined })).rejects.toThrow(/self-signed certificate in certificate chain|unable to verify/);
  });
});

describe('HTTP/2', () => {
  it('streams watch events as they happen, with no connection-specific headers', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const s = await startTestServer({ tls: true });
      servers.push(s);
      const w = await s.watch(`${CM}?watch=1`);
      expect(w.status).toBe(200);
      for (const h of ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']) expect(w.headers[h]).toBeUndefined();
      expect(w.headers['content-type']).toBe('application/json');
      // Each event arrives while the stream stays open: written and flushed one at a time.
      for (const name of ['a', 'b']) {
        expect((await s.post(CM, { metadata: { name } })).status).toBe(201);
        const [ev] = await w.next(1);
        expect(ev?.type).toBe('ADDED');
        expect(ev?.object.metadata.name).toBe(name);
      }
      expect((await s.del(`${CM}/a`)).status).toBe(200);
      expect((await w.next(1))[0]?.type).toBe('DELETED');
      // The server notices the client's RST_STREAM and ends the watch (no leaked watcher).
      // Requests in flight, besides the /metrics request that asks.
      const others = async (): Promise<number> => Number(/^apiserver_current_inflight_requests (\d+)/m.exec((await s.get('/metrics')).text)?.[1]) - 1;
      expect(await others()).toBe(1);
      w.close();
      for (let i = 0; i < 100 && (await others()) !== 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await others()).toBe(0);
      expect(warnings.map((x) => x.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('ends a watch at timeoutSeconds with the h2 stream closed cleanly', async () => {
    const s = await startTestServer({ tls: true });
    servers.push(s);
    const w = await s.watch(`${CM}?watch=1&timeoutSeconds=1`);
    await w.ended;
    expect(w.pending()).toEqual([]);
    // The session is still good for more requests after the stream ended.
    expect((await s.get(CM)).status).toBe(200);
  });
});

describe('generated certificates', () => {
  it('carry loopback, the host name, the kubernetes Service names and IP, and the advertised address', async () => {
    const s = await start({ advertiseAddress: '192.0.2.10', serviceClusterIPRange: '10.96.0.0/12' });
    const { cert } = await handshake(s);
    const sans = (cert.subjectAltName ?? '').split(', ');
    for (const dns of ['localhost', hostname(), 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local']) {
      expect(sans).toContain(`DNS:${dns}`);
    }
    for (const ip of ['127.0.0.1', '0:0:0:0:0:0:0:1', '10.96.0.1', '192.0.2.10']) expect(sans).toContain(`IP Address:${ip}`);
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
  });

  it('are made once in the data directory and reused at the next start; keys are 0600', async () => {
    const dataDir = tempDir();
    const first = await start({ dataDir });
    const before = { ca: first.tls!.caPem, admin: first.tls!.adminCertPem, serving: (await handshake(first)).cert.fingerprint256 };
    const kubeconfig = first.kubeconfig();
    await first.close();
    for (const key of ['ca.key', 'apiserver.key', 'admin.key']) expect(statSync(join(dataDir, 'pki', key)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'pki')).mode & 0o077).toBe(0);
    expect(readFileSync(join(dataDir, 'pki', 'ca.crt'), 'utf8')).toBe(before.ca);

    const second = await start({ dataDir });
    expect(second.tls!.caPem).toBe(before.ca);
    expect(second.tls!.adminCertPem).toBe(before.admin);
    expect((await handshake(second)).cert.fingerprint256).toBe(before.serving);
    // The kubeconfig written at the first start still works (same CA, same admin certificate).
    expect(second.kubeconfig().replace(/server: .*/, '')).toBe(kubeconfig.replace(/server: .*/, ''));
  });

  it('reissue the serving certificate under the same CA when a name is missing', async () => {
    const dataDir = tempDir();
    const first = await start({ dataDir });
    const before = { ca: first.tls!.caPem, admin: first.tls!.adminCertPem, serving: (await handshake(first)).cert };
    await first.close();
    const second = await start({ dataDir, advertiseAddress: '198.51.100.7' });
    const serving = (await handshake(second)).cert;
    expect(serving.fingerprint256).not.toBe(before.serving.fingerprint256);
    expect(serving.checkIP('198.51.100.7')).toBe('198.51.100.7');
    expect(second.tls!.caPem).toBe(before.ca);
    expect(second.tls!.adminCertPem).toBe(before.admin);
  });

  it('live in memory without a data directory: each server has its own CA', async () => {
    const a = await start();
    const b = await start();
    expect(a.tls!.caPem).not.toBe(b.tls!.caPem);
  });
});

describe('TLS options', () => {
  it('tlsMinVersion VersionTLS13 refuses a TLS 1.2 client; the default accepts it', async () => {
    const strict = await start({ tlsMinVersion: 'VersionTLS13' });
    await expect(handshake(strict, { maxVersion: 'TLSv1.2' })).rejects.toThrow(/protocol version|unsupported protocol/i);
    expect((await handshake(strict)).version).toBe('TLSv1.3');
    const lenient = await start();
    expect((await handshake(lenient, { maxVersion: 'TLSv1.2' })).version).toBe('TLSv1.2');
    await expect(handshake(lenient, { maxVersion: 'TLSv1.1', minVersion: 'TLSv1' })).rejects.toThrow();
  });

  it('serves the given certificate and trusts the given client CA; no admin certificate is made then', async () => {
    const dir = tempDir();
    const theirCa = await createCertificateAuthority('their-ca', 1);
    const serving = await issueCertificate(theirCa, { commonName: 'theirs', ipAddresses: ['127.0.0.1'], usage: 'server', validForDays: 1 });
    const clientCa = await createCertificateAuthority('their-client-ca', 1);
    writeFileSync(join(dir, 'tls.crt'), serving.certPem);
    writeFileSync(join(dir, 'tls.key'), serving.keyPem);
    writeFileSync(join(dir, 'client-ca.crt'), clientCa.certPem);
    const s = await start({ tlsCertFile: join(dir, 'tls.crt'), tlsPrivateKeyFile: join(dir, 'tls.key'), clientCaFile: join(dir, 'client-ca.crt') });
    expect(s.tls).toEqual({ clientOptions: {} });
    expect(s.kubeconfig()).not.toContain('certificate-authority-data');
    expect(s.kubeconfig()).not.toContain('client-certificate-data');
    const { cert } = await handshake(s, { ca: theirCa.certPem });
    expect(cert.fingerprint256).toBe(new X509Certificate(serving.certPem).fingerprint256);
  });

  it('refuses files that do not hold what their flag names, before opening anything', async () => {
    const dir = tempDir();
    const ca = await createCertificateAuthority('x', 1);
    const other = await createCertificateAuthority('y', 1);
    writeFileSync(join(dir, 'tls.crt'), ca.certPem);
    writeFileSync(join(dir, 'other.key'), other.keyPem);
    writeFileSync(join(dir, 'junk'), 'not pem');
    await expect(start({ tlsCertFile: join(dir, 'tls.crt') })).rejects.toThrow('--tls-cert-file and --tls-private-key-file must be given together');
    await expect(start({ tlsCertFile: join(dir, 'tls.crt'), tlsPrivateKeyFile: join(dir, 'other.key') })).rejects.toThrow(/--tls-private-key-file .*other.key is not the key of the certificate in --tls-cert-file/);
    await expect(start({ tlsCertFile: join(dir, 'junk'), tlsPrivateKeyFile: join(dir, 'other.key') })).rejects.toThrow(/--tls-cert-file .*junk: no PEM certificate in it/);
    await expect(start({ clientCaFile: join(dir, 'missing.crt') })).rejects.toThrow(/--client-ca-file .*missing.crt: no such file/);
  });
});

describe('plain HTTP', () => {
  it('is served only when asked, on loopback, and carries no TLS material', async () => {
    const s = await start({ plainHttp: true });
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.tls).toBeUndefined();
    expect(s.kubeconfig()).not.toContain('certificate-authority-data');
    expect((await httpCall(s.url, 'GET', '/version')).status).toBe(200);
  });

  it('is refused on an address beyond loopback, with the reason and the way out', async () => {
    for (const bindAddress of ['0.0.0.0', '::', '192.0.2.1']) {
      await expect(start({ plainHttp: true, bindAddress })).rejects.toThrow(
        `plain HTTP is served only on a loopback address (127.0.0.1 or ::1), not on ${bindAddress}: every caller on the network could read and change the cluster unencrypted. Listen on loopback (--bind-address=127.0.0.1) or serve HTTPS (leave out --insecure-plain-http).`,
      );
    }
  });

  it('is accepted on IPv6 loopback', async () => {
    const s = await start({ plainHttp: true, bindAddress: '::1' });
    expect(s.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect((await httpCall(s.url, 'GET', '/version')).status).toBe(200);
  });
});
