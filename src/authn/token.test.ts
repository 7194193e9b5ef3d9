import { describe, expect, it } from 'vitest';
import type { AuthenticationResult } from './index.js';
import { bearerToken, bearerTokenAuthenticator, unionTokenAuthenticators, type TokenAuthenticator } from './token.js';

const signal = new AbortController().signal;
const fixed = (result: AuthenticationResult, seen?: string[]): TokenAuthenticator => ({
  authenticateToken: async (token) => {
    seen?.push(token);
    return result;
  },
});

describe('bearer tokens', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc extra', 'abc'],
    ['  Bearer abc  ', 'abc'],
    ['Bearer  abc', undefined],
    ['Bearer', undefined],
    ['Basic abc', undefined],
    ['', undefined],
  ])('%j → %j', (header, token) => {
    expect(bearerToken({ authorization: header })).toBe(token);
  });

  it('turns a token nobody accepts into "invalid bearer token", never no opinion', async () => {
    const a = bearerTokenAuthenticator(fixed({ kind: 'no-opinion' }));
    expect(await a.authenticate({ headers: { authorization: 'Bearer x' } }, signal)).toMatchObject({ kind: 'error', error: { message: 'invalid bearer token' } });
    expect(await a.authenticate({ headers: {} }, signal)).toEqual({ kind: 'no-opinion' });
  });

  it('asks token authenticators in turn past errors; the first user wins; otherwise the errors together', async () => {
    const seen: string[] = [];
    const user: AuthenticationResult = { kind: 'user', user: { username: 'jane', groups: [] } };
    const failing = fixed({ kind: 'error', error: new Error('oidc: email not verified') }, seen);
    expect(await unionTokenAuthenticators([failing, fixed({ kind: 'no-opinion' }), fixed(user)]).authenticateToken('t', undefined, signal)).toEqual(user);
    expect(await unionTokenAuthenticators([fixed({ kind: 'no-opinion' })]).authenticateToken('t', undefined, signal)).toEqual({ kind: 'no-opinion' });
    expect(await unionTokenAuthenticators([failing]).authenticateToken('t', undefined, signal)).toMatchObject({ kind: 'error', error: { message: 'oidc: email not verified' } });
    const two = await unionTokenAuthenticators([failing, fixed({ kind: 'error', error: new Error('webhook down') })]).authenticateToken('t', undefined, signal);
    expect(two).toMatchObject({ kind: 'error', error: { message: '[oidc: email not verified, webhook down]' } });
  });
});
