/**
 * The OpenID Connect authenticator against a real identity provider over HTTPS (discovery, key
 * set, its own CA), as the server would run it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOidcAuthenticator, type OidcAuthenticator, type OidcOptions } from '../../src/authn/oidc/index.js';
import type { Logger } from '../../src/machinery/logger.js';
import { startIdentityProvider, type IdentityProvider } from '../helpers/identity-provider.js';

let idp: IdentityProvider;
const open: OidcAuthenticator[] = [];
const logs: string[] = [];
const log: Logger = {
  debug: (m, f) => logs.push(`${m} ${JSON.stringify(f ?? {})}`),
  info: (m, f) => logs.push(`${m} ${JSON.stringify(f ?? {})}`),
  warn: (m, f) => logs.push(`${m} ${JSON.stringify(f ?? {})}`),
  error: (m, f) => logs.push(`${m} ${JSON.stringify(f ?? {})}`),
};

beforeAll(async () => {
  idp = await startIdentityProvider();
});
afterAll(() => idp.close());
afterEach(() => {
  for (const a of open.splice(0)) a.close();
});

async function authenticator(extra: Partial<OidcOptions> = {}): Promise<OidcAuthenticator> {
  const a = createOidcAuthenticator({ issuerUrl: idp.issuer, clientId: idp.clientId, caFile: idp.caFile, ...extra }, { log });
  open.push(a);
  await a.ready();
  return a;
}

const signal = new AbortController().signal;

describe('OIDC authenticator with an HTTPS identity provider', () => {
  it('maps a valid ID token to the user (issuer-prefixed sub) and the groups claim with its prefix', async () => {
    const a = await authenticator({ groupsClaim: 'groups', groupsPrefix: 'oidc:' });
    const token = await idp.idToken({ sub: 'jane', groups: ['dev', 'ops'] });
    expect(await a.authenticateToken({ token }, signal)).toEqual({ kind: 'user', user: { username: `${idp.issuer}#jane`, groups: ['oidc:dev', 'oidc:ops'] } });
  });

  it('uses the email claim without a prefix, a groups claim given as one string, and required claims', async () => {
    const a = await authenticator({ usernameClaim: 'email', groupsClaim: 'role', requiredClaims: { hd: 'example.com' } });
    const token = await idp.idToken({ email: 'jane@example.com', email_verified: true, role: 'admin', hd: 'example.com' });
    expect(await a.authenticateToken({ token }, signal)).toEqual({ kind: 'user', user: { username: 'jane@example.com', groups: ['admin'] } });
  });

  it('reads discovery and keys once, not per request', async () => {
    const before = { ...idp.reads };
    const a = await authenticator();
    for (let i = 0; i < 5; i++) expect((await a.authenticateToken({ token: await idp.idToken() }, signal)).kind).toBe('user');
    expect(idp.reads.discovery - before.discovery).toBe(1);
    expect(idp.reads.keys - before.keys).toBe(1);
  });

  it.each<[string, () => Promise<string>, Partial<OidcOptions>, string]>([
    ['a forged signature', () => idp.idToken({}, { signWith: 'stranger' }), {}, 'oidc: verify token: failed to verify signature: failed to verify id token signature'],
    ['an expired token', () => idp.idToken({ exp: Math.floor(Date.now() / 1000) - 5 }), {}, 'oidc: verify token: oidc: token is expired'],
    ['another audience', () => idp.idToken({ aud: 'someone-else' }), {}, 'oidc: verify token: oidc: expected audience "orch-cluster" got ["someone-else"]'],
    ['a missing required claim', () => idp.idToken(), { requiredClaims: { hd: 'example.com' } }, 'oidc: required claim hd not present in ID token'],
    ['an unverified email', () => idp.idToken({ email: 'jane@example.com', email_verified: false }), { usernameClaim: 'email' }, 'oidc: email not verified'],
  ])('refuses %s with an error that names the cause and not the token', async (_name, make, extra, message) => {
    const a = await authenticator(extra);
    const token = await make();
    const result = await a.authenticateToken({ token }, signal);
    expect(result.kind).toBe('error');
    const error = (result as { error: Error }).error.message;
    expect(error).toContain(message);
    expect(error).not.toContain(token);
    expect(logs.join('\n')).not.toContain(token);
  });

  it('has no opinion on a token of another issuer or on something that is no JWT, so others may claim it', async () => {
    const a = await authenticator();
    expect(await a.authenticateToken({ token: await idp.idToken({ iss: 'https://elsewhere.example.com' }) }, signal)).toEqual({ kind: 'no-opinion' });
    expect(await a.authenticateToken({ token: 'abcdef.0123456789abcdef' }, signal)).toEqual({ kind: 'no-opinion' });
    expect(await a.authenticateToken({ token: 'not-a-jwt' }, signal)).toEqual({ kind: 'no-opinion' });
  });

  it('re-reads the key set once for an unknown key id, then refuses; a rotated key is found the same way', async () => {
    const a = await authenticator({ keyRefreshIntervalMs: 0 });
    const before = idp.reads.keys;
    const unknown = await a.authenticateToken({ token: await idp.idToken({}, { kid: 'no-such-key' }) }, signal);
    expect(unknown).toMatchObject({ kind: 'error', error: { message: 'oidc: verify token: failed to verify signature: failed to verify id token signature' } });
    expect(idp.reads.keys - before).toBe(1);

    await idp.rotate();
    const rotated = await a.authenticateToken({ token: await idp.idToken() }, signal);
    expect(rotated.kind).toBe('user');
    expect(idp.reads.keys - before).toBe(2);
    // The new key is now known: no further reads.
    expect((await a.authenticateToken({ token: await idp.idToken() }, signal)).kind).toBe('user');
    expect(idp.reads.keys - before).toBe(2);
  });

  it('does not let a stream of unknown key ids turn into reads of the key set', async () => {
    const a = await authenticator({ keyRefreshIntervalMs: 60 * 60 * 1000 });
    const before = idp.reads.keys;
    for (let i = 0; i < 5; i++) expect((await a.authenticateToken({ token: await idp.idToken({}, { kid: `made-up-${i}` }) }, signal)).kind).toBe('error');
    expect(idp.reads.keys).toBe(before);
  });

  it('does not trust the provider without its CA: not initialized, and the log says why', async () => {
    const a = createOidcAuthenticator({ issuerUrl: idp.issuer, clientId: idp.clientId }, { log });
    open.push(a);
    await a.ready();
    expect(await a.authenticateToken({ token: await idp.idToken() }, signal)).toMatchObject({ kind: 'error', error: { message: 'oidc: authenticator not initialized' } });
    expect(logs.some((l) => l.includes('oidc authenticator: initializing plugin') && /certificate/i.test(l))).toBe(true);
  });

  it('refuses to start with a CA file that cannot be read', () => {
    expect(() => createOidcAuthenticator({ issuerUrl: idp.issuer, clientId: 'x', caFile: '/nonexistent/ca.crt' }, { log })).toThrow('--oidc-ca-file: failed to read the CA file');
  });
});
