import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeCertificateRequest } from '../../../test/helpers/csr.js';
import { createCertificateAuthority } from './certificates.js';
import { certificateRequestInfo, keyUsagesOf, signCertificateRequest } from './sign-request.js';

describe('certificate requests', () => {
  it('reads the subject and the alternative names', () => {
    const { request } = makeCertificateRequest({ commonName: 'system:node:n1', organizations: ['system:nodes'], altNames: ['DNS:n1.example', 'IP:10.0.0.7', 'email:a@b.c', 'URI:spiffe://x/y', 'IP:fd00::1'] });
    expect(certificateRequestInfo(request)).toEqual({
      commonName: 'system:node:n1',
      organizations: ['system:nodes'],
      dnsNames: ['n1.example'],
      ipAddresses: ['10.0.0.7', 'fd00::1'],
      emailAddresses: ['a@b.c'],
      uris: ['spiffe://x/y'],
    });
  });

  it('refuses usages it does not know, in Kubernetes words', () => {
    expect(() => keyUsagesOf(['client auth', 'flying'])).toThrow('unrecognized usage values: ["flying"]');
    expect(keyUsagesOf(['client auth', 'digital signature', 'server auth', 'key encipherment'])).toEqual({ bits: [0, 2], extended: ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2'] });
  });

  it('issues a certificate the CA verifies, with the request subject, key, names, usages and lifetime', async () => {
    const ca = await createCertificateAuthority('test-ca', 1);
    const { request, keyPem } = makeCertificateRequest({ commonName: 'jane', organizations: ['dev', 'ops'], altNames: ['DNS:jane.example'] });
    const now = new Date();
    const pem = await signCertificateRequest(ca, request, { usages: ['digital signature', 'client auth'], ttlMs: 3600_000, now });
    const cert = new X509Certificate(pem);
    const caCert = new X509Certificate(ca.certPem);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.subject).toBe('O=dev\nO=ops\nCN=jane');
    expect(cert.subjectAltName).toBe('DNS:jane.example');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(cert.ca).toBe(false);
    const { createPrivateKey, createPublicKey } = await import('node:crypto');
    expect(cert.checkPrivateKey(createPrivateKey(keyPem))).toBe(true);
    expect(createPublicKey(keyPem).export({ format: 'pem', type: 'spki' })).toBe(cert.publicKey.export({ format: 'pem', type: 'spki' }));
    expect(Date.parse(cert.validTo) - Date.parse(cert.validFrom)).toBe(3600_000);
  });

  it('never outlives the CA', async () => {
    const ca = await createCertificateAuthority('short-ca', 1);
    const { request } = makeCertificateRequest({ commonName: 'x' });
    const cert = new X509Certificate(await signCertificateRequest(ca, request, { usages: ['client auth'], ttlMs: 365 * 86400_000 }));
    expect(Date.parse(cert.validTo)).toBeLessThanOrEqual(Date.parse(new X509Certificate(ca.certPem).validTo));
  });
});
