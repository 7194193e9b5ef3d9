import { describe, expect, it } from 'vitest';
import { parseRequiredClaims, parseSigningAlgs, resolveOidcSettings } from './settings.js';

const base = { issuerUrl: 'https://idp.example.com', clientId: 'orch' };

describe('resolveOidcSettings', () => {
  it.each([
    ['the default claim (sub) gets the issuer and #', {}, 'https://idp.example.com#'],
    ['email gets no prefix by default', { usernameClaim: 'email' }, ''],
    ['another claim gets the issuer and #', { usernameClaim: 'preferred_username' }, 'https://idp.example.com#'],
    ['a chosen prefix is kept', { usernamePrefix: 'oidc:' }, 'oidc:'],
    ['a chosen prefix applies to email too', { usernameClaim: 'email', usernamePrefix: 'oidc:' }, 'oidc:'],
    ['- means no prefix', { usernamePrefix: '-' }, ''],
    ['- means no prefix for email too', { usernameClaim: 'email', usernamePrefix: '-' }, ''],
  ])('user name prefix: %s', (_name, extra, prefix) => {
    expect(resolveOidcSettings({ ...base, ...extra }).usernamePrefix).toBe(prefix);
  });

  it('defaults: claim sub, RS256, no groups claim, no required claims', () => {
    const s = resolveOidcSettings(base);
    expect(s).toMatchObject({ usernameClaim: 'sub', signingAlgs: ['RS256'], groupsPrefix: '', requiredClaims: [] });
    expect(s.groupsClaim).toBeUndefined();
  });

  it.each([
    [{ issuerUrl: 'https://idp.example.com', clientId: '' }, 'oidc-issuer-url and oidc-client-id should be specified together'],
    [{ issuerUrl: '', clientId: 'orch' }, 'oidc-issuer-url and oidc-client-id should be specified together'],
    [{ issuerUrl: 'http://idp.example.com', clientId: 'orch' }, `'oidc-issuer-url' ("http://idp.example.com") has invalid scheme ("http"), require 'https'`],
    [{ issuerUrl: 'idp.example.com', clientId: 'orch' }, `'oidc-issuer-url' ("idp.example.com") has invalid scheme (""), require 'https'`],
    [{ ...base, signingAlgs: ['RS256', 'HS256'] }, 'oidc: unsupported signing alg: "HS256"'],
    [{ ...base, signingAlgs: ['none'] }, 'oidc: unsupported signing alg: "none"'],
    [{ ...base, usernameClaim: '' }, 'no username claim provided'],
  ])('refuses %j', (opts, message) => {
    expect(() => resolveOidcSettings(opts)).toThrow(message);
  });
});

describe('flag parsing', () => {
  it('reads required claims as key=value, comma-separated or repeated; the last key wins', () => {
    expect(parseRequiredClaims(['hd=example.com', 'team=a,tier=gold', 'team=b'])).toEqual({ hd: 'example.com', team: 'b', tier: 'gold' });
    expect(parseRequiredClaims(['empty='])).toEqual({ empty: '' });
    expect(() => parseRequiredClaims(['novalue'])).toThrow('--oidc-required-claim: "novalue" must be formatted as key=value');
  });

  it('reads signing algorithms comma-separated or repeated', () => {
    expect(parseSigningAlgs(['RS256,ES256', 'PS256'])).toEqual(['RS256', 'ES256', 'PS256']);
  });
});
