/**
 * Webhook token authentication (document 3, "Webhook token authentication"): a bearer token is
 * sent in a TokenReview to the remote service named by `--authentication-token-webhook-config-file`,
 * whose answer decides; answers are cached for `--authentication-token-webhook-cache-ttl` (2 min).
 * A denial with `status.error` is an error (logged by the authentication filter, the client sees a
 * plain 401); a denial without one is no opinion, which the bearer-token step turns into the same
 * 401. A webhook that cannot be reached, or answers in another version, is an error that is logged
 * and not cached.
 */
import type { ApiNames } from '../../machinery/api-names.js';
import type { Logger } from '../../machinery/logger.js';
import type { AuthenticationResult, TokenAuthenticator } from '../index.js';
import { cachedTokenAuthenticator } from './cached-token-authenticator.js';
import { postTokenReview, type RetryBackoff } from './post-token-review.js';
import { readTokenReviewAnswer, tokenReviewRequest, type TokenReviewVersion } from './token-review.js';
import { loadWebhookKubeconfig, type WebhookEndpoint } from './webhook-kubeconfig.js';

export { parseTokenReviewVersion, TOKEN_REVIEW_VERSIONS, type TokenReviewVersion } from './token-review.js';
export { cachedTokenAuthenticator } from './cached-token-authenticator.js';

export interface TokenWebhookOptions {
  /** `--authentication-token-webhook-config-file`. */
  configFile: string;
  /** `--authentication-token-webhook-cache-ttl` (default 2 minutes); 0 turns caching off. */
  cacheTtlMs?: number;
  /** `--authentication-token-webhook-version` (default v1beta1). */
  version?: TokenReviewVersion;
  /** Overrides the retry schedule (tests). */
  retryBackoff?: RetryBackoff;
}

export const TOKEN_WEBHOOK_DEFAULTS = { cacheTtlMs: 2 * 60 * 1000, version: 'v1beta1' } as const;

export interface TokenWebhookDeps {
  names: ApiNames;
  log: Logger;
  /** The API server's own audiences (`--api-audiences`): a token valid for none of them is not ours. */
  apiAudiences?: readonly string[];
  now?: () => number;
}

/** Throws an Error naming the flag when the configuration file cannot be used. */
export function createTokenWebhookAuthenticator(options: TokenWebhookOptions, deps: TokenWebhookDeps): TokenAuthenticator {
  const endpoint = loadWebhookKubeconfig(options.configFile);
  const version = options.version ?? TOKEN_WEBHOOK_DEFAULTS.version;
  const ttl = options.cacheTtlMs ?? TOKEN_WEBHOOK_DEFAULTS.cacheTtlMs;
  const webhook = uncachedWebhook(endpoint, version, options.retryBackoff, deps);
  if (ttl <= 0) return webhook;
  return cachedTokenAuthenticator(webhook, { successTtlMs: ttl, failureTtlMs: ttl, cacheErrors: false, ...(deps.now ? { now: deps.now } : {}) });
}

function uncachedWebhook(endpoint: WebhookEndpoint, version: TokenReviewVersion, backoff: RetryBackoff | undefined, deps: TokenWebhookDeps): TokenAuthenticator {
  const implicitAudiences = deps.apiAudiences ?? [];
  return {
    async authenticateToken({ token, audiences }, signal): Promise<AuthenticationResult> {
      const wanted = audiences ?? [];
      let answer;
      try {
        const body = await postTokenReview(endpoint, tokenReviewRequest(deps.names, version, token, wanted), { signal, ...(backoff ? { backoff } : {}) });
        answer = readTokenReviewAnswer(body, deps.names, version);
      } catch (e) {
        const message = redact((e as Error).message, token);
        deps.log.error('Failed to make webhook authenticator request', { error: message });
        return { kind: 'error', error: new Error(`webhook token authenticator: ${message}`) };
      }
      let granted: string[] | undefined;
      if (wanted.length > 0) {
        // The token must be good for one of the audiences asked about: those the webhook names,
        // or, when it names none, the API server's own.
        const valid = answer.audiences && answer.audiences.length > 0 ? answer.audiences : implicitAudiences;
        granted = wanted.filter((a) => valid.includes(a));
        if (granted.length === 0) return { kind: 'no-opinion' };
      }
      if (!answer.authenticated || !answer.user) {
        return answer.error ? { kind: 'error', error: new Error(redact(answer.error, token)) } : { kind: 'no-opinion' };
      }
      return { kind: 'user', user: answer.user, ...(granted ? { audiences: granted } : {}) };
    },
  };
}

/** A webhook may quote what it was sent; the token never goes further than this. */
function redact(text: string, token: string): string {
  return token.length > 0 ? text.split(token).join('<token>') : text;
}
