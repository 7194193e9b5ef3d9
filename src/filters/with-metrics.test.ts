import { afterEach, describe, expect, it } from 'vitest';
import { serveChain, type ChainServer } from '../../test/helpers/chain-server.js';
import { errors } from '../machinery/errors.js';
import type { ApiMetrics, MetricLabels } from '../machinery/metrics.js';
import { withMetrics } from './with-metrics.js';

let s: ChainServer | undefined;
afterEach(() => s?.close());

/** Metrics that keep what they were told, as the interface allows. */
function recordingMetrics() {
  const requests: MetricLabels[] = [];
  const latency: MetricLabels[] = [];
  let inflight = 0;
  const gauge = { inc: () => void inflight++, dec: () => void inflight--, set: () => undefined };
  const metrics: ApiMetrics = {
    requests: { inc: (l) => void requests.push(l) },
    latency: { observe: (l) => void latency.push(l) },
    inflight: gauge,
    longRunning: gauge,
    watchEvents: { inc: () => undefined },
    deprecatedApis: gauge,
  };
  return { metrics, requests, latency, inflight: () => inflight };
}

describe('withMetrics', () => {
  it('counts the status the response writer sent, with Kubernetes labels, and observes latency', async () => {
    const m = recordingMetrics();
    s = await serveChain([withMetrics(m.metrics)], {
      handler: async (ctx) => {
        ctx.res.statusCode = 201;
        ctx.res.end('{}');
      },
    });
    await s.fetch('/api/v1/namespaces/default/configmaps', { method: 'POST', body: '{}' });
    expect(m.requests).toEqual([
      { verb: 'POST', dry_run: '', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'namespace', component: 'apiserver', code: '201' },
    ]);
    expect(m.latency).toHaveLength(1);
    expect(m.inflight()).toBe(0);
  });

  it('counts the code of a thrown Status that panic recovery writes afterwards', async () => {
    const m = recordingMetrics();
    s = await serveChain([withMetrics(m.metrics)], {
      handler: async () => {
        throw errors.forbidden({ group: '', resource: 'secrets' }, '', 'no');
      },
    });
    expect((await s.fetch('/api/v1/secrets')).status).toBe(403);
    expect(m.requests[0]).toMatchObject({ verb: 'LIST', code: '403', scope: 'cluster' });
  });

  it('counts a watch but leaves it out of the latency histogram', async () => {
    const m = recordingMetrics();
    s = await serveChain([withMetrics(m.metrics)], {
      handler: async (ctx) => {
        ctx.res.end();
      },
    });
    await s.fetch('/api/v1/configmaps?watch=true');
    expect(m.requests[0]).toMatchObject({ verb: 'WATCH', code: '200' });
    expect(m.latency).toEqual([]);
  });
});
