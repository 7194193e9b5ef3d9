import { createHash, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCertificateAuthority } from '../../machinery/x509/certificates.js';
import { keyIdOf, publicJwk, signingKeyFromPem, verificationKeysFromPem } from './keys.js';

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ec384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ed = generateKeyPairSync('ed25519');

describe('service-account keys', () => {
  it('key ids are the unpadded base64url SHA-256 of the SPKI DER, as Kubernetes derives them', () => {
    const der = ec.publicKey.export({ type: 'spki', format: 'der' });
    expect(keyIdOf(ec.publicKey)).toBe(createHash('sha256').update(der).digest('base64url'));
    expect(keyIdOf(ec.publicKey)).not.toMatch(/[=+/]/);
  });

  it('read every RSA and ECDSA key of a verification file: public keys, private keys, certificates; other blocks skipped', async () => {
    const ca = await createCertificateAuthority('test-ca', 1);
    const pem = [
      '-----BEGIN NOTHING-----\nAAAA\n-----END NOTHING-----\n',
      ec.publicKey.export({ type: 'spki', format: 'pem' }),
      rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }),
      ec384.privateKey.export({ type: 'sec1', format: 'pem' }),
      rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      ed.publicKey.export({ type: 'spki', format: 'pem' }),
      ca.certPem,
    ].join('');
    const keys = verificationKeysFromPem(pem);
    expect(keys.map((k) => k.algorithm)).toEqual(['ES256', 'RS256', 'ES384', 'RS256', 'ES256']);
    expect(keys[4]?.keyId).toBe(keyIdOf(new X509Certificate(ca.certPem).publicKey));
    expect(keys[1]?.algorithms).toContain('PS256');
    expect(keys[0]?.algorithms).toEqual(['ES256']);
  });

  it('refuse a file without an RSA or ECDSA key, in Kubernetes\' words', () => {
    expect(() => verificationKeysFromPem(ed.publicKey.export({ type: 'spki', format: 'pem' }))).toThrow('data does not contain any valid RSA or ECDSA public keys');
    expect(() => signingKeyFromPem(ed.privateKey.export({ type: 'pkcs8', format: 'pem' }))).toThrow('data does not contain a valid RSA or ECDSA private key');
    expect(() => signingKeyFromPem(ec.publicKey.export({ type: 'spki', format: 'pem' }))).toThrow('data does not contain a valid RSA or ECDSA private key');
  });

  it('read a signing key in PKCS#1, SEC 1 or PKCS#8', () => {
    expect(signingKeyFromPem(rsa.privateKey.export({ type: 'pkcs1', format: 'pem' })).algorithm).toBe('RS256');
    expect(signingKeyFromPem(ec.privateKey.export({ type: 'sec1', format: 'pem' })).keyId).toBe(keyIdOf(ec.publicKey));
    expect(signingKeyFromPem(ec384.privateKey.export({ type: 'pkcs8', format: 'pem' })).algorithm).toBe('ES384');
  });

  it('publish only public members in the key set', () => {
    const [key] = verificationKeysFromPem(rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }));
    const jwk = publicJwk(key!);
    expect(Object.keys(jwk)).toEqual(['use', 'kty', 'kid', 'alg', 'n', 'e']);
    const [eckey] = verificationKeysFromPem(ec.privateKey.export({ type: 'sec1', format: 'pem' }));
    expect(Object.keys(publicJwk(eckey!))).toEqual(['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
  });
});
