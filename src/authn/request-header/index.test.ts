import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../machinery/x509/certificates.js';
import type { AuthenticationRequest } from '../types.js';
import { requestHeaderAuthenticator, unescapeExtraKey, type RequestHeaderConfig } from './index.js';

const signal = new AbortController().signal;
let proxyCa: CertificateAndKey;
let clientCa: CertificateAndKey;
let proxyCert: CertificateAndKey;
let config: RequestHeaderConfig;
beforeAll(async () => {
  [proxyCa, clientCa] = await Promise.all([createCertificateAuthority('proxy-ca', 1), createCertificateAuthority('client-ca', 1)]);
  proxyCert = await issueCertificate(proxyCa, { commonName: 'front-proxy', usage: 'client', validForDays: 1 });
  config = {
    caPem: proxyCa.certPem,
    allowedNames: [],
    usernameHeaders: ['X-Remote-User', 'X-Other-User'],
    groupHeaders: ['X-Remote-Group'],
    extraHeaderPrefixes: ['X-Remote-Extra-', 'X-Also-'],
  };
});

const from = (cert: CertificateAndKey, issuer: CertificateAndKey, rawHeaders: string[]): AuthenticationRequest => ({
  headers: {},
  rawHeaders,
  tls: { alpnProtocol: 'h2', verifiedChain: [new X509Certificate(cert.certPem), new X509Certificate(issuer.certPem)] },
});

describe('requestHeaderAuthenticator', () => {
  it('reads user, every group value and extras from a verified proxy', async () => {
    const r = await requestHeaderAuthenticator(config).authenticate(
      from(proxyCert, proxyCa, [
        'X-Remote-User', '',
        'x-other-user', 'jane',
        'X-Remote-Group', 'dev, ops',
        'x-remote-group', 'qa',
        'X-Remote-Group', '',
        'X-Remote-Extra-Scopes', 'read',
        'X-Also-scopes', 'write',
        'X-Remote-Extra-Acme.com%2FProject', 'alpha',
        'X-Remote-Extra-Bad%zz', 'kept',
      ]),
      signal,
    );
    expect(r).toEqual({
      kind: 'user',
      user: { username: 'jane', groups: ['dev, ops', 'qa'], extra: { scopes: ['read', 'write'], 'acme.com/project': ['alpha'], 'bad%zz': ['kept'] } },
    });
  });

  it('has no opinion without a certificate or without a user header', async () => {
    const a = requestHeaderAuthenticator(config);
    expect((await a.authenticate({ headers: { 'x-remote-user': 'mallory' }, rawHeaders: ['X-Remote-User', 'mallory'], tls: { alpnProtocol: 'h2' } }, signal)).kind).toBe('no-opinion');
    expect((await a.authenticate(from(proxyCert, proxyCa, ['X-Remote-Group', 'system:masters']), signal)).kind).toBe('no-opinion');
  });

  it('refuses a certificate of another CA (a user of the client CA), whatever headers it sends', async () => {
    const user = await issueCertificate(clientCa, { commonName: 'front-proxy', usage: 'client', validForDays: 1 });
    const r = await requestHeaderAuthenticator(config).authenticate(from(user, clientCa, ['X-Remote-User', 'mallory']), signal);
    expect(r.kind === 'error' && r.error.message).toMatch(/unknown authority/);
  });

  it('refuses a proxy whose CN is not allowed', async () => {
    const r = await requestHeaderAuthenticator({ ...config, allowedNames: ['aggregator'] }).authenticate(from(proxyCert, proxyCa, ['X-Remote-User', 'jane']), signal);
    expect(r.kind === 'error' && r.error.message).toBe('x509: subject with cn=front-proxy is not in the allowed list');
    const ok = await requestHeaderAuthenticator({ ...config, allowedNames: ['aggregator', 'front-proxy'] }).authenticate(from(proxyCert, proxyCa, ['X-Remote-User', 'jane']), signal);
    expect(ok.kind).toBe('user');
  });

  it.each([
    ['scopes', 'scopes'],
    ['acme.com%2fproject', 'acme.com/project'],
    ['a%20b', 'a b'],
    ['%e2%9c%93', '✓'],
    ['100%', '100%'],
    ['a+b', 'a+b'],
  ])('extra key %j is %j', (encoded, key) => expect(unescapeExtraKey(encoded)).toBe(key));
});
