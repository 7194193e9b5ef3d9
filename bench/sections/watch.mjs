/**
 * Watch event latency: the time from sending a create to a watcher receiving its event, measured by
 * the client for every watcher, with 1 and with 1000 watchers open. Creates go one at a time, each
 * after every watcher saw the previous one. Baseline: a bare node:http server that writes the posted
 * object to its open streams before answering the POST.
 */
import { request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { expectStatus, keepAliveAgent, request } from '../lib/load.mjs';
import { configMap } from '../lib/objects.mjs';
import { percentile } from '../lib/stats.mjs';
import { createNamespace, sleep } from './common.mjs';

const NAME = /"name":"(w-[^"]+)"/;

/**
 * Opens `count` streaming GETs of `path`, each on its own socket (no agent, so no maxSockets cap),
 * `batch` at a time so the listen backlog never overflows. Every complete line's object name goes to
 * onEvent(name, arrivalTime).
 */
async function openWatchers(baseUrl, path, count, onEvent, { batch = 100, timeoutMs = 15_000 } = {}) {
  const url = new URL(path, baseUrl);
  const reqs = [];
  const open = () =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, agent: false }, (res) => {
        clearTimeout(timer);
        if (res.statusCode !== 200) return reject(new Error(`watch ${path}: ${res.statusCode}`));
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          const at = performance.now();
          buf += chunk;
          let nl;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const m = NAME.exec(buf.slice(0, nl));
            buf = buf.slice(nl + 1);
            if (m) onEvent(m[1], at);
          }
        });
        res.on('error', () => {});
        resolve();
      });
      const timer = setTimeout(() => req.destroy(new Error(`watch ${path}: no headers within ${timeoutMs} ms`)), timeoutMs);
      req.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      req.end();
      reqs.push(req);
    });
  const closeAll = () => reqs.forEach((r) => r.destroy());
  try {
    for (let i = 0; i < count; i += batch) await Promise.all(Array.from({ length: Math.min(batch, count - i) }, open));
  } catch (e) {
    closeAll();
    throw e;
  }
  return closeAll;
}

/** One round: `watchers` streams, `events` creates in a row; returns every latency in ms. */
async function round({ url, watchPath, createPath, watchers, events, tag }) {
  const waiting = new Map();
  const closeAll = await openWatchers(url, watchPath, watchers, (name, at) => {
    const w = waiting.get(name);
    if (!w) return;
    w.samples.push(at - w.t0);
    if (w.samples.length === watchers) w.done();
  });
  const agent = keepAliveAgent(1);
  const latencies = [];
  try {
    for (let i = 0; i < events; i++) {
      const name = `w-${tag}-${i}`;
      const w = { t0: 0, samples: [], done: () => {} };
      const allSeen = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`event ${name}: ${w.samples.length} of ${watchers} watchers saw it within 10 s`)), 10_000);
        w.done = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      waiting.set(name, w);
      const body = JSON.stringify(configMap(name, i));
      w.t0 = performance.now();
      const r = await request(url, { method: 'POST', path: createPath, body, agent, timeoutMs: 10_000 });
      if (r.status !== 201) throw new Error(`POST ${createPath}: ${r.status}: ${r.body.toString().slice(0, 300)}`);
      await allSeen;
      waiting.delete(name);
      latencies.push(...w.samples);
    }
  } finally {
    agent.destroy();
    closeAll();
  }
  await sleep(200); // let the server drop the closed streams before the next round
  return latencies;
}

export async function benchWatch({ cfg, server, baseline, backend, record }) {
  const ns = 'bench-watch';
  await createNamespace(server.url, ns);
  const createPath = `/api/v1/namespaces/${ns}/configmaps`;
  for (const [watchers, events] of [
    [1, cfg.watchEvents1],
    [1000, cfg.watchEvents1000],
  ]) {
    const p = { server: { p50: [], p99: [] }, base: { p50: [], p99: [] } };
    for (let r = 0; r < cfg.watchRounds; r++) {
      const list = await expectStatus(server.url, { path: `${createPath}?limit=1` }, 200);
      const rv = JSON.parse(list.body.toString()).metadata.resourceVersion;
      const runs = [
        ['server', { url: server.url, watchPath: `${createPath}?watch=1&resourceVersion=${rv}&timeoutSeconds=600`, createPath }],
        ['base', { url: baseline.url, watchPath: '/watch', createPath: '/watch' }],
      ];
      if (r % 2) runs.reverse();
      for (const [who, target] of runs) {
        const lat = await round({ ...target, watchers, events, tag: `${watchers}-${r}` });
        p[who].p50.push(percentile(lat, 50));
        p[who].p99.push(percentile(lat, 99));
      }
    }
    for (const q of ['p50', 'p99']) {
      record({
        id: `watch.${q}.w${watchers}`,
        measure: `watch latency ${q}, ${watchers} watcher${watchers > 1 ? 's' : ''} (ms)`,
        backend,
        values: p.server[q],
        baseline: { what: 'bare node:http fan-out of the posted object', values: p.base[q] },
        lowerIsBetter: true,
      });
    }
  }
}
