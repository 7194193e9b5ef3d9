import { describe, expect, it } from 'vitest';
import type { Logger } from '../../machinery/logger.js';
import { createProviderKeys, type ProviderKeysOptions } from './provider-keys.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const ISSUER = 'https://idp.example.com/realm';

/** A provider as a function of URL, counting reads; `keys` and `up` change what it answers. */
function fakeProvider() {
  const state = { up: true, keys: [{ kty: 'RSA', kid: 'k1', n: 'x', e: 'AQAB' }] as Record<string, unknown>[], discovery: 0, keyReads: 0, urls: [] as string[] };
  const fetch: NonNullable<ProviderKeysOptions['fetch']> = async (url) => {
    state.urls.push(url);
    if (!state.up) throw new Error(`Get "${url}": connect ECONNREFUSED`);
    if (url === `${ISSUER}/.well-known/openid-configuration`) {
      state.discovery++;
      return { issuer: ISSUER, jwks_uri: 'https://idp.example.com/keys' };
    }
    if (url === 'https://idp.example.com/keys') {
      state.keyReads++;
      return { keys: state.keys };
    }
    throw new Error(`Get "${url}": 404 Not Found`);
  };
  return { state, fetch };
}

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('provider keys', () => {
  it('reads discovery then the key set once at start, and answers from memory afterwards', async () => {
    const p = fakeProvider();
    const c = clock();
    const keys = createProviderKeys({ issuerUrl: ISSUER, refreshIntervalMs: 10_000, log: quiet, fetch: p.fetch, now: c.now });
    await keys.ready();
    expect(p.state.urls).toEqual([`${ISSUER}/.well-known/openid-configuration`, 'https://idp.example.com/keys']);
    for (let i = 0; i < 5; i++) expect(await keys.keysFor('k1')).toHaveLength(1);
    expect(await keys.keysFor(undefined)).toHaveLength(1);
    expect(p.state.keyReads).toBe(1);
    keys.close();
  });

  it('re-reads the key set for an unknown key id at most once per interval, and finds a rotated key', async () => {
    const p = fakeProvider();
    const c = clock();
    const keys = createProviderKeys({ issuerUrl: ISSUER, refreshIntervalMs: 10_000, log: quiet, fetch: p.fetch, now: c.now });
    await keys.ready();
    // Within the interval of the start-up read: no re-read, however many unknown ids come.
    expect(await keys.keysFor('k2')).toEqual([]);
    expect(await keys.keysFor('k3')).toEqual([]);
    expect(p.state.keyReads).toBe(1);
    // The provider rotates; once the interval has passed, one unknown id causes one re-read.
    p.state.keys = [...p.state.keys, { kty: 'RSA', kid: 'k2', n: 'y', e: 'AQAB' }];
    c.advance(10_000);
    expect(await keys.keysFor('k2')).toHaveLength(1);
    expect(p.state.keyReads).toBe(2);
    expect(await keys.keysFor('k4')).toEqual([]);
    expect(p.state.keyReads).toBe(2);
    keys.close();
  });

  it('shares one re-read among concurrent requests', async () => {
    const p = fakeProvider();
    const c = clock();
    const keys = createProviderKeys({ issuerUrl: ISSUER, refreshIntervalMs: 10_000, log: quiet, fetch: p.fetch, now: c.now });
    await keys.ready();
    c.advance(10_000);
    await Promise.all([keys.keysFor('x'), keys.keysFor('y'), keys.keysFor('z')]);
    expect(p.state.keyReads).toBe(2);
    keys.close();
  });

  it('is not initialized while the provider cannot be reached, and tries again in the background', async () => {
    const p = fakeProvider();
    p.state.up = false;
    const keys = createProviderKeys({ issuerUrl: ISSUER, refreshIntervalMs: 0, retryIntervalMs: 1, log: quiet, fetch: p.fetch });
    await keys.ready();
    expect(await keys.initialized()).toBe(false);
    await expect(keys.keysFor('k1')).rejects.toThrow('oidc: authenticator not initialized');
    p.state.up = true;
    await expect.poll(() => keys.initialized()).toBe(true);
    expect(await keys.keysFor('k1')).toHaveLength(1);
    keys.close();
  });

  it('refuses a discovery document of another issuer, with upstream words', async () => {
    const errors: string[] = [];
    const log: Logger = { ...quiet, error: (_m, f) => errors.push(String(f?.error)) };
    const keys = createProviderKeys({
      issuerUrl: ISSUER,
      refreshIntervalMs: 0,
      log,
      fetch: async () => ({ issuer: 'https://impostor.example.com', jwks_uri: 'https://idp.example.com/keys' }),
    });
    await keys.ready();
    keys.close();
    expect(await keys.initialized()).toBe(false);
    expect(errors[0]).toBe('oidc: issuer did not match the issuer returned by provider, expected "https://idp.example.com/realm" got "https://impostor.example.com"');
  });

  it('leaves out keys meant for encryption', async () => {
    const p = fakeProvider();
    p.state.keys = [{ kty: 'RSA', kid: 'enc', use: 'enc', n: 'x', e: 'AQAB' }, { kty: 'RSA', kid: 'sig', use: 'sig', n: 'x', e: 'AQAB' }];
    const keys = createProviderKeys({ issuerUrl: ISSUER, refreshIntervalMs: 10_000, log: quiet, fetch: p.fetch });
    await keys.ready();
    expect((await keys.keysFor(undefined)).map((k) => k.kid)).toEqual(['sig']);
    keys.close();
  });
});
