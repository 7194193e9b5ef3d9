import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWebhookKubeconfig } from './webhook-kubeconfig.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-webhook-kubeconfig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CA = '-----BEGIN CERTIFICATE-----\nca\n-----END CERTIFICATE-----\n';
const CERT = '-----BEGIN CERTIFICATE-----\nclient\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----\n';
mkdirSync(join(dir, 'pki'));
writeFileSync(join(dir, 'pki', 'ca.crt'), CA);
writeFileSync(join(dir, 'pki', 'client.crt'), CERT);
writeFileSync(join(dir, 'pki', 'client.key'), KEY);

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const kubeconfig = (cluster: string, user: string, extra = ''): string => `apiVersion: v1
kind: Config
clusters:
- name: other
  cluster: {server: "https://wrong.example.com"}
- name: authn
  cluster:
${cluster}
users:
- name: apiserver
  user:
${user}
contexts:
- name: webhook
  context: {cluster: authn, user: apiserver}
current-context: webhook
${extra}`;

describe('loadWebhookKubeconfig', () => {
  it('reads the current context: server, CA and client certificate, paths relative to the file', () => {
    const p = file('relative.yaml', kubeconfig('    server: https://127.0.0.1:8443/authenticate\n    certificate-authority: pki/ca.crt', '    client-certificate: pki/client.crt\n    client-key: pki/client.key'));
    expect(loadWebhookKubeconfig(p)).toEqual({ server: 'https://127.0.0.1:8443/authenticate', ca: CA, clientCert: CERT, clientKey: KEY, insecureSkipTlsVerify: false });
  });

  it('reads the -data forms and a token', () => {
    const b64 = (s: string): string => Buffer.from(s).toString('base64');
    const p = file('data.yaml', kubeconfig(`    server: https://webhook.example.com\n    certificate-authority-data: ${b64(CA)}\n    tls-server-name: webhook.internal`, `    client-certificate-data: ${b64(CERT)}\n    client-key-data: ${b64(KEY)}\n    token: webhook-secret`));
    expect(loadWebhookKubeconfig(p)).toEqual({ server: 'https://webhook.example.com', ca: CA, tlsServerName: 'webhook.internal', clientCert: CERT, clientKey: KEY, token: 'webhook-secret', insecureSkipTlsVerify: false });
  });

  it.each([
    ['no current context', kubeconfig('    server: https://x', '    token: t').replace('current-context: webhook', ''), 'no current-context is set'],
    ['a current context that is not there', kubeconfig('    server: https://x', '    token: t').replace('current-context: webhook', 'current-context: nope'), 'context "nope" (current-context) is not among contexts'],
    ['no server', kubeconfig('    insecure-skip-tls-verify: true', '    token: t'), 'cluster "authn" has no server'],
    ['a server that is no URL', kubeconfig('    server: "::nope"', '    token: t'), 'cluster "authn": server "::nope" is not a URL'],
    ['a CA file that is missing', kubeconfig('    server: https://x\n    certificate-authority: pki/missing.crt', '    token: t'), 'cluster "authn": certificate-authority: ENOENT'],
    ['a certificate without its key', kubeconfig('    server: https://x', '    client-certificate: pki/client.crt'), 'user "apiserver": a client certificate needs its key'],
    ['data that is not PEM', kubeconfig('    server: https://x\n    certificate-authority-data: bm9wZQ==', '    token: t'), 'cluster "authn": certificate-authority-data is not base64 of PEM'],
  ])('refuses %s, naming the flag and file', (_name, text, message) => {
    const p = file('bad.yaml', text);
    expect(() => loadWebhookKubeconfig(p)).toThrow(`--authentication-token-webhook-config-file ${p}: ${message}`);
  });

  it('refuses a file that does not exist', () => {
    expect(() => loadWebhookKubeconfig(join(dir, 'none.yaml'))).toThrow('--authentication-token-webhook-config-file');
  });
});
