import { connect as http2Connect } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../machinery/x509/certificates.js';
import { listen, type Listener, type TlsPeer } from './listener.js';

let ca: CertificateAndKey;
let serving: CertificateAndKey;
let admin: CertificateAndKey;
let stranger: CertificateAndKey;
beforeAll(async () => {
  ca = await createCertificateAuthority('listener-test-ca', 1);
  serving = await issueCertificate(ca, { commonName: 'server', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], usage: 'server', validForDays: 1 });
  admin = await issueCertificate(ca, { commonName: 'jane', organizations: ['system:masters'], usage: 'client', validForDays: 1 });
  const otherCa = await createCertificateAuthority('someone-else', 1);
  stranger = await issueCertificate(otherCa, { commonName: 'mallory', usage: 'client', validForDays: 1 });
});

const open: Listener[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

/** A secure listener that answers every request with the protocol it came over and records the TLS peer. */
async function secure(clientCa = true): Promise<{ url: string; peers: (TlsPeer | undefined)[] }> {
  const peers: (TlsPeer | undefined)[] = [];
  const l = await listen({
    host: '127.0.0.1',
    port: 0,
    tls: { certPem: serving.certPem, keyPem: serving.keyPem, ...(clientCa ? { clientCaPem: ca.certPem } : {}), minVersion: 'TLSv1.2' },
    handler(req, res, peer) {
      peers.push(peer);
      res.setHeader('Content-Type', 'text/plain');
      res.end(`HTTP/${req.httpVersion}`);
    },
  });
  open.push(l);
  return { url: `https://127.0.0.1:${l.address.port}`, peers };
}

function getOverH1(url: string, client: Partial<CertificateAndKey> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca: ca.certPem, ...(client.certPem ? { cert: client.certPem, key: client.keyPem } : {}) }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

function getOverH2(url: string, client: Partial<CertificateAndKey> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const session = http2Connect(url, { ca: ca.certPem, ...(client.certPem ? { cert: client.certPem, key: client.keyPem } : {}) });
    session.on('error', reject);
    const stream = session.request({ ':path': '/' });
    let body = '';
    stream.setEncoding('utf8').on('data', (c: string) => (body += c));
    stream.on('end', () => {
      session.close();
      resolve(body);
    });
    stream.on('error', reject);
  });
}

function alpn(url: string, protocols: string[]): Promise<string | false> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port: Number(port), ca: ca.certPem, ALPNProtocols: protocols }, () => {
      resolve(socket.alpnProtocol ?? false);
      socket.end();
    });
    socket.on('error', reject);
  });
}

describe('secure listener', () => {
  it('negotiates h2 and http/1.1 by ALPN on one port, and serves both', async () => {
    const { url } = await secure();
    expect(await alpn(url, ['h2', 'http/1.1'])).toBe('h2');
    expect(await alpn(url, ['http/1.1'])).toBe('http/1.1');
    expect(await getOverH2(url)).toBe('HTTP/2.0');
    expect(await getOverH1(url)).toBe('HTTP/1.1');
  });

  it('asks for a client certificate but lets clients without one in', async () => {
    const { url, peers } = await secure();
    expect(await getOverH1(url)).toBe('HTTP/1.1');
    expect(await getOverH2(url)).toBe('HTTP/2.0');
    expect(peers).toEqual([{ alpnProtocol: 'http/1.1' }, { alpnProtocol: 'h2' }]);
  });

  it('hands the verified chain of a client certificate to the handler, over both protocols', async () => {
    const { url, peers } = await secure();
    await getOverH1(url, admin);
    await getOverH2(url, admin);
    expect(peers.map((p) => p?.alpnProtocol)).toEqual(['http/1.1', 'h2']);
    for (const p of peers) {
      expect(p?.verificationError).toBeUndefined();
      expect(p?.verifiedChain?.[0]?.subject).toBe('O=system:masters\nCN=jane');
      expect(p?.verifiedChain?.at(-1)?.subject).toBe('CN=listener-test-ca');
    }
  });

  it('keeps the connection of a certificate from another CA, reporting why it did not verify', async () => {
    const { url, peers } = await secure();
    expect(await getOverH1(url, stranger)).toBe('HTTP/1.1');
    expect(peers[0]?.verifiedChain).toBeUndefined();
    expect(peers[0]?.verificationError).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it('asks for no client certificate without a client CA', async () => {
    const { url, peers } = await secure(false);
    await getOverH1(url, admin);
    expect(peers).toEqual([{ alpnProtocol: 'http/1.1' }]);
  });

  it('close() ends open HTTP/2 sessions too', async () => {
    const { url } = await secure();
    const session = http2Connect(url, { ca: ca.certPem });
    session.on('error', () => undefined);
    await new Promise<void>((resolve) => session.once('connect', () => resolve()));
    const closed = new Promise<void>((resolve) => session.once('close', () => resolve()));
    await open.splice(0)[0]?.close();
    await closed;
    expect(session.destroyed).toBe(true);
  });
});

describe('plain listener', () => {
  it('serves HTTP/1.1 without a TLS peer', async () => {
    const peers: (TlsPeer | undefined)[] = [];
    const l = await listen({ host: '127.0.0.1', port: 0, handler: (_req, res, peer) => (peers.push(peer), res.end('ok')) });
    open.push(l);
    expect(l.scheme).toBe('http');
    const res = await fetch(`http://127.0.0.1:${l.address.port}/`);
    expect(await res.text()).toBe('ok');
    expect(peers).toEqual([undefined]);
  });
});
