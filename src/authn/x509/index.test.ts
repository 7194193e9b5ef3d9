import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../machinery/x509/certificates.js';
import type { AuthenticationRequest } from '../types.js';
import { x509ClientCertificates } from './index.js';

const signal = new AbortController().signal;
const DAY = 24 * 60 * 60 * 1000;
let ca: CertificateAndKey;
let otherCa: CertificateAndKey;
beforeAll(async () => {
  [ca, otherCa] = await Promise.all([createCertificateAuthority('test-ca', 1), createCertificateAuthority('other-ca', 1)]);
});

/** A chain as the listener hands it on: leaf first, then its CA. */
const chainOf = (leaf: CertificateAndKey, issuer: CertificateAndKey): AuthenticationRequest => ({
  headers: {},
  tls: { alpnProtocol: 'h2', verifiedChain: [new X509Certificate(leaf.certPem), new X509Certificate(issuer.certPem)] },
});

describe('x509ClientCertificates', () => {
  it('proves the CN as user and every O as a group', async () => {
    const leaf = await issueCertificate(ca, { commonName: 'jane', organizations: ['dev', 'ops'], usage: 'client', validForDays: 1 });
    expect(await x509ClientCertificates(ca.certPem).authenticate(chainOf(leaf, ca), signal)).toEqual({ kind: 'user', user: { username: 'jane', groups: ['dev', 'ops'] } });
  });

  it('has no opinion without TLS, without a certificate, or for a certificate without a CN', async () => {
    const a = x509ClientCertificates(ca.certPem);
    expect((await a.authenticate({ headers: {} }, signal)).kind).toBe('no-opinion');
    expect((await a.authenticate({ headers: {}, tls: { alpnProtocol: 'h2' } }, signal)).kind).toBe('no-opinion');
    const noName = await issueCertificate(ca, { commonName: '', organizations: ['dev'], usage: 'client', validForDays: 1 });
    expect((await a.authenticate(chainOf(noName, ca), signal)).kind).toBe('no-opinion');
  });

  it.each<[string, () => Promise<AuthenticationRequest>, RegExp]>([
    ['one the handshake could not verify', async () => ({ headers: {}, tls: { alpnProtocol: 'h2', verificationError: 'CERT_HAS_EXPIRED' } }), /CERT_HAS_EXPIRED/],
    ['one of another CA (a proxy certificate, say)', async () => chainOf(await issueCertificate(otherCa, { commonName: 'proxy', usage: 'client', validForDays: 1 }), otherCa), /unknown authority/],
    [
      'one that expired since the connection opened',
      async () => chainOf(await issueCertificate(ca, { commonName: 'jane', usage: 'client', validForDays: 1, validity: { notBefore: new Date(Date.now() - 2 * DAY), notAfter: new Date(Date.now() - DAY) } }), ca),
      /expired or is not yet valid/,
    ],
    ['a serving certificate', async () => chainOf(await issueCertificate(ca, { commonName: 'jane', usage: 'server', validForDays: 1 }), ca), /incompatible key usage/],
  ])('refuses %s with an error', async (_n, request, message) => {
    const r = await x509ClientCertificates(ca.certPem).authenticate(await request(), signal);
    expect(r.kind).toBe('error');
    expect(r.kind === 'error' && r.error.message).toMatch(message);
  });

  it('accepts a chain anchored in any CA of the bundle', async () => {
    const leaf = await issueCertificate(otherCa, { commonName: 'bob', usage: 'client', validForDays: 1 });
    const r = await x509ClientCertificates(`${ca.certPem}\n${otherCa.certPem}`).authenticate({ headers: {}, tls: { alpnProtocol: 'h2', verifiedChain: [new X509Certificate(leaf.certPem)] } }, signal);
    expect(r.kind === 'user' && r.user.username).toBe('bob');
  });
});
