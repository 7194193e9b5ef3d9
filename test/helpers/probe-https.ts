/**
 * A small HTTPS server for client tests: it accepts a bearer token or a client certificate (by CN)
 * signed by the given CA, answers 200 or a 401 Status, and records what each request carried and how
 * many TLS connections it saw, so tests can tell which credential a client sent and over what.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { issueCertificate, type CertificateAndKey } from '../../src/machinery/x509/certificates.js';

/** An HTTPS server that wants `token` or a client certificate with CN `acceptedCn`, and reports what it saw. */
export interface Probe {
  url: string;
  accepted: { token?: string; cn?: string };
  connections: number;
  seen: { authorization?: string; cn?: string }[];
  close(): Promise<void>;
}

export async function startProbe(ca: CertificateAndKey): Promise<Probe> {
  const serving = await issueCertificate(ca, { commonName: 'probe', ipAddresses: ['127.0.0.1'], usage: 'server', validForDays: 1 });
  const probe: Omit<Probe, 'url' | 'close'> = { accepted: {}, connections: 0, seen: [] };
  const server = https.createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const socket = req.socket as TLSSocket;
    const peer = socket.authorized ? socket.getPeerCertificate() : undefined;
    const cn = peer?.subject?.CN;
    const authorization = req.headers.authorization;
    probe.seen.push({ ...(authorization ? { authorization } : {}), ...(cn ? { cn: String(cn) } : {}) });
    const ok = (probe.accepted.token !== undefined && authorization === `Bearer ${probe.accepted.token}`) || (probe.accepted.cn !== undefined && cn === probe.accepted.cn);
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    // A watch gets one event, then the stream ends.
    if (ok && req.url?.includes('watch=1')) return res.end(`${JSON.stringify({ type: 'ADDED', object: { kind: 'Probe' } })}\n`);
    res.end(JSON.stringify(ok ? { kind: 'Probe', ok: true } : { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }));
  });
  server.on('secureConnection', () => probe.connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return Object.assign(probe, {
    url: `https://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  });
}
