/** /metrics: Prometheus text with request counters and latency histograms that move with traffic. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text exposition format (enough of it for these metrics). */
function parseMetrics(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      types.set(type[1] as string, type[2] as string);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] as string] = l[2] as string;
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return { samples, types };
}

describe('/metrics', () => {
  let s: TestServer;
  const CM = '/api/v1/namespaces/default/configmaps';

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const scrape = async () => {
    const r = await s.get('/metrics');
    expect(r.status).toBe(200);
    return parseMetrics(r.text);
  };
  const sum = (samples: Sample[], name: string, want: Record<string, string>): number =>
    samples.filter((x) => x.name === name && Object.entries(want).every(([k, v]) => x.labels[k] === v)).reduce((a, x) => a + x.value, 0);
  const requests = async (want: Record<string, string>): Promise<number> => sum((await scrape()).samples, 'apiserver_request_total', want);

  it('is Prometheus text format with the request counter and latency histogram declared', async () => {
    const r = await s.get('/metrics');
    expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const { types } = parseMetrics(r.text);
    expect(types.get('apiserver_request_total')).toBe('counter');
    expect(types.get('apiserver_request_duration_seconds')).toBe('histogram');
  });

  it.each([
    ['POST', 201, async () => s.post(CM, { metadata: { name: 'm-created' } })],
    ['POST', 409, async () => s.post(CM, { metadata: { name: 'm-created' } })],
    ['POST', 422, async () => s.post(CM, { metadata: { name: 'Not_A_Name' } })],
    ['GET', 200, async () => s.get(`${CM}/m-created`)],
    ['GET', 404, async () => s.get(`${CM}/m-missing`)],
    ['LIST', 200, async () => s.get(CM)],
    [
      'PUT',
      200,
      async () => {
        const cur = await s.get(`${CM}/m-created`);
        return s.put(`${CM}/m-created`, { ...cur.body, data: { k: 'v' } });
      },
    ],
    ['PUT', 404, async () => s.put(`${CM}/m-missing`, { metadata: { name: 'm-missing', resourceVersion: '1' } })],
    ['PATCH', 200, async () => s.patch(`${CM}/m-created`, { data: { k: 'w' } }, 'application/merge-patch+json')],
    ['PATCH', 415, async () => s.patch(`${CM}/m-created`, 'k=w', 'text/plain')],
    ['DELETE', 200, async () => s.del(`${CM}/m-created`)],
    ['DELETE', 404, async () => s.del(`${CM}/m-created`)],
    ['DELETECOLLECTION', 200, async () => s.del(CM)],
  ])('counts %s answered %i under resource configmaps', async (verb, code, call) => {
    const labels = { verb, resource: 'configmaps', group: '', version: 'v1', code: String(code) };
    const before = await requests(labels);
    const r = await call();
    expect(r.status).toBe(code);
    expect(await requests(labels)).toBe(before + 1);
  });

  it('counts a WATCH once the watch ends', async () => {
    const labels = { verb: 'WATCH', resource: 'configmaps', code: '200' };
    const before = await requests(labels);
    const w = await s.watch(`${CM}?watch=1`);
    expect(w.status).toBe(200);
    w.close();
    // The server learns of the closed connection asynchronously; poll until it has counted it.
    for (let i = 0; i < 200 && (await requests(labels)) === before; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await requests(labels)).toBe(before + 1);
  });

  it('labels scope and namespace-less lists', async () => {
    const before = await requests({ verb: 'LIST', resource: 'namespaces', scope: 'cluster', code: '200' });
    await s.get('/api/v1/namespaces');
    expect(await requests({ verb: 'LIST', resource: 'namespaces', scope: 'cluster', code: '200' })).toBe(before + 1);
    const one = await requests({ verb: 'GET', resource: 'namespaces', scope: 'resource', code: '200' });
    await s.get('/api/v1/namespaces/default');
    expect(await requests({ verb: 'GET', resource: 'namespaces', scope: 'resource', code: '200' })).toBe(one + 1);
  });

  it('observes request latency in cumulative histogram buckets', async () => {
    const labels = { verb: 'GET', resource: 'namespaces' };
    const before = await scrape();
    const countBefore = sum(before.samples, 'apiserver_request_duration_seconds_count', labels);
    await s.get('/api/v1/namespaces/default');
    await s.get('/api/v1/namespaces/default');
    const after = await scrape();
    expect(sum(after.samples, 'apiserver_request_duration_seconds_count', labels)).toBe(countBefore + 2);
    expect(sum(after.samples, 'apiserver_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(countBefore + 2);
    expect(sum(after.samples, 'apiserver_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    const buckets = after.samples
      .filter((x) => x.name === 'apiserver_request_duration_seconds_bucket' && x.labels.verb === 'GET' && x.labels.resource === 'namespaces')
      .map((x) => ({ le: x.labels.le === '+Inf' ? Infinity : Number(x.labels.le), value: x.value }))
      .sort((a, b) => a.le - b.le);
    expect(buckets.length).toBeGreaterThan(10);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
  });
});
