import { describe, expect, it } from 'vitest';
import type { AuthenticationResult, TokenAuthenticator } from '../index.js';
import { cachedTokenAuthenticator } from './cached-token-authenticator.js';

const signal = new AbortController().signal;

/** Decides by token: `good-*` users, `bad` no opinion, `err` an error; counts calls per token. */
function counting() {
  const calls: string[] = [];
  const inner: TokenAuthenticator = {
    async authenticateToken({ token, audiences }) {
      calls.push(`${token}|${(audiences ?? []).join(',')}`);
      await Promise.resolve();
      if (token.startsWith('good')) return { kind: 'user', user: { username: token, groups: [] } };
      if (token === 'err') return { kind: 'error', error: new Error('webhook down') };
      return { kind: 'no-opinion' };
    },
  };
  return { inner, calls };
}

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('cachedTokenAuthenticator', () => {
  it('answers from memory within the TTL and asks again after it', async () => {
    const { inner, calls } = counting();
    const c = clock();
    const cached = cachedTokenAuthenticator(inner, { successTtlMs: 120_000, failureTtlMs: 120_000, now: c.now });
    for (let i = 0; i < 3; i++) expect((await cached.authenticateToken({ token: 'good-1' }, signal)).kind).toBe('user');
    expect(calls).toHaveLength(1);
    c.advance(119_999);
    await cached.authenticateToken({ token: 'good-1' }, signal);
    expect(calls).toHaveLength(1);
    c.advance(1);
    await cached.authenticateToken({ token: 'good-1' }, signal);
    expect(calls).toHaveLength(2);
  });

  it('remembers a refusal without error, but not an error', async () => {
    const { inner, calls } = counting();
    const cached = cachedTokenAuthenticator(inner, { successTtlMs: 1000, failureTtlMs: 1000, now: () => 0 });
    await cached.authenticateToken({ token: 'bad' }, signal);
    await cached.authenticateToken({ token: 'bad' }, signal);
    await cached.authenticateToken({ token: 'err' }, signal);
    await cached.authenticateToken({ token: 'err' }, signal);
    expect(calls).toEqual(['bad|', 'err|', 'err|']);
  });

  it('keys by token and audiences', async () => {
    const { inner, calls } = counting();
    const cached = cachedTokenAuthenticator(inner, { successTtlMs: 1000, failureTtlMs: 1000, now: () => 0 });
    await cached.authenticateToken({ token: 'good-1', audiences: ['a'] }, signal);
    await cached.authenticateToken({ token: 'good-1', audiences: ['b'] }, signal);
    await cached.authenticateToken({ token: 'good-1', audiences: ['a'] }, signal);
    await cached.authenticateToken({ token: 'good-2', audiences: ['a'] }, signal);
    // Audiences are length-prefixed: ["a,b"] and ["a", "b"] are different questions.
    await cached.authenticateToken({ token: 'good-1', audiences: ['a,b'] }, signal);
    await cached.authenticateToken({ token: 'good-1', audiences: ['a', 'b'] }, signal);
    expect(calls).toEqual(['good-1|a', 'good-1|b', 'good-2|a', 'good-1|a,b', 'good-1|a,b']);
  });

  it('shares one call among concurrent requests with the same token', async () => {
    const { inner, calls } = counting();
    const cached = cachedTokenAuthenticator(inner, { successTtlMs: 1000, failureTtlMs: 1000 });
    const results = await Promise.all([1, 2, 3].map(() => cached.authenticateToken({ token: 'good-x' }, signal)));
    expect(results.every((r: AuthenticationResult) => r.kind === 'user')).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('keeps at most maxEntries decisions, dropping the oldest', async () => {
    const { inner, calls } = counting();
    const cached = cachedTokenAuthenticator(inner, { successTtlMs: 1000, failureTtlMs: 1000, maxEntries: 2, now: () => 0 });
    for (const t of ['good-1', 'good-2', 'good-3', 'good-3', 'good-1']) await cached.authenticateToken({ token: t }, signal);
    expect(calls.map((c) => c.split('|')[0])).toEqual(['good-1', 'good-2', 'good-3', 'good-1']);
  });

  it('does nothing with TTLs of zero', async () => {
    const { inner, calls } = counting();
    const cached = cachedTokenAuthenticator(inner, { successTtlMs: 0, failureTtlMs: 0 });
    await cached.authenticateToken({ token: 'good-1' }, signal);
    await cached.authenticateToken({ token: 'good-1' }, signal);
    expect(calls).toHaveLength(2);
  });
});
