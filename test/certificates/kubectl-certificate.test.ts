/**
 * kubectl (k8s.io names) drives a certificate request through approval and signing: `kubectl
 * certificate approve` gets it issued by the server's CA (the chain checked with Node's
 * X509Certificate), and the issued certificate with its key authenticates kubectl as its subject;
 * `kubectl certificate deny` leaves it Denied and unsigned.
 */
import { X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBECTL, kubectlRuns, onPath, withKubectlServer } from '../helpers/kubectl.js';
import { makeCertificateRequest } from '../helpers/csr.js';

const present = onPath(DEFAULT_KUBECTL) !== undefined && (await kubectlRuns(DEFAULT_KUBECTL));
if (!present) console.warn(`kubectl certificate tests skipped: ${DEFAULT_KUBECTL} is not on PATH`);

const manifestOf = (name: string, request: string, signerName: string): string =>
  JSON.stringify({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: Buffer.from(request).toString('base64'), signerName, usages: ['client auth'], expirationSeconds: 3600 },
  });

async function until(f: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await f()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never: ${what}`);
}

describe.skipIf(!present)('kubectl certificate approve and deny', () => {
  const { kubectl, manifest } = withKubectlServer('orch-kubectl-csr-', { apiDomain: 'k8s.io' });

  it('approve: the request is issued by the cluster CA and the certificate logs kubectl in', async () => {
    const { request, keyPem } = makeCertificateRequest({ commonName: 'carol', organizations: ['qa'] });
    const file = manifest('carol.json', manifestOf('carol', request, 'kubernetes.io/kube-apiserver-client'));
    expect((await kubectl('create', '-f', file)).code).toBe(0);
    const approved = await kubectl('certificate', 'approve', 'carol');
    expect(approved.stdout.trim()).toBe('certificatesigningrequest.certificates.k8s.io/carol approved');
    let certificate = '';
    await until(async () => {
      certificate = (await kubectl('get', 'csr', 'carol', '-o', 'jsonpath={.status.certificate}')).stdout.trim();
      return certificate !== '';
    }, 'the certificate was issued');
    const got = await kubectl('get', 'csr', 'carol');
    expect(got.stdout).toMatch(/carol\s+\S+\s+kubernetes.io\/kube-apiserver-client\s+orch-admin\s+60m\s+Approved,Issued/);

    const pem = Buffer.from(certificate, 'base64').toString();
    const cert = new X509Certificate(pem);
    const caPem = (await kubectl('config', 'view', '--raw', '-o', 'jsonpath={.clusters[0].cluster.certificate-authority-data}')).stdout.trim();
    const ca = new X509Certificate(Buffer.from(caPem, 'base64'));
    expect(cert.checkIssued(ca) && cert.verify(ca.publicKey)).toBe(true);
    expect(cert.subject).toBe('O=qa\nCN=carol');

    // kubectl with the issued certificate is carol: RBAC names her in its refusal.
    const dir = join(file, '..');
    writeFileSync(join(dir, 'carol.crt'), pem);
    writeFileSync(join(dir, 'carol.key'), keyPem, { mode: 0o600 });
    expect((await kubectl('config', 'set-credentials', 'carol', `--client-certificate=${join(dir, 'carol.crt')}`, `--client-key=${join(dir, 'carol.key')}`, '--embed-certs')).code).toBe(0);
    const asCarol = await kubectl('get', 'secrets', '-n', 'default', '--user=carol');
    expect(asCarol.code).not.toBe(0);
    expect(asCarol.stderr).toContain('User "carol" cannot list resource "secrets" in API group "" in the namespace "default"');
  });

  it('deny: the request is Denied and never issued', async () => {
    const { request } = makeCertificateRequest({ commonName: 'dave' });
    const file = manifest('dave.json', manifestOf('dave', request, 'kubernetes.io/kube-apiserver-client'));
    expect((await kubectl('create', '-f', file)).code).toBe(0);
    expect((await kubectl('certificate', 'deny', 'dave')).stdout.trim()).toBe('certificatesigningrequest.certificates.k8s.io/dave denied');
    const got = await kubectl('get', 'csr', 'dave', '-o', 'json');
    const csr = JSON.parse(got.stdout);
    expect(csr.status.conditions).toMatchObject([{ type: 'Denied', status: 'True', reason: 'KubectlDeny' }]);
    expect(csr.status.certificate).toBeUndefined();
    expect((await kubectl('get', 'csr', 'dave')).stdout).toMatch(/dave\s+.*\s+Denied\n/);
  });
});
