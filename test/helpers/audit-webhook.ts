/**
 * An audit webhook for tests: HTTPS on a free loopback port with a CA of its own, requiring a client
 * certificate from a second CA (the API server's identity towards it). Records every EventList it
 * takes; can be held (answers wait until released, as a slow receiver) or made to fail with a status.
 * Writes the kubeconfig `--audit-webhook-config-file` reads (relative paths, as operators write them).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { createCertificateAuthority, issueCertificate } from '../../src/machinery/x509/certificates.js';

export interface ReceivedList {
  kind: string;
  apiVersion: string;
  items: { auditID: string; stage: string; verb: string; level: string; objectRef?: Record<string, string> }[];
  /** The CN of the client certificate the API server presented. */
  caller: string;
}

export interface AuditWebhook {
  kubeconfigFile: string;
  /** EventLists answered 2xx. */
  received: ReceivedList[];
  /** Posts seen, answered or not. */
  posts(): number;
  /** Answers wait until the returned function is called. */
  hold(): () => void;
  /** Answer every post with this status (and take nothing) until cleared. */
  failWith?: number;
  close(): Promise<void>;
}

export async function startAuditWebhook(): Promise<AuditWebhook> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-audit-webhook-'));
  const ca = await createCertificateAuthority('test-audit-webhook-ca', 1);
  const serving = await issueCertificate(ca, { commonName: 'audit-webhook', ipAddresses: ['127.0.0.1'], usage: 'server', validForDays: 1 });
  const clientCa = await createCertificateAuthority('test-apiserver-identity-ca', 1);
  const client = await issueCertificate(clientCa, { commonName: 'orch-apiserver', usage: 'client', validForDays: 1 });
  writeFileSync(join(dir, 'webhook-ca.crt'), ca.certPem);
  writeFileSync(join(dir, 'apiserver.crt'), client.certPem);
  writeFileSync(join(dir, 'apiserver.key'), client.keyPem, { mode: 0o600 });
  let gate: Promise<void> = Promise.resolve();
  let posts = 0;
  const hook: AuditWebhook = {
    kubeconfigFile: join(dir, 'audit-webhook.kubeconfig'),
    received: [],
    posts: () => posts,
    hold() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem, ca: clientCa.certPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts += 1;
      void gate.then(() => {
        if (hook.failWith) {
          res.writeHead(hook.failWith, { 'content-type': 'text/plain' }).end('failing on purpose');
          return;
        }
        const list = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<ReceivedList, 'caller'>;
        const caller = String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? '');
        hook.received.push({ ...list, caller });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/audit`;
  writeFileSync(
    hook.kubeconfigFile,
    `apiVersion: v1
kind: Config
clusters:
- name: audit
  cluster:
    server: ${url}
    certificate-authority: webhook-ca.crt
users:
- name: kube-apiserver
  user:
    client-certificate: apiserver.crt
    client-key: apiserver.key
contexts:
- name: audit
  context: {cluster: audit, user: kube-apiserver}
current-context: audit
`,
  );
  return hook;
}
