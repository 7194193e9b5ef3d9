/**
 * A token-review webhook for tests: HTTPS on a free loopback port with a CA of its own, requiring a
 * client certificate from a second CA (the API server's identity towards it), answering TokenReviews
 * from a table of tokens. Writes the kubeconfig-format file `--authentication-token-webhook-config-file`
 * reads (CA, server, client certificate and key as files beside it). Counts the reviews it answers
 * and can be told to answer in another version, with an HTTP error, or not at all (`close`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificateAuthority, issueCertificate } from '../../src/machinery/x509/certificates.js';

export interface Decision {
  authenticated: boolean;
  user?: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  audiences?: string[];
  error?: string;
}

export interface ReceivedReview {
  apiVersion: unknown;
  kind: unknown;
  audiences: unknown;
  /** The CN of the client certificate the caller presented. */
  caller: string;
}

export interface TokenReviewWebhook {
  url: string;
  /** The kubeconfig for the API server: the webhook's CA and server, the API server's client certificate. */
  kubeconfigFile: string;
  /** The same webhook, but without a client certificate: its requests are refused during the handshake. */
  kubeconfigWithoutClientCert: string;
  /** How many reviews were answered. */
  calls(): number;
  received: ReceivedReview[];
  decide(token: string, decision: Decision): void;
  /** Answer with this apiVersion instead of the request's. */
  answerVersion?: string;
  /** Answer every review with this HTTP status and no TokenReview. */
  failWith?: number;
  close(): Promise<void>;
}

export async function startTokenReviewWebhook(opts: { path?: string } = {}): Promise<TokenReviewWebhook> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-webhook-'));
  const ca = await createCertificateAuthority('test-webhook-ca', 1);
  const serving = await issueCertificate(ca, { commonName: 'webhook', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], usage: 'server', validForDays: 1 });
  const clientCa = await createCertificateAuthority('test-apiserver-identity-ca', 1);
  const client = await issueCertificate(clientCa, { commonName: 'orch-apiserver', usage: 'client', validForDays: 1 });
  writeFileSync(join(dir, 'webhook-ca.crt'), ca.certPem);
  writeFileSync(join(dir, 'apiserver.crt'), client.certPem);
  writeFileSync(join(dir, 'apiserver.key'), client.keyPem, { mode: 0o600 });
  const decisions = new Map<string, Decision>();
  const received: ReceivedReview[] = [];
  let calls = 0;
  const path = opts.path ?? '/authenticate';

  const hook: TokenReviewWebhook = {
    url: '',
    kubeconfigFile: join(dir, 'webhook.kubeconfig'),
    kubeconfigWithoutClientCert: join(dir, 'webhook-no-cert.kubeconfig'),
    calls: () => calls,
    received,
    decide: (token, decision) => void decisions.set(token, decision),
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
      if (req.method !== 'POST' || req.url !== path) {
        res.writeHead(404).end();
        return;
      }
      calls++;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { apiVersion: string; kind: string; spec: { token: string; audiences?: string[] } };
      const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
      received.push({ apiVersion: review.apiVersion, kind: review.kind, audiences: review.spec.audiences, caller: String(peer.subject?.CN ?? '') });
      if (hook.failWith) {
        res.writeHead(hook.failWith, { 'content-type': 'text/plain' }).end(`failing on purpose for ${review.spec.token}`);
        return;
      }
      const decision = decisions.get(review.spec.token) ?? { authenticated: false };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: hook.answerVersion ?? review.apiVersion, kind: 'TokenReview', status: decision }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hook.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  writeFileSync(hook.kubeconfigFile, webhookKubeconfig(hook.url, true));
  writeFileSync(hook.kubeconfigWithoutClientCert, webhookKubeconfig(hook.url, false));
  return hook;
}

/** Relative paths, as operators write them: resolved against the kubeconfig's own directory. */
function webhookKubeconfig(server: string, withClientCert: boolean): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: token-webhook
  cluster:
    server: ${server}
    certificate-authority: webhook-ca.crt
users:
- name: kube-apiserver
  user:${withClientCert ? '\n    client-certificate: apiserver.crt\n    client-key: apiserver.key' : ' {}'}
contexts:
- name: webhook
  context:
    cluster: token-webhook
    user: kube-apiserver
current-context: webhook
`;
}
