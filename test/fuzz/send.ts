/**
 * Sends one fuzz request over HTTP/1.1 exactly as generated (the target is not normalised) and reports
 * what came back. A stream (a watch) is read only up to its first bytes.
 */
import { Agent, request } from 'node:http';
import type { FuzzRequest } from './request.js';

export interface Outcome {
  /** The HTTP status, or 0 when no answer came (`error` says why). */
  status: number;
  /** The first bytes of the body (all of it for ordinary answers up to 64 KiB). */
  head: string;
  error?: string;
  /** A watch or other stream, cut after its first bytes. */
  streamed: boolean;
}

const HEAD_BYTES = 64 * 1024;
/** How long a stream is read before the fuzzer moves on: long enough for its first event. */
const STREAM_READ_MS = 30;

export class Sender {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly url: URL;

  constructor(baseUrl: string) {
    this.url = new URL(baseUrl);
  }

  close(): void {
    this.agent.destroy();
  }

  send(req: FuzzRequest, timeoutMs: number, fresh = false): Promise<Outcome> {
    return new Promise((resolve) => {
      let settled = false;
      const done = (o: Outcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(o);
      };
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of req.headers) {
        const prev = headers[k];
        headers[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
      }
      if (req.body !== undefined) headers['Content-Length'] = String(req.body.length);
      const hasHost = req.headers.some(([k]) => k.toLowerCase() === 'host');
      let outgoing: ReturnType<typeof request>;
      try {
        outgoing = request({
          host: this.url.hostname,
          port: this.url.port,
          method: req.method,
          path: req.target,
          headers,
          setHost: !hasHost,
          agent: fresh || req.streaming ? false : this.agent,
          insecureHTTPParser: true,
        });
      } catch (e) {
        // Node's client refuses some targets and header values outright: nothing was sent.
        resolve({ status: -1, head: '', error: `not sendable: ${(e as Error).message}`, streamed: false });
        return;
      }
      const timer = setTimeout(() => {
        outgoing.destroy();
        done({ status: 0, head: '', error: `no answer within ${timeoutMs} ms`, streamed: false });
      }, timeoutMs);
      outgoing.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const status = res.statusCode ?? 0;
        const isStream = req.method === 'GET' && res.headers['transfer-encoding'] === 'chunked' && status === 200;
        const finish = (streamed: boolean): void => done({ status, head: Buffer.concat(chunks).toString('utf8'), streamed });
        if (isStream) {
          setTimeout(() => {
            finish(true);
            res.destroy();
          }, STREAM_READ_MS);
        }
        res.on('data', (c: Buffer) => {
          if (size < HEAD_BYTES) chunks.push(c);
          size += c.length;
        });
        res.on('end', () => finish(false));
        res.on('error', () => finish(isStream));
        res.on('close', () => finish(isStream));
      });
      // Node's client hands the answer to a CONNECT to a `connect` listener, not as a response.
      outgoing.on('connect', (res, socket) => {
        done({ status: res.statusCode ?? 0, head: '', streamed: false });
        socket.destroy();
      });
      outgoing.on('error', (e) => done({ status: 0, head: '', error: `${(e as NodeJS.ErrnoException).code ?? ''} ${e.message}`.trim(), streamed: false }));
      if (req.body !== undefined) outgoing.write(req.body);
      outgoing.end();
    });
  }
}
