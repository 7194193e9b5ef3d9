/**
 * The webhook backend (`--audit-webhook-config-file`): POSTs events as an `audit.<domain>/v1`
 * `EventList` to the server the kubeconfig names, presenting its client certificate or token and
 * trusting its CA. A reset connection, 429, 500, 503 and 504 are transient; any other answer
 * outside 2xx is a refusal. In `batch` mode the buffered backend sends and retries
 * (buffered-backend.ts); in `blocking` modes the request waits while a batch is sent, retried as
 * Kubernetes' webhook client retries (5 attempts from the initial backoff, growing by 1.5). Never
 * logs an event's content or the token.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../machinery/logger.js';
import type { AuditBackend, AuditMetrics } from './backend.js';
import type { BatchDelegate, SendOutcome } from './buffered-backend.js';
import type { AuditEvent } from './types.js';

/** Where the webhook is and how to reach it, from the kubeconfig (the composition root reads it). */
export interface WebhookTarget {
  server: string;
  caPem?: string;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  clientCertPem?: string;
  clientKeyPem?: string;
  token?: string;
  /** Read on every send, so a rotated token is picked up. */
  tokenFile?: string;
}

const REQUEST_TIMEOUT_MS = 30_000;
const BLOCKING_ATTEMPTS = 5;

export interface WebhookSenderOptions {
  target: WebhookTarget;
  /** `audit.<domain>/v1` */
  apiVersion: string;
  log: Logger;
  metrics: AuditMetrics;
  timeoutMs?: number;
}

export function createWebhookSender(opts: WebhookSenderOptions): BatchDelegate {
  const url = new URL(opts.target.server);
  const where = `Post "${safeUrl(url)}"`;
  return {
    name: 'webhook',
    async send(events, signal) {
      const body = Buffer.from(JSON.stringify({ kind: 'EventList', apiVersion: opts.apiVersion, metadata: {}, items: events }), 'utf8');
      try {
        const code = await post(url, opts.target, body, AbortSignal.any([signal, AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS)]));
        if (code >= 200 && code < 300) return 'ok';
        const outcome: SendOutcome = code === 429 || code === 500 || code === 503 || code === 504 ? 'retry' : 'fail';
        opts.log.error('error in audit plugin "webhook"', { error: `${where}: the webhook answered ${code}`, events: events.length, retrying: outcome === 'retry' });
        if (outcome === 'fail') opts.metrics.eventsFailed('webhook', events.length);
        return outcome;
      } catch (e) {
        opts.log.error('error in audit plugin "webhook"', { error: `${where}: ${(e as Error).message}`, events: events.length, retrying: true });
        return 'retry';
      }
    },
    close: async () => undefined,
  };
}

/** Blocking modes: the caller waits for delivery; false once the attempts are spent or the webhook refused. */
export function blockingWebhookBackend(sender: BatchDelegate, initialBackoffMs: number, metrics: AuditMetrics): AuditBackend {
  const stop = new AbortController();
  return {
    name: 'webhook',
    async processEvents(events) {
      let backoff = initialBackoffMs;
      for (let attempt = 1; ; attempt++) {
        const outcome = await sender.send(events, stop.signal);
        if (outcome === 'ok') return true;
        if (outcome === 'fail') return false;
        if (attempt >= BLOCKING_ATTEMPTS || stop.signal.aborted) {
          metrics.eventsFailed('webhook', events.length);
          return false;
        }
        try {
          await sleep(backoff * (1 + Math.random() * 0.2), undefined, { signal: stop.signal });
        } catch {
          // Shutting down: the next attempt is the last.
        }
        backoff *= 1.5;
      }
    },
    async shutdown() {
      stop.abort();
      await sender.close();
    },
  };
}

function post(url: URL, t: WebhookTarget, body: Buffer, signal: AbortSignal): Promise<number> {
  const token = t.token ?? (t.tokenFile ? readFileSync(t.tokenFile, 'utf8').trim() : undefined);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, */*',
          'content-length': String(body.length),
          'user-agent': 'orch-apiserver',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(t.caPem !== undefined ? { ca: t.caPem } : {}),
        ...(t.clientCertPem !== undefined && t.clientKeyPem !== undefined ? { cert: t.clientCertPem, key: t.clientKeyPem } : {}),
        ...(t.tlsServerName ? { servername: t.tlsServerName } : {}),
        rejectUnauthorized: !t.insecureSkipTlsVerify,
        signal,
      },
      (res: IncomingMessage) => {
        // The answer's body means nothing to us; read it so the connection can be reused.
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', (e) => reject(signal.aborted ? new Error(signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError' ? 'context deadline exceeded' : 'the request was cancelled') : e));
    req.end(body);
  });
}

function safeUrl(u: URL): string {
  const copy = new URL(u);
  copy.username = '';
  copy.password = '';
  return copy.toString();
}
