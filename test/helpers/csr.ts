/**
 * Certificate requests for tests, made by OpenSSL (an implementation independent of the server's):
 * a fresh P-256 key and a signed PKCS#10 request for the given subject and alternative names.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRequest {
  /** PEM of the request. */
  request: string;
  /** PEM of its private key. */
  keyPem: string;
}

export function makeCertificateRequest(opts: { commonName: string; organizations?: string[]; altNames?: string[] }): TestRequest {
  const dir = mkdtempSync(join(tmpdir(), 'orch-csr-'));
  try {
    const subject = [...(opts.organizations ?? []).map((o) => `/O=${o}`), `/CN=${opts.commonName}`].join('');
    const keyFile = join(dir, 'key.pem');
    const reqFile = join(dir, 'req.pem');
    execFileSync('openssl', [
      'req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-subj', subject, '-keyout', keyFile, '-out', reqFile,
      ...(opts.altNames?.length ? ['-addext', `subjectAltName=${opts.altNames.join(',')}`] : []),
    ], { stdio: 'pipe' });
    return { request: readFileSync(reqFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
