/**
 * A throwaway certificate authority and a loopback server certificate made with the openssl
 * command, for tests that start their own HTTPS servers (webhooks). Files live in a temp dir.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  dir: string;
  caFile: string;
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
  remove(): void;
}

export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'orch-test-ca-'));
  const at = (f: string) => join(dir, f);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.crt'), '-days', '1', '-subj', '/CN=orch-test-ca');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(at('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', at('server.csr'), '-CA', at('ca.crt'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('server.crt'), '-days', '1', '-extfile', at('ext.cnf'));
  return {
    dir,
    caFile: at('ca.crt'),
    ca: readFileSync(at('ca.crt')),
    cert: readFileSync(at('server.crt')),
    key: readFileSync(at('server.key')),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
