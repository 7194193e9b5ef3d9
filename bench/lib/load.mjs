/**
 * A Node client: node:http / node:https requests over keep-alive agents, closed-loop at a concurrency.
 * It saturates long before the server, so the throughput figures come from wrk and h2load
 * (generators.mjs); this client sets things up, reads watches and lists, and measures what those
 * generators cannot do (client-certificate authentication).
 */
import { Agent } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';

/** A keep-alive agent; `tls` ({ ca, cert, key }) makes it an https one. */
export function keepAliveAgent(maxSockets, tls) {
  const opts = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets };
  return tls ? new HttpsAgent({ ...opts, ...tls }) : new Agent(opts);
}

/** Per-server client settings: `tls` for https agents, `headers` (a bearer token) on every request. */
const defaultAgents = new Map();
function agentFor(access) {
  if (!access?.tls) return undefined;
  let a = defaultAgents.get(access.tls);
  if (!a) defaultAgents.set(access.tls, (a = keepAliveAgent(64, access.tls)));
  return a;
}

/** One request; resolves with status, headers and the whole body once the last byte arrived. */
export function request(baseUrl, { method = 'GET', path, body, headers: extra = {}, agent: given, access, timeoutMs = 30_000 }) {
  const url = new URL(path, baseUrl);
  const headers = { ...access?.headers, ...extra };
  const agent = given ?? agentFor(access);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent,
        headers: body !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers } : headers,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** request(), failing unless the status is `expect`. */
export async function expectStatus(baseUrl, opts, expect) {
  const r = await request(baseUrl, opts);
  if (r.status !== expect) throw new Error(`${opts.method ?? 'GET'} ${opts.path}: ${r.status}, expected ${expect}: ${r.body.toString().slice(0, 300)}`);
  return r;
}

/**
 * Closed-loop load: `concurrency` loops each send their next request as soon as the previous one
 * finished. Requests completing during the first `warmupMs` are not counted (connections open, JIT
 * warms); the figure is completions per second over the following `durationMs`.
 * next(i) returns the i-th request's options; every answer must have status `expect`.
 */
export async function runLoad(baseUrl, { concurrency, warmupMs, durationMs, next, expect = 200, access }) {
  const agent = keepAliveAgent(concurrency, access?.tls);
  const start = performance.now();
  const from = start + warmupMs;
  const until = from + durationMs;
  let issued = 0;
  let counted = 0;
  let failure;
  const loop = async () => {
    while (!failure && performance.now() < until) {
      const opts = next(issued++);
      try {
        const r = await request(baseUrl, { ...opts, agent, access, timeoutMs: 10_000 });
        if (r.status !== expect) throw new Error(`${opts.method ?? 'GET'} ${opts.path}: ${r.status}: ${r.body.toString().slice(0, 300)}`);
      } catch (e) {
        failure ??= e;
        return;
      }
      const now = performance.now();
      if (now >= from && now <= until) counted++;
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, loop));
  } finally {
    agent.destroy();
  }
  if (failure) throw failure;
  return (counted * 1000) / durationMs;
}
