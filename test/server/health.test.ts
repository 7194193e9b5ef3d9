/** /healthz, /livez and /readyz in the plain-text format of Kubernetes' probes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHealthChecks } from '../../src/endpoints/health.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('health endpoints', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ dataDir: true });
  });
  afterAll(() => s.close());

  it.each(['/healthz', '/livez', '/readyz'])('%s answers a plain ok', async (path) => {
    const r = await s.get(path);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.text).toBe('ok');
  });

  it.each([
    ['/readyz', 'readyz', ['ping', 'log', 'etcd', 'informer-sync']],
    ['/livez', 'livez', ['ping', 'log', 'etcd']],
    ['/healthz', 'healthz', ['ping', 'log', 'etcd']],
  ])('%s?verbose lists every check, then the verdict', async (path, kind, checks) => {
    const r = await s.get(`${path}?verbose`);
    expect(r.status).toBe(200);
    const lines = r.text.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(`${kind} check passed`);
    for (const c of checks) expect(lines).toContain(`[+]${c} ok`);
    expect(lines[0]).toBe('[+]ping ok');
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^\[\+\][\w-]+ (ok|excluded: ok)$/);
  });

  it('?exclude=etcd leaves the check out and says so', async () => {
    const r = await s.get('/readyz?verbose&exclude=etcd');
    expect(r.status).toBe(200);
    const lines = r.text.trimEnd().split('\n');
    expect(lines).not.toContain('[+]etcd ok');
    expect(lines).toContain('[+]etcd excluded: ok');
    expect(lines).toContain('[+]ping ok');
    expect(lines.at(-1)).toBe('readyz check passed');
  });

  it.each(['/readyz/ping', '/readyz/etcd', '/livez/ping', '/livez/etcd', '/healthz/ping'])('%s runs one check', async (path) => {
    const r = await s.get(path);
    expect(r.status).toBe(200);
    expect(r.text).toBe('ok');
  });

  it.each(['/readyz/nosuch', '/livez/nosuch', '/healthz/nosuch', '/readyz/ping/extra'])('%s is 404', async (path) => {
    const r = await s.get(path);
    expect(r.status).toBe(404);
  });
});

describe('a failing check', () => {
  // The listener cannot lose its store in-process, so the formatter is driven directly with a failing check.
  const checks = [
    { name: 'ping', check: async () => undefined },
    { name: 'etcd', check: async () => Promise.reject(new Error('connection refused')) },
  ];

  it('turns the verdict into a 500 with a [-] line and withholds the reason', async () => {
    const r = await runHealthChecks('readyz', checks, new URL('http://x/readyz'));
    expect(r).toEqual({ code: 500, body: '[+]ping ok\n[-]etcd failed: reason withheld\nreadyz check failed\n' });
  });

  it('is excluded by ?exclude, and fails alone at /readyz/etcd', async () => {
    expect(await runHealthChecks('readyz', checks, new URL('http://x/readyz?exclude=etcd'))).toEqual({ code: 200, body: 'ok' });
    expect((await runHealthChecks('readyz', checks, new URL('http://x/readyz/etcd'), 'etcd'))?.code).toBe(500);
  });
});
