/**
 * The identity provider's signing keys, as its discovery document publishes them. Read at start
 * (discovery, then the key set), in the background every 10 s until that works (as kube-apiserver,
 * so a provider that starts after the server, or runs inside the cluster, is picked up); then kept
 * in memory. Requests never cause a fetch, with one exception the OpenID Connect spec recommends for
 * key rotation: a token whose key id is not in the set causes one re-read, at most once per
 * `refreshIntervalMs`. A set older than an hour is re-read in the background, so a key the provider
 * withdrew stops being trusted.
 */
import type { JWK } from 'jose';
import type { Logger } from '../../machinery/logger.js';
import { fetchJson, type FetchJsonOptions } from './fetch-json.js';

export interface ProviderKeysOptions {
  issuerUrl: string;
  /** PEM the provider's certificate must chain to (`--oidc-ca-file`). */
  ca?: string;
  refreshIntervalMs: number;
  log: Logger;
  /** How long after a failed start the provider is asked again (default 10 s). */
  retryIntervalMs?: number;
  maxKeyAgeMs?: number;
  now?: () => number;
  fetch?: (url: string, opts: FetchJsonOptions) => Promise<unknown>;
}

export interface ProviderKeys {
  /**
   * The keys a token with key id `kid` may be signed with: the one(s) with that id, or every key
   * when the token names none. Re-reads the set once (rate-limited) when no key has that id.
   * Throws `oidc: authenticator not initialized` while the provider has never been reached, and
   * `fetching keys ...` when the key set cannot be read.
   */
  keysFor(kid: string | undefined): Promise<readonly JWK[]>;
  /**
   * Whether the provider's discovery document has been read; waits for a read under way first, so
   * the first requests after start do not fail merely for coming early.
   */
  initialized(): Promise<boolean>;
  /** Resolves when the first attempt to reach the provider has ended (successfully or not). */
  ready(): Promise<void>;
  close(): void;
}

export const NOT_INITIALIZED = 'oidc: authenticator not initialized';

const DEFAULT_RETRY_MS = 10_000;
const DEFAULT_MAX_KEY_AGE_MS = 60 * 60 * 1000;

export function createProviderKeys(opts: ProviderKeysOptions): ProviderKeys {
  const now = opts.now ?? Date.now;
  const fetch = opts.fetch ?? fetchJson;
  const fetchOpts: FetchJsonOptions = opts.ca !== undefined ? { ca: opts.ca } : {};
  const retryMs = opts.retryIntervalMs ?? DEFAULT_RETRY_MS;
  const maxAgeMs = opts.maxKeyAgeMs ?? DEFAULT_MAX_KEY_AGE_MS;

  let jwksUri: string | undefined;
  let keys: readonly JWK[] | undefined;
  let keysReadAt = 0;
  let lastKeyRead = Number.NEGATIVE_INFINITY;
  let lastKeyError: Error | undefined;
  let inFlight: Promise<void> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;

  async function discover(): Promise<string> {
    const base = opts.issuerUrl.replace(/\/+$/, '');
    const doc = await fetch(`${base}/.well-known/openid-configuration`, fetchOpts);
    if (!isObject(doc)) throw new Error('oidc: the discovery document is not a JSON object');
    if (doc.issuer !== opts.issuerUrl) {
      throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(opts.issuerUrl)} got ${JSON.stringify(doc.issuer)}`);
    }
    if (typeof doc.jwks_uri !== 'string' || doc.jwks_uri === '') throw new Error('oidc: the discovery document has no jwks_uri');
    return doc.jwks_uri;
  }

  async function readKeys(uri: string): Promise<void> {
    lastKeyRead = now();
    try {
      const set = await fetch(uri, fetchOpts);
      if (!isObject(set) || !Array.isArray(set.keys)) throw new Error(`${uri}: not a JSON Web Key Set (no "keys" array)`);
      // Keys meant for encryption never verify a signature.
      keys = set.keys.filter((k): k is JWK => isObject(k) && typeof k.kty === 'string' && k.use !== 'enc');
      keysReadAt = now();
      lastKeyError = undefined;
    } catch (e) {
      lastKeyError = e as Error;
      throw e;
    }
  }

  /** Runs `work` unless a read is already under way, in which case that one is shared. */
  function once(work: () => Promise<void>): Promise<void> {
    inFlight ??= work().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  function start(): Promise<void> {
    return once(async () => {
      try {
        jwksUri ??= await discover();
        await readKeys(jwksUri);
        opts.log.info('oidc authenticator: provider keys loaded', { issuer: opts.issuerUrl, keys: keys?.length ?? 0 });
      } catch (e) {
        opts.log.error('oidc authenticator: initializing plugin', { issuer: opts.issuerUrl, error: (e as Error).message });
        if (!closed && keys === undefined) {
          retryTimer = setTimeout(() => void start().catch(() => undefined), retryMs);
          retryTimer.unref();
        }
      }
    });
  }

  const first = start();

  function matching(kid: string | undefined): readonly JWK[] {
    if (!keys) return [];
    return kid === undefined ? keys : keys.filter((k) => k.kid === kid);
  }

  return {
    async keysFor(kid) {
      if (inFlight) await inFlight.catch(() => undefined);
      if (jwksUri === undefined) throw new Error(NOT_INITIALIZED);
      const uri = jwksUri;
      let found = matching(kid);
      if (found.length === 0 && now() - lastKeyRead >= opts.refreshIntervalMs) {
        await once(() => readKeys(uri)).catch(() => undefined);
        found = matching(kid);
      } else if (keys && now() - keysReadAt >= maxAgeMs && !inFlight) {
        void once(() => readKeys(uri)).catch((e: unknown) => opts.log.warn('oidc authenticator: re-reading the provider keys', { issuer: opts.issuerUrl, error: (e as Error).message }));
      }
      if (found.length === 0 && keys === undefined && lastKeyError) throw new Error(`fetching keys ${lastKeyError.message}`);
      return found;
    },
    async initialized() {
      if (inFlight) await inFlight.catch(() => undefined);
      return jwksUri !== undefined;
    },
    ready: () => first,
    close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
    },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
