import { createPrivateKey, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueCertificate, validFor } from './certificates.js';

describe('certificates', () => {
  it('makes a self-signed certificate authority with an ECDSA P-256 key', async () => {
    const ca = await createCertificateAuthority('test-ca', 10);
    const cert = new X509Certificate(ca.certPem);
    expect(cert.ca).toBe(true);
    expect(cert.subject).toBe('CN=test-ca');
    expect(cert.issuer).toBe('CN=test-ca');
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.keyUsage).toBeUndefined(); // Node reports extended key usage only; none on a CA.
    const key = createPrivateKey(ca.keyPem);
    expect(key.asymmetricKeyType).toBe('ec');
    expect(key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
  });

  it('issues a serving certificate with host names and IP addresses of both families', async () => {
    const ca = await createCertificateAuthority('test-ca', 10);
    const issued = await issueCertificate(ca, {
      commonName: 'server',
      dnsNames: ['localhost', 'kubernetes.default.svc'],
      ipAddresses: ['127.0.0.1', '::1', '10.0.0.1'],
      usage: 'server',
      validForDays: 1,
    });
    const cert = new X509Certificate(issued.certPem);
    const caCert = new X509Certificate(ca.certPem);
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.subjectAltName).toBe('DNS:localhost, DNS:kubernetes.default.svc, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:10.0.0.1');
    expect(cert.checkHost('kubernetes.default.svc')).toBe('kubernetes.default.svc');
    expect(cert.checkIP('::1')).toBe('::1');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(cert.publicKey.equals(createPrivateKey(issued.keyPem))).toBe(false);
  });

  it('issues a client certificate whose subject carries the user (CN) and groups (O)', async () => {
    const ca = await createCertificateAuthority('test-ca', 10);
    const issued = await issueCertificate(ca, { commonName: 'jane', organizations: ['system:masters', 'dev'], usage: 'client', validForDays: 1 });
    const cert = new X509Certificate(issued.certPem);
    expect(cert.subject.split('\n').sort()).toEqual(['CN=jane', 'O=dev', 'O=system:masters']);
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(cert.subjectAltName).toBeUndefined();
  });

  it('gives every certificate its own serial number', async () => {
    const ca = await createCertificateAuthority('test-ca', 10);
    const a = await issueCertificate(ca, { commonName: 'a', usage: 'client', validForDays: 1 });
    const b = await issueCertificate(ca, { commonName: 'a', usage: 'client', validForDays: 1 });
    expect(new X509Certificate(a.certPem).serialNumber).not.toBe(new X509Certificate(b.certPem).serialNumber);
  });

  it('tells whether a certificate is still valid for a margin', async () => {
    const ca = await createCertificateAuthority('test-ca', 2);
    expect(validFor(ca.certPem, 60_000)).toBe(true);
    expect(validFor(ca.certPem, 3 * 24 * 3600_000)).toBe(false);
  });

  it('refuses an IP address it cannot read', async () => {
    const ca = await createCertificateAuthority('test-ca', 1);
    await expect(issueCertificate(ca, { commonName: 'x', ipAddresses: ['300.1.1.1'], usage: 'server', validForDays: 1 })).rejects.toThrow('"300.1.1.1" is not an IP address');
  });
});
