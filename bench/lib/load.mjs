/** The load generator: plain node:http requests over keep-alive agents, closed-loop at a concurrency. */
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';

export function keepAliveAgent(maxSockets) {
  return new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
}

/** One request; resolves with status, headers and the whole body once the last byte arrived. */
export function request(baseUrl, { method = 'GET', path, body, headers = {}, agent, timeoutMs = 30_000 }) {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
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
export async function runLoad(baseUrl, { concurrency, warmupMs, durationMs, next, expect = 200 }) {
  const agent = keepAliveAgent(concurrency);
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
        const r = await request(baseUrl, { ...opts, agent, timeoutMs: 10_000 });
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
