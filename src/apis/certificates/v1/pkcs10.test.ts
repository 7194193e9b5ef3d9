import { describe, expect, it } from 'vitest';
import { EC_CERT, EC_CSR, ED25519_CSR, RSA_CERT, RSA_CSR, RSA_MD5_CSR, RSA_PSS_CSR, RSA_SHA1_CSR } from '../../../../test/kinds/certificates/fixtures.js';
import { certificateProblem, certificateRequestProblem } from './pkcs10.js';

const buf = (s: string): Buffer => Buffer.from(s, 'latin1');

/** The request with one byte of its DER changed at `fromEnd` bytes before the end (inside the signature). */
function tampered(pem: string, fromEnd = 10): Buffer {
  const body = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
  const der = Buffer.from(body, 'base64');
  der[der.length - fromEnd] = (der[der.length - fromEnd] as number) ^ 0x01;
  return buf(`-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`);
}

describe('certificateRequestProblem', () => {
  it.each([
    ['RSA PKCS#1 v1.5 SHA-256', RSA_CSR],
    ['RSA PKCS#1 v1.5 SHA-1', RSA_SHA1_CSR],
    ['RSA-PSS', RSA_PSS_CSR],
    ['ECDSA P-256', EC_CSR],
    ['Ed25519', ED25519_CSR],
  ])('accepts a request signed with %s', (_name, pem) => {
    expect(certificateRequestProblem(buf(pem))).toBeUndefined();
  });

  it('accepts text around the block', () => {
    expect(certificateRequestProblem(buf(`a request for alice:\n${RSA_CSR}trailing words\n`))).toBeUndefined();
  });

  it('wants a CERTIFICATE REQUEST block first', () => {
    expect(certificateRequestProblem(buf('not pem at all'))).toBe('PEM block type must be CERTIFICATE REQUEST');
    expect(certificateRequestProblem(buf(EC_CERT))).toBe('PEM block type must be CERTIFICATE REQUEST');
    expect(certificateRequestProblem(buf(''))).toBe('PEM block type must be CERTIFICATE REQUEST');
  });

  it('checks the signature', () => {
    expect(certificateRequestProblem(tampered(RSA_CSR))).toBe('crypto/rsa: verification error');
    expect(certificateRequestProblem(tampered(EC_CSR, 3))).toBe('x509: ECDSA verification failure');
    expect(certificateRequestProblem(tampered(ED25519_CSR, 3))).toBe('x509: Ed25519 verification failure');
  });

  it('refuses MD5 signatures as Go does', () => {
    expect(certificateRequestProblem(buf(RSA_MD5_CSR))).toBe('x509: cannot verify signature: insecure algorithm MD5-RSA');
  });

  it('reports DER that does not parse', () => {
    const junk = buf(`-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.from('hello world').toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`);
    expect(certificateRequestProblem(junk)).toMatch(/^asn1: /);
    const body = Buffer.from(RSA_CSR.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
    const truncated = buf(`-----BEGIN CERTIFICATE REQUEST-----\n${body.subarray(0, body.length - 5).toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`);
    expect(certificateRequestProblem(truncated)).toBe('asn1: syntax error: data truncated');
    const trailing = buf(`-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.concat([body, Buffer.from([0])]).toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`);
    expect(certificateRequestProblem(trailing)).toBe('asn1: syntax error: trailing data');
  });
});

describe('certificateProblem', () => {
  it('accepts CERTIFICATE blocks, a chain, and explanatory text', () => {
    expect(certificateProblem(buf(EC_CERT))).toBeUndefined();
    expect(certificateProblem(buf(`issued:\n${EC_CERT}${RSA_CERT}end\n`))).toBeUndefined();
    expect(certificateProblem(Buffer.alloc(0))).toBeUndefined();
  });

  it('refuses other blocks, headers, no blocks and bad DER', () => {
    expect(certificateProblem(buf(RSA_CSR))).toBe('only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"');
    expect(certificateProblem(buf('just text'))).toBe('must contain at least one CERTIFICATE PEM block');
    expect(certificateProblem(buf(EC_CERT.replace('-----\n', '-----\nProc-Type: 4,ENCRYPTED\n')))).toBe('no PEM block headers are permitted');
    expect(certificateProblem(buf(`-----BEGIN CERTIFICATE-----\n${Buffer.from('nope').toString('base64')}\n-----END CERTIFICATE-----\n`))).toBe('x509: malformed certificate');
  });
});
