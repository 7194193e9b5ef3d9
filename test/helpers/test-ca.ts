/**
 * A throwaway certificate authority and a loopback serving certificate, for tests that start their
 * own HTTPS servers (webhooks). Made with the server's own x509 helpers; the CA file lives in a
 * temporary directory beside whatever the test writes there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificateAuthority, issueCertificate } from '../../src/machinery/x509/certificates.js';

export interface TestCertificates {
  dir: string;
  caFile: string;
  ca: string;
  cert: string;
  key: string;
  remove(): void;
}

export async function makeTestCertificates(): Promise<TestCertificates> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-test-ca-'));
  const ca = await createCertificateAuthority('orch-test-ca', 1);
  const serving = await issueCertificate(ca, { commonName: '127.0.0.1', ipAddresses: ['127.0.0.1'], dnsNames: ['localhost'], usage: 'server', validForDays: 1 });
  const caFile = join(dir, 'ca.crt');
  writeFileSync(caFile, ca.certPem);
  return { dir, caFile, ca: ca.certPem, cert: serving.certPem, key: serving.keyPem, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
