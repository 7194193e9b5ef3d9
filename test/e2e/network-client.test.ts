/**
 * The network client with a kubeconfig's own credentials: the generated admin kubeconfig against the
 * TLS server, and token, token file and certificate files against a probe HTTPS server that reports
 * what each request carried.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, clientFromKubeconfig } from '../../src/client/index.js';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../src/machinery/x509/certificates.js';
import { createServer, type OrchServer } from '../../src/index.js';
import { startProbe, type Probe } from '../helpers/probe-https.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-client-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('network client with the server’s admin kubeconfig', () => {
  let server: OrchServer;
  beforeAll(async () => {
    server = await createServer({ port: 0, logLevel: 'silent', dataDir: mkdtempSync(join(dir, 'data-')) });
  });
  afterAll(() => server?.close());

  it('reads, writes and answers a Status as an ApiError', async () => {
    writeFileSync(join(dir, 'admin.kubeconfig'), server.kubeconfig());
    const client = clientFromKubeconfig(join(dir, 'admin.kubeconfig'));
    const created = await client.json<{ metadata: { name: string } }>('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'from-client' } } });
    expect(created.metadata.name).toBe('from-client');
    const err = await client.json('GET', '/api/v1/namespaces/not-there').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);
    expect((err as ApiError).message).toBe('404: namespaces "not-there" not found');
    client.close();
  });
});

describe('network client credentials seen by a probe server', () => {
  let ca: CertificateAndKey;
  let probe: Probe;
  beforeAll(async () => {
    ca = await createCertificateAuthority('probe-ca', 1);
    writeFileSync(join(dir, 'ca.pem'), ca.certPem);
    probe = await startProbe(ca);
  });
  afterAll(() => probe?.close());

  const kubeconfig = (name: string, user: string[]): string => {
    const path = join(dir, name);
    const text = ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: p', '  cluster:', `    server: ${probe.url}`, '    certificate-authority: ca.pem', 'contexts:', '- name: p', '  context: {cluster: p, user: u}', 'current-context: p', 'users:', '- name: u', '  user:', ...user.map((l) => `    ${l}`), ''];
    writeFileSync(path, text.join('\n'));
    return path;
  };

  it('sends an inline token', async () => {
    probe.accepted = { token: 'inline-token' };
    const client = clientFromKubeconfig(kubeconfig('token.kubeconfig', ['token: inline-token']));
    expect((await client.request('GET', '/x')).status).toBe(200);
    client.close();
  });

  it('reads the token file (relative to the kubeconfig) on each request, so a rotated token is used', async () => {
    writeFileSync(join(dir, 'token.txt'), 'first\n');
    const client = clientFromKubeconfig(kubeconfig('token-file.kubeconfig', ['token: inline-loses', 'tokenFile: token.txt']));
    probe.accepted = { token: 'first' };
    expect((await client.request('GET', '/x')).status).toBe(200);
    writeFileSync(join(dir, 'token.txt'), 'second\n');
    probe.accepted = { token: 'second' };
    expect((await client.request('GET', '/x')).status).toBe(200);
    expect(probe.seen.at(-1)).toEqual({ authorization: 'Bearer second' });
    client.close();
  });

  it('presents the client certificate and key from files', async () => {
    const pair = await issueCertificate(ca, { commonName: 'file-user', usage: 'client', validForDays: 1 });
    writeFileSync(join(dir, 'user.crt'), pair.certPem);
    writeFileSync(join(dir, 'user.key'), pair.keyPem);
    probe.accepted = { cn: 'file-user' };
    const client = clientFromKubeconfig(kubeconfig('cert.kubeconfig', ['client-certificate: user.crt', 'client-key: user.key']));
    expect((await client.request('GET', '/x')).status).toBe(200);
    expect(probe.seen.at(-1)).toEqual({ cn: 'file-user' });
    client.close();
  });

  it('refuses a server whose certificate its CA did not sign', async () => {
    const other = await createCertificateAuthority('other-ca', 1);
    writeFileSync(join(dir, 'other-ca.pem'), other.certPem);
    const path = kubeconfig('other.kubeconfig', ['token: t']);
    writeFileSync(path, readFileSync(path, 'utf8').replace('ca.pem', 'other-ca.pem'));
    const client = clientFromKubeconfig(path);
    await expect(client.request('GET', '/x')).rejects.toThrow(/self-signed|unable to verify|unable to get local issuer/);
    client.close();
  });
});
