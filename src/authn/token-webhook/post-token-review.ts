/**
 * POSTs a TokenReview to the webhook and returns its parsed JSON answer. The API server presents
 * its client certificate (or token) from the webhook kubeconfig and trusts the CA given there.
 * Transient failures are retried as kube-apiserver's webhook client does: a reset connection, HTTP
 * 500, 504 and 429, and a 503 with Retry-After; up to 5 attempts 500 ms apart, growing by 1.5 with
 * 20 % jitter; all within a hard 30 s bound. A refused connection, another status or an answer that
 * is not JSON fails at once. Rejects with an Error naming the URL and the cause, never the token.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WebhookEndpoint } from './webhook-kubeconfig.js';

export interface RetryBackoff {
  initialMs: number;
  factor: number;
  jitter: number;
  steps: number;
}

export const DEFAULT_RETRY_BACKOFF: RetryBackoff = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };
export const WEBHOOK_TIMEOUT_MS = 30_000;
const MAX_ANSWER_BYTES = 1024 * 1024;

export interface PostOptions {
  signal: AbortSignal;
  backoff?: RetryBackoff;
  timeoutMs?: number;
  userAgent?: string;
}

class CallError extends Error {
  constructor(
    message: string,
    readonly retriable: boolean,
  ) {
    super(message);
  }
}

export async function postTokenReview(endpoint: WebhookEndpoint, review: object, opts: PostOptions): Promise<unknown> {
  const backoff = opts.backoff ?? DEFAULT_RETRY_BACKOFF;
  const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS)]);
  const payload = Buffer.from(JSON.stringify(review));
  let delay = backoff.initialMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await postOnce(endpoint, payload, signal, opts.userAgent);
    } catch (e) {
      if (!(e instanceof CallError) || !e.retriable || attempt >= backoff.steps || signal.aborted) throw e;
    }
    try {
      await sleep(delay * (1 + Math.random() * backoff.jitter), undefined, { signal });
    } catch {
      throw new CallError(`Post "${safeUrl(endpoint.server)}": ${timedOutOrCancelled(opts.signal)}`, false);
    }
    delay *= backoff.factor;
  }
}

function postOnce(endpoint: WebhookEndpoint, payload: Buffer, signal: AbortSignal, userAgent = 'orch-apiserver'): Promise<unknown> {
  const url = new URL(endpoint.server);
  const where = `Post "${safeUrl(endpoint.server)}"`;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, */*',
          'content-length': String(payload.length),
          'user-agent': userAgent,
          ...(endpoint.token ? { authorization: `Bearer ${endpoint.token}` } : {}),
        },
        ...(endpoint.ca !== undefined ? { ca: endpoint.ca } : {}),
        ...(endpoint.clientCert !== undefined ? { cert: endpoint.clientCert, key: endpoint.clientKey } : {}),
        ...(endpoint.tlsServerName ? { servername: endpoint.tlsServerName } : {}),
        rejectUnauthorized: !endpoint.insecureSkipTlsVerify,
        signal,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) {
            res.destroy();
            reject(new CallError(`${where}: the answer is larger than ${MAX_ANSWER_BYTES} bytes`, false));
          } else chunks.push(c);
        });
        res.on('error', (e) => reject(networkError(where, e, signal)));
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299) {
            const retriable = code === 429 || code === 500 || code === 504 || (code === 503 && res.headers['retry-after'] !== undefined);
            // The body is not quoted: a webhook might echo the request, token included.
            reject(new CallError(`${where}: the webhook answered ${code} ${res.statusMessage ?? ''}`.trimEnd(), retriable));
            return;
          }
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
          } catch {
            reject(new CallError(`${where}: the answer is not JSON`, false));
          }
        });
      },
    );
    req.on('error', (e) => reject(networkError(where, e, signal)));
    req.end(payload);
  });
}

function networkError(where: string, e: Error, signal: AbortSignal): CallError {
  if (signal.aborted) return new CallError(`${where}: ${timedOutOrCancelled(signal)}`, false);
  const code = (e as NodeJS.ErrnoException).code;
  const reset = code === 'ECONNRESET' || code === 'EPIPE' || e.message === 'socket hang up';
  return new CallError(`${where}: ${e.message}`, reset);
}

function timedOutOrCancelled(signal: AbortSignal): string {
  return signal.aborted && !(signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError') ? 'the request was cancelled' : 'context deadline exceeded';
}

/** The URL without user information, for messages. */
function safeUrl(server: string): string {
  const u = new URL(server);
  u.username = '';
  u.password = '';
  return u.toString();
}
