/**
 * Test helpers: a real server on a free port (createServer, memory store unless a dataDir is given),
 * a small HTTP client returning status, headers and parsed body, and a watch reader.
 *
 * Transport: suites about something other than transport run the server in its explicit plain-HTTP
 * mode on loopback (`plainHttp`), so that a failure points at what they test and their raw
 * `node:http` probes stay simple. `startTestServer({ tls: true })` serves HTTPS as the product does,
 * and this client then speaks HTTP/2 (ALPN h2) with the server's CA and the administrator's
 * certificate, watches included. The README lists which suites run which way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect as http2Connect, type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders as Http2Headers } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
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

/** TLS options of a client: `{ ca, cert, key }` PEM, as OrchServer.tls.clientOptions gives them. */
export type ClientTls = { ca?: string; cert?: string; key?: string };

/**
 * Where a request goes: a plain or https URL (HTTP/1.1), or an HTTP/2 session over TLS. The h2
 * session is opened on first use and shared by every request of a test server.
 */
export interface Target {
  url: string;
  tls?: ClientTls;
  h2?: () => ClientHttp2Session;
}

export interface TestServer {
  server: OrchServer;
  url: string;
  /** Present when the server serves TLS: what a client needs (CA, admin certificate). */
  tls?: ClientTls;
  /** How this helper's client reaches the server. */
  target: Target;
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

export function httpCall(to: string | Target, method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
  const target = typeof to === 'string' ? { url: to } : to;
  const url = new URL(path, target.url);
  return sendRequest(target, method, `${url.pathname}${url.search}`, opts);
}

/**
 * Sends `requestTarget` as the request target exactly as given: no dot-segment resolution, no
 * escaping (httpCall resolves its path against the base URL first, as clients do).
 */
export function rawCall(to: string | Target, method: string, requestTarget: string, opts: RequestOptions = {}): Promise<Reply> {
  return sendRequest(typeof to === 'string' ? { url: to } : to, method, requestTarget, opts);
}

function sendRequest(target: Target, method: string, requestTarget: string, opts: RequestOptions): Promise<Reply> {
  let payload: Buffer | undefined;
  const headers: Record<string, string | string[]> = { ...(opts.headers ?? {}) };
  if (opts.body !== undefined) {
    payload = Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body));
    headers['content-type'] ??= opts.contentType ?? 'application/json';
    headers['content-length'] = String(payload.length);
  }
  if (target.h2) return h2Call(target.h2(), method, requestTarget, headers, payload);
  return new Promise((resolve, reject) => {
    const base = new URL(target.url);
    const where = { host: base.hostname.replace(/^\[|\]$/g, ''), port: base.port, path: requestTarget };
    const req = requestFor(target)({ ...where, method, headers, ...(target.tls ?? {}) }, (res: IncomingMessage) => {
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

function requestFor(target: Target): typeof httpRequest {
  return target.url.startsWith('https:') ? (httpsRequest as typeof httpRequest) : httpRequest;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The response headers of an h2 stream without the pseudo-headers, shaped as node:http's. */
function plainHeaders(headers: Http2Headers): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !k.startsWith(':'))) as IncomingHttpHeaders;
}

function h2Stream(session: ClientHttp2Session, method: string, path: string, headers: Record<string, string | string[]>, payload?: Buffer): ClientHttp2Stream {
  const stream = session.request({ ':method': method, ':path': path, ...headers }, { endStream: payload === undefined });
  if (payload !== undefined) stream.end(payload);
  return stream;
}

function h2Call(session: ClientHttp2Session, method: string, path: string, headers: Record<string, string | string[]>, payload?: Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const stream = h2Stream(session, method, path, headers, payload);
    let status = 0;
    let replyHeaders: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => {
      status = Number(h[':status']);
      replyHeaders = plainHeaders(h);
    });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status, headers: replyHeaders, text, body: parseJson(text) });
    });
    stream.on('error', reject);
  });
}

/** The HTTP/1.1 response or h2 stream of a watch, as one readable with status and headers. */
function watchResponse(target: Target, url: URL, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Readable; close(): void }> {
  return new Promise((resolve, reject) => {
    if (target.h2) {
      const stream = h2Stream(target.h2(), 'GET', `${url.pathname}${url.search}`, headers);
      stream.on('response', (h) => resolve({ status: Number(h[':status']), headers: plainHeaders(h), body: stream, close: () => stream.close() }));
      stream.on('error', reject);
      return;
    }
    const req = requestFor(target)(url, { method: 'GET', headers, ...(target.tls ?? {}) }, (res: IncomingMessage) =>
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res, close: () => req.destroy() }),
    );
    req.on('error', reject);
    req.end();
  });
}

export function openWatch(to: string | Target, path: string, headers: Record<string, string> = {}): Promise<WatchReader> {
  const target = typeof to === 'string' ? { url: to } : to;
  const url = new URL(path, target.url);
  return watchResponse(target, url, headers).then(({ status, headers: replyHeaders, body: res, close }) => {
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
    let done = false;
    const finish = (): void => {
      done = true;
      endedResolve();
      for (const w of waiters.splice(0)) w();
    };
    res.on('end', finish);
    res.on('close', finish);
    return {
      status,
      headers: replyHeaders,
      ended,
      pending: () => [...events],
      close,
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
    };
  });
}

export type TestServerOptions = Omit<ServerOptions, 'dataDir' | 'plainHttp'> & {
  /** `true`: a fresh temporary SQLite directory, removed at close. */
  dataDir?: string | true;
  /** Serve HTTPS (h2 and http/1.1) as the product does, and talk h2 to it; plain HTTP otherwise. */
  tls?: boolean;
};

/** Starts a server for a test; `dataDir: true` uses a fresh temporary SQLite directory. */
/**
 * The controllers a test server runs unless the suite names its own: the default set without the
 * root CA publisher, whose ConfigMap in every namespace would stand in every list and watch of
 * ConfigMaps a suite about reads makes (Kubernetes' own integration tests run the API server
 * without a controller manager, so they never see it). Suites about it pass `controllerManager: { controllers: ['*'] }`.
 */
export const TEST_SERVER_CONTROLLERS: readonly string[] = ['*', '-root-ca-cert-publisher'];

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  let tempDir: string | undefined;
  const { dataDir, tls: secure, ...rest } = opts;
  let dir: string | undefined;
  if (dataDir === true) {
    tempDir = mkdtempSync(join(tmpdir(), 'orch-test-'));
    dir = tempDir;
  } else {
    dir = dataDir;
  }
  const server = await createServer({
    port: 0,
    logLevel: 'silent',
    controllerManager: { controllers: TEST_SERVER_CONTROLLERS },
    ...(secure ? {} : { plainHttp: true }),
    ...rest,
    ...(dir ? { dataDir: dir } : {}),
  });
  const url = server.url;
  const tls = server.tls?.clientOptions;
  let session: ClientHttp2Session | undefined;
  const h2 = (): ClientHttp2Session => {
    if (!session || session.closed || session.destroyed) {
      session = http2Connect(url, { ...tls });
      // A session the server cut (close) must not fail the test process.
      session.on('error', () => undefined);
    }
    return session;
  };
  const target: Target = tls ? { url, tls, h2 } : { url };
  const call = (method: string, path: string, o?: RequestOptions): Promise<Reply> => httpCall(target, method, path, o);
  return {
    server,
    url,
    ...(tls ? { tls } : {}),
    target,
    request: call,
    get: (path, headers) => call('GET', path, headers ? { headers } : {}),
    post: (path, body, o) => call('POST', path, { ...o, body }),
    put: (path, body, o) => call('PUT', path, { ...o, body }),
    patch: (path, body, contentType, o) => call('PATCH', path, { ...o, body, contentType }),
    del: (path, body) => call('DELETE', path, body === undefined ? {} : { body }),
    watch: (path, headers) => openWatch(target, path, headers),
    async close() {
      session?.close();
      await server.close();
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    },
  };
}
