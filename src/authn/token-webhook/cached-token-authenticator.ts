/**
 * Remembers a token authenticator's decisions for a while, as kube-apiserver's token cache does: a
 * user for `successTtlMs`, a refusal without an error for `failureTtlMs`, an error not at all unless
 * `cacheErrors` (an outage should not outlive itself). Entries are keyed by an HMAC-SHA256, under a
 * key made at start, of the audiences and the token: the token itself is never kept. Concurrent
 * requests with the same token share one call. At most `maxEntries` decisions are kept, the oldest
 * dropped first, so a flood of made-up tokens cannot grow memory without bound.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { AuthenticationResult, TokenAuthenticator } from '../index.js';

export interface TokenCacheOptions {
  successTtlMs: number;
  failureTtlMs: number;
  cacheErrors?: boolean;
  maxEntries?: number;
  now?: () => number;
}

const DEFAULT_MAX_ENTRIES = 4096;

export function cachedTokenAuthenticator(inner: TokenAuthenticator, opts: TokenCacheOptions): TokenAuthenticator {
  const now = opts.now ?? Date.now;
  const maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const hmacKey = randomBytes(32);
  const entries = new Map<string, { result: AuthenticationResult; expiresAt: number }>();
  const inFlight = new Map<string, Promise<AuthenticationResult>>();
  // The shared call must not end because the first caller went away; the inner authenticator
  // bounds its own time.
  const detached = new AbortController().signal;

  const keyOf = (token: string, audiences: readonly string[] | undefined): string => {
    const h = createHmac('sha256', hmacKey);
    const auds = audiences ?? [];
    h.update(`${auds.length}\0`);
    for (const a of auds) h.update(`${Buffer.byteLength(a)}\0${a}`);
    h.update(token);
    return h.digest('base64url');
  };

  const ttlOf = (result: AuthenticationResult): number => {
    if (result.kind === 'user') return opts.successTtlMs;
    if (result.kind === 'no-opinion' || opts.cacheErrors) return opts.failureTtlMs;
    return 0;
  };

  const remember = (key: string, result: AuthenticationResult): void => {
    const ttl = ttlOf(result);
    if (ttl <= 0) return;
    entries.delete(key);
    entries.set(key, { result, expiresAt: now() + ttl });
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
  };

  return {
    async authenticateToken(req, signal): Promise<AuthenticationResult> {
      signal.throwIfAborted();
      const key = keyOf(req.token, req.audiences);
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now()) return hit.result;
      if (hit) entries.delete(key);
      let call = inFlight.get(key);
      if (!call) {
        call = inner.authenticateToken(req, detached).then(
          (result) => {
            remember(key, result);
            return result;
          },
        );
        const shared = call.finally(() => inFlight.delete(key));
        inFlight.set(key, shared);
        call = shared;
      }
      return raceAbort(call, signal);
    },
  };
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
