import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyIdToken, type VerifyConfig } from './verify-id-token.js';

const ISSUER = 'https://idp.example.com';
const NOW = 1_700_000_000_000;
let rsa: CryptoKey;
let other: CryptoKey;
let ec: CryptoKey;
let jwks: JWK[];

beforeAll(async () => {
  const a = await generateKeyPair('RS256', { extractable: true });
  const b = await generateKeyPair('RS256', { extractable: true });
  const c = await generateKeyPair('ES256', { extractable: true });
  rsa = a.privateKey;
  other = b.privateKey;
  ec = c.privateKey;
  jwks = [
    { ...(await exportJWK(a.publicKey)), kid: 'rsa' },
    { ...(await exportJWK(c.publicKey)), kid: 'ec' },
  ];
});

const config = (extra: Partial<VerifyConfig> = {}): VerifyConfig => ({
  issuerUrl: ISSUER,
  clientId: 'orch',
  signingAlgs: ['RS256'],
  now: () => NOW,
  keysFor: async (kid) => (kid === undefined ? jwks : jwks.filter((k) => k.kid === kid)),
  ...extra,
});

function sign(claims: Record<string, unknown>, opts: { key?: 'rsa' | 'other' | 'ec'; alg?: string; kid?: string | null } = {}): Promise<string> {
  const kid = opts.kid === undefined ? 'rsa' : opts.kid;
  return new SignJWT({ iss: ISSUER, aud: 'orch', sub: 'jane', exp: NOW / 1000 + 600, ...claims })
    .setProtectedHeader({ alg: opts.alg ?? 'RS256', ...(kid !== null ? { kid } : {}) })
    .sign({ rsa, other, ec }[opts.key ?? 'rsa']);
}

describe('verifyIdToken', () => {
  it('returns the claims of a well-signed token of the issuer for the client', async () => {
    const claims = await verifyIdToken(await sign({ email: 'jane@example.com' }), config());
    expect(claims).toMatchObject({ sub: 'jane', email: 'jane@example.com' });
  });

  it('accepts aud as a list that holds the client id, and ignores azp', async () => {
    await expect(verifyIdToken(await sign({ aud: ['other', 'orch'], azp: 'other' }), config())).resolves.toMatchObject({ sub: 'jane' });
  });

  it('tries every key when the token names none', async () => {
    await expect(verifyIdToken(await sign({}, { kid: null }), config())).resolves.toMatchObject({ sub: 'jane' });
  });

  it('accepts another allowed algorithm', async () => {
    await expect(verifyIdToken(await sign({}, { key: 'ec', alg: 'ES256', kid: 'ec' }), config({ signingAlgs: ['RS256', 'ES256'] }))).resolves.toMatchObject({ sub: 'jane' });
  });

  it('accepts a token up to its expiry second, and an nbf within a minute of now', async () => {
    await expect(verifyIdToken(await sign({ exp: NOW / 1000 }), config())).resolves.toBeDefined();
    await expect(verifyIdToken(await sign({ nbf: NOW / 1000 + 30 }), config())).resolves.toBeDefined();
  });

  it.each<[string, Record<string, unknown>, Parameters<typeof sign>[1], string]>([
    ['another audience', { aud: 'someone-else' }, {}, 'oidc: expected audience "orch" got ["someone-else"]'],
    ['a list of other audiences', { aud: ['a', 'b'] }, {}, 'oidc: expected audience "orch" got ["a" "b"]'],
    ['no audience', { aud: undefined }, {}, 'oidc: expected audience "orch" got []'],
    ['an expired token', { exp: NOW / 1000 - 1 }, {}, 'oidc: token is expired (Token Expiry: 2023-11-14 22:13:19 +0000 UTC)'],
    ['no exp at all', { exp: undefined }, {}, 'oidc: token is expired'],
    ['nbf more than a minute ahead', { nbf: NOW / 1000 + 120 }, {}, 'before the nbf (not before) time'],
    ['another issuer', { iss: 'https://evil.example.com' }, {}, 'oidc: id token issued by a different provider, expected "https://idp.example.com" got "https://evil.example.com"'],
    ['a signature by another key under a known kid', {}, { key: 'other' }, 'failed to verify signature: failed to verify id token signature'],
    ['an unknown kid', {}, { kid: 'nope' }, 'failed to verify signature: failed to verify id token signature'],
    ['an algorithm not allowed', {}, { key: 'ec', alg: 'ES256', kid: 'ec' }, 'oidc: id token signed with unsupported algorithm, expected ["RS256"] got "ES256"'],
    ['aud of the wrong type', { aud: 7 }, {}, 'oidc: failed to unmarshal claims: json: cannot unmarshal number into Go value of type []string'],
  ])('refuses %s', async (_name, claims, opts, message) => {
    await expect(verifyIdToken(await sign(claims, opts), config())).rejects.toThrow(message);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const body = Buffer.from(JSON.stringify({ iss: ISSUER, aud: 'orch', sub: 'jane', exp: NOW / 1000 + 60 })).toString('base64url');
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    await expect(verifyIdToken(`${header}.${body}.`, config())).rejects.toThrow('oidc: id token signed with unsupported algorithm, expected ["RS256"] got "none"');
  });

  it.each([
    ['two parts', 'a.b', 'oidc: malformed jwt: compact JWS format must have three parts'],
    ['a payload that is not base64url', 'eyJhbGciOiJSUzI1NiJ9.!!!.c2ln', 'oidc: malformed jwt: illegal base64 data in the payload'],
    ['a payload that is not JSON', `eyJhbGciOiJSUzI1NiJ9.${Buffer.from('nope').toString('base64url')}.c2ln`, 'oidc: malformed jwt: the payload is not JSON'],
  ])('refuses a malformed token: %s', async (_name, token, message) => {
    await expect(verifyIdToken(token, config())).rejects.toThrow(message);
  });

  it('says why keys are missing, and never puts the token in a message', async () => {
    const token = await sign({});
    const err = await verifyIdToken(token, config({ keysFor: () => Promise.reject(new Error('fetching keys Get "https://idp/keys": connect ECONNREFUSED')) })).catch((e: Error) => e);
    expect((err as Error).message).toBe('failed to verify signature: fetching keys Get "https://idp/keys": connect ECONNREFUSED');
    const forged = await verifyIdToken(await sign({ aud: 'x' }, { key: 'other' }), config()).catch((e: Error) => e);
    expect((forged as Error).message).not.toContain(token.split('.')[2]);
  });
});
