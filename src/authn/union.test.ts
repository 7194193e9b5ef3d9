import { describe, expect, it } from 'vitest';
import { AuthenticationErrors, unionAuthenticators, unionTokenAuthenticators, withAuthenticatedGroup, type AuthenticationResult, type Authenticator } from './index.js';

const signal = new AbortController().signal;
const answering = (result: AuthenticationResult, calls?: string[], name = ''): Authenticator => ({
  authenticate: async () => {
    calls?.push(name);
    return result;
  },
});
const jane: AuthenticationResult = { kind: 'user', user: { username: 'jane', groups: ['dev'] } };
const bob: AuthenticationResult = { kind: 'user', user: { username: 'bob', groups: [] } };
const fail = (m: string): AuthenticationResult => ({ kind: 'error', error: new Error(m) });

describe('unionAuthenticators', () => {
  it.each<[string, AuthenticationResult[], AuthenticationResult | string]>([
    ['nothing configured: no opinion', [], { kind: 'no-opinion' }],
    ['all without opinion: no opinion', [{ kind: 'no-opinion' }, { kind: 'no-opinion' }], { kind: 'no-opinion' }],
    ['the first user decides', [{ kind: 'no-opinion' }, jane, bob], jane],
    ['an error does not stop a later user (a certificate of another CA, then a good token)', [fail('x509: unknown authority'), jane], jane],
    ['one error alone is its own message', [fail('invalid bearer token'), { kind: 'no-opinion' }], 'invalid bearer token'],
    ['several errors read as Kubernetes aggregates them', [fail('a'), fail('b'), fail('a')], '[a, b]'],
  ])('%s', async (_name, results, expected) => {
    const got = await unionAuthenticators(results.map((r) => answering(r))).authenticate({ headers: {} }, signal);
    if (typeof expected === 'string') {
      expect(got.kind).toBe('error');
      expect(got.kind === 'error' && got.error.message).toBe(expected);
    } else expect(got).toEqual(expected);
  });

  it('asks no further once one proves a user', async () => {
    const calls: string[] = [];
    await unionAuthenticators([answering(fail('x'), calls, 'a'), answering(jane, calls, 'b'), answering(bob, calls, 'c')]).authenticate({ headers: {} }, signal);
    expect(calls).toEqual(['a', 'b']);
  });

  it('flattens nested unions in the aggregate message', () => {
    expect(new AuthenticationErrors([new AuthenticationErrors([new Error('a'), new Error('b')]), new Error('c')]).message).toBe('[a, b, c]');
  });

  it('unions token authenticators the same way', async () => {
    const union = unionTokenAuthenticators([{ authenticateToken: async () => fail('bad signature') }, { authenticateToken: async (r) => (r.token === 't' ? jane : { kind: 'no-opinion' }) }]);
    expect(await union.authenticateToken({ token: 't' }, signal)).toEqual(jane);
    const other = await union.authenticateToken({ token: 'u' }, signal);
    expect(other.kind === 'error' && other.error.message).toBe('bad signature');
  });
});

describe('withAuthenticatedGroup', () => {
  it.each<[string, string, string[], string[]]>([
    ['adds system:authenticated', 'jane', ['dev'], ['dev', 'system:authenticated']],
    ['adds nothing when already there', 'jane', ['system:authenticated', 'dev'], ['system:authenticated', 'dev']],
    ['adds nothing to system:unauthenticated members', 'x', ['system:unauthenticated'], ['system:unauthenticated']],
    ['adds nothing to system:anonymous', 'system:anonymous', [], []],
  ])('%s', async (_n, username, groups, expected) => {
    const user = { username, groups };
    const got = await withAuthenticatedGroup(answering({ kind: 'user', user })).authenticate({ headers: {} }, signal);
    expect(got.kind === 'user' && got.user.groups).toEqual(expected);
    expect(user.groups).toEqual(groups);
  });

  it('passes errors and no opinion through', async () => {
    expect((await withAuthenticatedGroup(answering(fail('x'))).authenticate({ headers: {} }, signal)).kind).toBe('error');
    expect((await withAuthenticatedGroup(answering({ kind: 'no-opinion' })).authenticate({ headers: {} }, signal)).kind).toBe('no-opinion');
  });
});
