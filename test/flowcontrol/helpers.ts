/**
 * A server for flow-control tests: HTTPS with static tokens for a few users, the administrator's
 * certificate (system:masters, so the mandatory `exempt` schema), small concurrency limits, and a
 * real authorization webhook on loopback that answers after a delay. The delay is what makes a
 * request hold its seat for a while without using the server's CPU (authorization runs after flow
 * control, as in Kubernetes), so that overload is real and cheap. system:masters never waits on it.
 */
import { createServer as createHttpsServer, type Server } from 'node:https';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { httpCall, openWatch, startTestServer, type Reply, type WatchReader, type RequestOptions, type Target, type TestServer } from '../helpers/server.js';
import { writeWebhookKubeconfig } from '../helpers/webhook-kubeconfig.js';
import { makeTestCertificates, type TestCertificates } from '../helpers/test-ca.js';
import type { TestServerOptions } from '../helpers/server.js';

export const FC = '/apis/flowcontrol.apiserver.orch.io/v1beta2';

export interface FlowControlServer {
  s: TestServer;
  /** The most requests of `user` the webhook held at once (they had passed flow control). */
  peak(user: string): number;
  /** A request as `user` (a token of the token file), or as the administrator (`admin`). */
  as(user: string, method: string, path: string, opts?: RequestOptions): Promise<Reply>;
  /** Opens a watch as `user`. */
  watchAs(user: string, path: string): Promise<WatchReader>;
  close(): Promise<void>;
}

/**
 * Starts the server. The webhook allows every user but `stranger` (left to RBAC, which grants
 * it nothing) after `delayMs`.
 */
export async function startFlowControlServer(users: readonly string[], delayMs: number, options: TestServerOptions = {}): Promise<FlowControlServer> {
  const certs: TestCertificates = await makeTestCertificates();
  const holding = new Map<string, number>();
  const peaks = new Map<string, number>();
  const webhook: Server = createHttpsServer({ cert: certs.cert, key: certs.key }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const review = JSON.parse(body) as { apiVersion: string; spec: { user: string } };
      const user = review.spec.user;
      const now = (holding.get(user) ?? 0) + 1;
      holding.set(user, now);
      peaks.set(user, Math.max(peaks.get(user) ?? 0, now));
      setTimeout(() => {
        holding.set(user, (holding.get(user) ?? 1) - 1);
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status: { allowed: review.spec.user !== 'stranger' } }));
      }, delayMs);
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  const kubeconfig = join(certs.dir, 'webhook.kubeconfig');
  writeWebhookKubeconfig(kubeconfig, { server: `https://127.0.0.1:${(webhook.address() as AddressInfo).port}/authorize`, certificateAuthority: 'ca.crt' });
  const tokenFile = join(certs.dir, 'tokens.csv');
  writeFileSync(tokenFile, users.map((u, i) => `token-of-${u},${u},${i + 1}`).join('\n') + '\n');
  const s = await startTestServer({
    tls: true,
    dataDir: join(certs.dir, 'data'),
    storageBackend: 'memory',
    tokenAuthFile: tokenFile,
    authorizationModes: ['Webhook', 'RBAC'],
    authorizationWebhookConfigFile: kubeconfig,
    authorizationWebhookCacheAuthorizedTtlMs: 0,
    authorizationWebhookCacheUnauthorizedTtlMs: 0,
    ...options,
  });
  const ca = s.server.tls!.caPem;
  const admin: Target = { url: s.url, tls: s.server.tls!.clientOptions };
  const asUser: Target = { url: s.url, tls: { ...(ca ? { ca } : {}) } };
  return {
    s,
    peak: (user) => peaks.get(user) ?? 0,
    as(user, method, path, opts = {}) {
      if (user === 'admin') return httpCall(admin, method, path, opts);
      return httpCall(asUser, method, path, { ...opts, headers: { ...(opts.headers ?? {}), Authorization: `Bearer token-of-${user}` } });
    },
    watchAs: (user, path) => openWatch(asUser, path, { Authorization: `Bearer token-of-${user}` }),
    async close() {
      await s.close();
      await new Promise<void>((r) => webhook.close(() => r()));
      webhook.closeAllConnections();
      certs.remove();
    },
  };
}

/** A Limited level of `shares` that queues (or rejects, without `queuing`), and a schema sending `users` to it, one flow per user. */
export function levelAndSchema(name: string, users: readonly string[], shares: number, queuing?: { queues: number; handSize: number; queueLengthLimit: number }) {
  return {
    level: {
      metadata: { name },
      spec: { type: 'Limited', limited: { assuredConcurrencyShares: shares, limitResponse: queuing ? { type: 'Queue', queuing } : { type: 'Reject' } } },
    },
    schema: {
      metadata: { name },
      spec: {
        priorityLevelConfiguration: { name },
        matchingPrecedence: 500,
        distinguisherMethod: { type: 'ByUser' },
        rules: [
          {
            subjects: users.map((u) => ({ kind: 'User', user: { name: u } })),
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
          },
        ],
      },
    },
  };
}

/** Polls `check` until true (every 50 ms, up to `timeoutMs`). */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The sum of the samples of `name` whose labels include `want`, from Prometheus text. */
export function metricSum(text: string, name: string, want: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] as string] = l[2] as string;
    if (Object.entries(want).every(([k, v]) => labels[k] === v)) total += Number(m[3]);
  }
  return total;
}
