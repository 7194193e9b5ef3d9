/**
 * Test helpers: a real server on a free port (createServer, memory store unless a dataDir is given),
 * a small HTTP client returning status, headers and parsed body, and a watch reader.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type OrchServer } from '../../src/index.js';
import type { ServerOptions } from '../../src/server/options.js';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: any;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is when a string or Buffer; JSON-encoded otherwise. */
  contentType?: string;
  /** An array value is sent as repeated header lines (Impersonate-Group). */
  headers?: Record<string, string | string[]>;
}

export interface TestServer {
  server: OrchServer;
  url: string;
  request(method: string, path: string, opts?: RequestOptions): Promise<Reply>;
  get(path: string, headers?: Record<string, string>): Promise<Reply>;
  post(path: string, body: unknown, opts?: Omit<RequestOptions, 'body'>): Promise<Reply>;
  put(path: string, body: unknown, opts?: Omit<RequestOptions, 'body'>): Promise<Reply>;
  patch(path: string, body: unknown, contentType: string, opts?: Omit<RequestOptions, 'body' | 'contentType'>): Promise<Reply>;
  del(path: string, body?: unknown): Promise<Reply>;
  /** Opens a watch and collects events; see WatchReader. */
  watch(path: string, headers?: Record<string, string>): Promise<WatchReader>;
  close(): Promise<void>;
}

export interface WatchEvent {
  type: string;
  object: any;
}

export interface WatchReader {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Resolves with the next `n` events, or rejects after `timeoutMs`. */
  next(n?: number, timeoutMs?: number): Promise<WatchEvent[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Events received so far and not yet taken. */
  pending(): WatchEvent[];
  close(): void;
}

export function httpCall(baseUrl: string, method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
  const url = new URL(path, baseUrl);
  let payload: Buffer | undefined;
  const headers: Record<string, string | string[]> = { ...(opts.headers ?? {}) };
  if (opts.body !== undefined) {
    payload = Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body));
    headers['content-type'] ??= opts.contentType ?? 'application/json';
    headers['content-length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

export function openWatch(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<WatchReader> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'GET', headers }, (res) => {
      const events: WatchEvent[] = [];
      const waiters: (() => void)[] = [];
      let buffer = '';
      let endedResolve!: () => void;
      const ended = new Promise<void>((r) => (endedResolve = r));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (line) events.push(JSON.parse(line) as WatchEvent);
        }
        for (const w of waiters.splice(0)) w();
      });
      const finish = (): void => {
        endedResolve();
        for (const w of waiters.splice(0)) w();
      };
      res.on('end', finish);
      res.on('close', finish);
      let done = false;
      res.on('close', () => (done = true));
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        ended,
        pending: () => [...events],
        close: () => req.destroy(),
        next(n = 1, timeoutMs = 5000) {
          return new Promise((ok, fail) => {
            const deadline = setTimeout(() => fail(new Error(`timed out waiting for ${n} watch events; have ${events.length}: ${JSON.stringify(events.map((e) => e.type))}`)), timeoutMs);
            const check = (): void => {
              if (events.length >= n) {
                clearTimeout(deadline);
                ok(events.splice(0, n));
              } else if (done) {
                clearTimeout(deadline);
                fail(new Error(`watch ended after ${events.length} of ${n} events`));
              } else {
                waiters.push(check);
              }
            };
            check();
          });
        },
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Starts a server for a test; `dataDir: true` uses a fresh temporary SQLite directory. */
export async function startTestServer(opts: Omit<ServerOptions, 'dataDir'> & { dataDir?: string | true } = {}): Promise<TestServer> {
  let tempDir: string | undefined;
  const { dataDir, ...rest } = opts;
  let dir: string | undefined;
  if (dataDir === true) {
    tempDir = mkdtempSync(join(tmpdir(), 'orch-test-'));
    dir = tempDir;
  } else {
    dir = dataDir;
  }
  const server = await createServer({ port: 0, logLevel: 'silent', ...rest, ...(dir ? { dataDir: dir } : {}) });
  const url = server.url;
  const call = (method: string, path: string, o?: RequestOptions): Promise<Reply> => httpCall(url, method, path, o);
  return {
    server,
    url,
    request: call,
    get: (path, headers) => call('GET', path, headers ? { headers } : {}),
    post: (path, body, o) => call('POST', path, { ...o, body }),
    put: (path, body, o) => call('PUT', path, { ...o, body }),
    patch: (path, body, contentType, o) => call('PATCH', path, { ...o, body, contentType }),
    del: (path, body) => call('DELETE', path, body === undefined ? {} : { body }),
    watch: (path, headers) => openWatch(url, path, headers),
    async close() {
      await server.close();
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    },
  };
}
