/** GET of one ConfigMap by name at concurrency 1, 16 and 64, against a bare node:http server returning the same bytes. */
import { expectStatus, runLoad } from '../lib/load.mjs';
import { configMap } from '../lib/objects.mjs';
import { alternate, createNamespace, replayableHeaders } from './common.mjs';

export async function benchGet({ cfg, server, baseline, backend, record }) {
  await createNamespace(server.url, 'bench-get');
  const path = '/api/v1/namespaces/bench-get/configmaps/get-target';
  await expectStatus(server.url, { method: 'POST', path: '/api/v1/namespaces/bench-get/configmaps', body: JSON.stringify(configMap('get-target')) }, 201);
  const sample = await expectStatus(server.url, { path }, 200);
  await baseline.serve(path, sample.body, replayableHeaders(sample.headers));
  const next = () => ({ path });
  for (const concurrency of [1, 16, 64]) {
    const values = [];
    const base = [];
    for (let round = 0; round < cfg.rounds; round++) {
      const load = (url) => () => runLoad(url, { concurrency, warmupMs: cfg.warmupMs, durationMs: cfg.durationMs, next });
      const [v, b] = await alternate(round, load(server.url), load(baseline.url));
      values.push(v);
      base.push(b);
    }
    record({
      id: `get.c${concurrency}`,
      measure: `GET by name, c=${concurrency} (req/s)`,
      backend,
      values,
      baseline: { what: `bare node:http, same ${sample.body.length} bytes`, values: base },
    });
  }
}
