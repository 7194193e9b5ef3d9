/**
 * A fresh server per round: its RSS empty, then after 10k ConfigMaps (against the JSON size of those
 * objects), then the time to list all of them (to the last byte) against a bare node:http server
 * returning the same bytes.
 */
import { performance } from 'node:perf_hooks';
import { expectStatus, keepAliveAgent, request } from '../lib/load.mjs';
import { configMap } from '../lib/objects.mjs';
import { rssBytes, startServer } from '../lib/procs.mjs';
import { createNamespace, replayableHeaders, sleep } from './common.mjs';

const MiB = 1024 * 1024;

/** Creates `count` objects with `concurrency` requests in flight; returns the bytes of the stored JSON. */
async function fill(url, path, count, concurrency, deadlineMs) {
  const agent = keepAliveAgent(concurrency);
  const until = performance.now() + deadlineMs;
  let nextIndex = 0;
  let bytes = 0;
  const loop = async () => {
    while (nextIndex < count) {
      if (performance.now() > until) throw new Error(`creating ${count} objects took over ${deadlineMs} ms`);
      const i = nextIndex++;
      const name = `obj-${String(i).padStart(5, '0')}`;
      const r = await request(url, { method: 'POST', path, body: JSON.stringify(configMap(name, i)), agent, timeoutMs: 10_000 });
      if (r.status !== 201) throw new Error(`POST ${path}: ${r.status}: ${r.body.toString().slice(0, 300)}`);
      bytes += r.body.length;
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, loop));
  } finally {
    agent.destroy();
  }
  return bytes;
}

/** Times `reps` GETs of `path` to the last byte, after one untimed warm-up; returns ms and the last response. */
async function timeGets(url, path, reps) {
  const agent = keepAliveAgent(1);
  const ms = [];
  let last;
  try {
    for (let i = 0; i <= reps; i++) {
      const t0 = performance.now();
      last = await request(url, { path, agent, timeoutMs: 30_000 });
      const t = performance.now() - t0;
      if (last.status !== 200) throw new Error(`GET ${path}: ${last.status}`);
      if (i > 0) ms.push(t);
    }
  } finally {
    agent.destroy();
  }
  return { ms, last };
}

export async function benchBulk({ cfg, tools, baseline, backend, record, log }) {
  const count = cfg.objects;
  const rssEmpty = [];
  const rssFull = [];
  const growth = [];
  const jsonSize = [];
  const list = [];
  const listBase = [];
  let listBytes = 0;
  for (let round = 0; round < cfg.bulkRounds; round++) {
    const server = await startServer(backend, { tools });
    try {
      await sleep(500);
      const empty = rssBytes(server.pid);
      await createNamespace(server.url, 'bench-list');
      const path = '/api/v1/namespaces/bench-list/configmaps';
      const t0 = performance.now();
      const bytes = await fill(server.url, path, count, 16, cfg.fillDeadlineMs);
      log(`  ${backend}: ${count} objects (${(bytes / MiB).toFixed(1)} MiB of JSON) created in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      await sleep(1000);
      const full = rssBytes(server.pid);
      rssEmpty.push(empty / MiB);
      rssFull.push(full / MiB);
      growth.push((full - empty) / MiB);
      jsonSize.push(bytes / MiB);

      const { ms, last } = await timeGets(server.url, path, cfg.listReps);
      // The namespace also holds the root CA ConfigMap the server publishes in every namespace.
      const items = JSON.parse(last.body.toString()).items.length;
      if (items < count || items > count + 1) throw new Error(`the list returned ${items} items, expected ${count} (and the root CA ConfigMap)`);
      listBytes = last.body.length;
      await baseline.serve(path, last.body, replayableHeaders(last.headers));
      const base = await timeGets(baseline.url, path, cfg.listReps);
      list.push(...ms);
      listBase.push(...base.ms);
    } finally {
      await server.stop();
    }
  }
  const k = `${count / 1000}k`;
  record({ id: 'rss.empty', measure: 'RSS, empty server (MiB)', backend, values: rssEmpty, lowerIsBetter: true });
  record({
    id: 'rss.full',
    measure: `RSS after ${k} objects (MiB)`,
    backend,
    values: rssFull,
    baseline: { what: `JSON size of the ${k} objects`, values: jsonSize },
    lowerIsBetter: true,
  });
  record({
    id: 'rss.growth',
    measure: `RSS growth for ${k} objects (MiB)`,
    backend,
    values: growth,
    baseline: { what: `JSON size of the ${k} objects`, values: jsonSize },
    lowerIsBetter: true,
  });
  record({
    id: 'list',
    measure: `list ${k} objects (ms to last byte)`,
    backend,
    values: list,
    baseline: { what: `bare node:http, same ${(listBytes / MiB).toFixed(1)} MiB`, values: listBase },
    lowerIsBetter: true,
  });
}
