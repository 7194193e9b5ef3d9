/**
 * GETs a JSON document from the identity provider over HTTPS: its discovery document and its key
 * set. Only `https:` URLs; the provider's certificate must verify against `ca` (the PEM of
 * `--oidc-ca-file`, which then replaces the host's roots, as Go's RootCAs does) or the host's roots.
 * Bounded in time (30 s, as kube-apiserver's OIDC client) and size, so a slow or runaway provider
 * cannot hold requests or memory. Rejects with an Error that names the URL and the cause.
 */
import { request } from 'node:https';

export interface FetchJsonOptions {
  ca?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** Far beyond any real discovery document or key set. */
const MAX_BYTES = 1024 * 1024;

export function fetchJson(url: string, opts: FetchJsonOptions = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      reject(new Error(`${JSON.stringify(url)} is not a URL`));
      return;
    }
    if (target.protocol !== 'https:') {
      reject(new Error(`${url}: only https URLs are fetched`));
      return;
    }
    const fail = (why: string): void => reject(new Error(`Get "${url}": ${why}`));
    const req = request(
      target,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        ...(opts.ca !== undefined ? { ca: opts.ca } : {}),
        timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BYTES) {
            res.destroy();
            fail(`response larger than ${MAX_BYTES} bytes`);
            return;
          }
          chunks.push(c);
        });
        res.on('error', (e) => fail(e.message));
        res.on('end', () => {
          if (size > MAX_BYTES) return;
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299) {
            fail(`${res.statusCode} ${res.statusMessage ?? ''}`.trim());
            return;
          }
          try {
            resolve(JSON.parse(text) as unknown);
          } catch {
            fail('the response is not JSON');
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (e) => fail(e.message));
    req.end();
  });
}
