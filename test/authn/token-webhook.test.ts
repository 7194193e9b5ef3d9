/**
 * The webhook token authenticator against a real HTTPS token-review webhook that requires the API
 * server's client certificate: the request it gets, the user it proves, denials with and without
 * an error, caching (counted webhook calls), another version, retries and a webhook that is down.
 */
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTokenWebhookAuthenticator, type TokenWebhookOptions } from '../../src/authn/token-webhook/index.js';
import { createApiNames } from '../../src/machinery/api-names.js';
import type { Logger } from '../../src/machinery/logger.js';
import { startTokenReviewWebhook, type TokenReviewWebhook } from '../helpers/token-review-webhook.js';

let hook: TokenReviewWebhook;
const logs: string[] = [];
const log: Logger = {
  debug: () => undefined,
  info: (m, f) => logs.push(`${m} ${JSON.stringify(f ?? {})}`),
  warn: (m, f) => logs.push(`${m} ${JSON.stringify(f ?? {})}`),
  error: (m, f) => logs.push(`${m} ${JSON.stringify(f ?? {})}`),
};
const orch = createApiNames('orch.io');
const signal = new AbortController().signal;
const fast = { initialMs: 1, factor: 1, jitter: 0, steps: 3 };

beforeAll(async () => {
  hook = await startTokenReviewWebhook();
  hook.decide('good-token', { authenticated: true, user: { username: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['read', 'write'] } } });
  hook.decide('revoked-token', { authenticated: false, error: 'token revoked-token was revoked at 10:00' });
  hook.decide('unknown-token', { authenticated: false });
  hook.decide('api-token', { authenticated: true, user: { username: 'api-user' }, audiences: ['api'] });
  hook.decide('vault-token', { authenticated: true, user: { username: 'vault-user' }, audiences: ['vault'] });
});
afterAll(() => hook.close());
beforeEach(() => {
  hook.answerVersion = undefined;
  hook.failWith = undefined;
  hook.received.length = 0;
});

const webhook = (extra: Partial<TokenWebhookOptions> = {}, apiAudiences?: string[]) =>
  createTokenWebhookAuthenticator({ configFile: hook.kubeconfigFile, retryBackoff: fast, ...extra }, { names: orch, log, ...(apiAudiences ? { apiAudiences } : {}) });

describe('webhook token authenticator', () => {
  it('sends a v1beta1 TokenReview with its client certificate and takes the user of the answer', async () => {
    const result = await webhook().authenticateToken({ token: 'good-token' }, signal);
    expect(result).toEqual({ kind: 'user', user: { username: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['read', 'write'] } } });
    expect(hook.received).toEqual([{ apiVersion: 'authentication.orch.io/v1beta1', kind: 'TokenReview', audiences: undefined, caller: 'orch-apiserver' }]);
  });

  it('speaks v1 when told, and Kubernetes names under k8s.io', async () => {
    const a = createTokenWebhookAuthenticator({ configFile: hook.kubeconfigFile, version: 'v1' }, { names: createApiNames('k8s.io'), log });
    expect((await a.authenticateToken({ token: 'good-token' }, signal)).kind).toBe('user');
    expect(hook.received[0]?.apiVersion).toBe('authentication.k8s.io/v1');
  });

  it('calls the webhook once within the TTL for the same token (approvals and plain denials alike)', async () => {
    const a = webhook();
    const before = hook.calls();
    for (let i = 0; i < 4; i++) expect((await a.authenticateToken({ token: 'good-token' }, signal)).kind).toBe('user');
    for (let i = 0; i < 3; i++) expect(await a.authenticateToken({ token: 'unknown-token' }, signal)).toEqual({ kind: 'no-opinion' });
    expect(hook.calls() - before).toBe(2);
    await Promise.all([1, 2, 3].map(() => a.authenticateToken({ token: 'fresh-token' }, signal)));
    expect(hook.calls() - before).toBe(3);
  });

  it('calls it every time when the TTL is 0', async () => {
    const a = webhook({ cacheTtlMs: 0 });
    const before = hook.calls();
    await a.authenticateToken({ token: 'good-token' }, signal);
    await a.authenticateToken({ token: 'good-token' }, signal);
    expect(hook.calls() - before).toBe(2);
  });

  it('makes a denial with status.error an error (token redacted), not cached; one without it no opinion', async () => {
    const a = webhook();
    const before = hook.calls();
    const denied = await a.authenticateToken({ token: 'revoked-token' }, signal);
    expect(denied).toMatchObject({ kind: 'error', error: { message: 'token <token> was revoked at 10:00' } });
    await a.authenticateToken({ token: 'revoked-token' }, signal);
    expect(hook.calls() - before).toBe(2);
    expect(await a.authenticateToken({ token: 'unknown-token' }, signal)).toEqual({ kind: 'no-opinion' });
  });

  it('refuses an answer in another version, and does not cache it', async () => {
    hook.answerVersion = 'authentication.orch.io/v1';
    const a = webhook();
    const before = hook.calls();
    const result = await a.authenticateToken({ token: 'good-token' }, signal);
    expect(result).toMatchObject({ kind: 'error' });
    expect((result as { error: Error }).error.message).toContain(`the answer is "authentication.orch.io/v1", not the request's version "authentication.orch.io/v1beta1"`);
    hook.answerVersion = undefined;
    expect((await a.authenticateToken({ token: 'good-token' }, signal)).kind).toBe('user');
    expect(hook.calls() - before).toBe(2);
  });

  it('retries a webhook that answers 500, then gives up with an error that does not quote its body', async () => {
    hook.failWith = 500;
    const before = hook.calls();
    const result = await webhook().authenticateToken({ token: 'good-token' }, signal);
    expect(hook.calls() - before).toBe(fast.steps);
    expect((result as { error: Error }).error.message).toBe(`webhook token authenticator: Post "${hook.url}": the webhook answered 500 Internal Server Error`);
    expect(logs.join('\n')).not.toContain('good-token');
  });

  it('does not retry a 400', async () => {
    hook.failWith = 400;
    const before = hook.calls();
    expect((await webhook().authenticateToken({ token: 'good-token' }, signal)).kind).toBe('error');
    expect(hook.calls() - before).toBe(1);
  });

  it('fails with an error when the webhook is down, and logs why', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createNetServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const { readFileSync, writeFileSync } = await import('node:fs');
    const downFile = hook.kubeconfigFile.replace(/webhook\.kubeconfig$/, 'down.kubeconfig');
    writeFileSync(downFile, readFileSync(hook.kubeconfigFile, 'utf8').replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${port}`));
    const result = await createTokenWebhookAuthenticator({ configFile: downFile }, { names: orch, log }).authenticateToken({ token: 'good-token' }, signal);
    expect(result).toMatchObject({ kind: 'error' });
    expect((result as { error: Error }).error.message).toContain('ECONNREFUSED');
    expect(logs.some((l) => l.startsWith('Failed to make webhook authenticator request') && l.includes('ECONNREFUSED'))).toBe(true);
  });

  it('cannot reach a webhook that requires a client certificate without one', async () => {
    const result = await createTokenWebhookAuthenticator({ configFile: hook.kubeconfigWithoutClientCert, retryBackoff: fast }, { names: orch, log }).authenticateToken({ token: 'good-token' }, signal);
    expect(result.kind).toBe('error');
  });

  it('sends the audiences asked for and keeps the token to those the webhook (or the server) vouches for', async () => {
    const a = webhook({}, ['api']);
    expect(await a.authenticateToken({ token: 'good-token', audiences: ['api'] }, signal)).toMatchObject({ kind: 'user', audiences: ['api'] });
    expect(hook.received.at(-1)?.audiences).toEqual(['api']);
    expect(await a.authenticateToken({ token: 'api-token', audiences: ['api'] }, signal)).toMatchObject({ kind: 'user', user: { username: 'api-user' }, audiences: ['api'] });
    expect(await a.authenticateToken({ token: 'vault-token', audiences: ['api'] }, signal)).toEqual({ kind: 'no-opinion' });
  });
});
