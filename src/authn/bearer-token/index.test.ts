import { describe, expect, it } from 'vitest';
import type { AuthenticationResult, TokenAuthenticator } from '../index.js';
import { bearerToken, parseBearer, TOKEN_AFTER_EXTRA_SPACE_WARNING } from './index.js';

const signal = new AbortController().signal;

describe('parseBearer', () => {
  it.each<[string | string[] | undefined, ReturnType<typeof parseBearer>]>([
    [undefined, { kind: 'none' }],
    ['', { kind: 'none' }],
    ['   ', { kind: 'none' }],
    ['Bearer', { kind: 'none' }],
    ['Bearer ', { kind: 'none' }],
    ['Basic dXNlcjpwYXNz', { kind: 'none' }],
    ['Bearer abc', { kind: 'token', token: 'abc' }],
    ['bearer abc', { kind: 'token', token: 'abc' }],
    ['BEARER abc', { kind: 'token', token: 'abc' }],
    ['  Bearer abc  ', { kind: 'token', token: 'abc' }],
    ['Bearer abc def', { kind: 'token', token: 'abc' }],
    ['Bearer  abc', { kind: 'empty-after-space' }],
    ['Bearer\tabc', { kind: 'none' }],
    [['Bearer first', 'Bearer second'], { kind: 'token', token: 'first' }],
  ])('%j → %j', (header, expected) => expect(parseBearer(header)).toEqual(expected));
});

describe('bearerToken', () => {
  const tokens: TokenAuthenticator = {
    authenticateToken: async ({ token }): Promise<AuthenticationResult> =>
      token === 'good' ? { kind: 'user', user: { username: 'jane', groups: [] } } : token === 'revoked' ? { kind: 'error', error: new Error('token has been revoked') } : { kind: 'no-opinion' },
  };
  const run = (authorization?: string, warnings: string[] = []) =>
    bearerToken(tokens).authenticate({ headers: authorization === undefined ? {} : { authorization }, warn: (m) => void warnings.push(m) }, signal);

  it('hands the token to the token authenticators', async () => expect((await run('Bearer good')).kind).toBe('user'));
  it('calls a token nobody knows invalid, never no opinion', async () => {
    const r = await run('Bearer unknown');
    expect(r.kind === 'error' && r.error.message).toBe('invalid bearer token');
  });
  it("passes a token authenticator's error on", async () => {
    const r = await run('Bearer revoked');
    expect(r.kind === 'error' && r.error.message).toBe('token has been revoked');
  });
  it('has no opinion without a bearer token, and warns about a token after an extra space', async () => {
    expect((await run()).kind).toBe('no-opinion');
    const warnings: string[] = [];
    expect((await run('Bearer  good', warnings)).kind).toBe('no-opinion');
    expect(warnings).toEqual([TOKEN_AFTER_EXTRA_SPACE_WARNING]);
  });
});
