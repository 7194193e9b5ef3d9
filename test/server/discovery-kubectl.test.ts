/**
 * Real kubectl discovering the API: the oldest supported (1.27, asks for apidiscovery v2beta1) and
 * the newest installed (asks for v2). A counting proxy between kubectl and the server records every
 * request, so the tests see that aggregated discovery takes the two requests /api and /apis and no
 * per-group-version ones, and that plain discovery still serves kubectl when the aggregated form
 * is not offered (the proxy strips it) or not known (kubectl asks for apidiscovery.k8s.io from an
 * orch.io server). Every run has a fresh --cache-dir so no cached discovery hides requests.
 * Skips, saying why, when kubectl is not installed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlPicks, runKubectl } from '../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** kubectl.1.27 and the newest kubectl.1.N beside the kubectl on PATH (or KUBECTL alone). */
function findKubectls(): { version: string; path: string }[] {
  if (process.env.KUBECTL) return [{ version: 'KUBECTL', path: process.env.KUBECTL }];
  return kubectlPicks().map((k) => ({ version: k.onPath ? 'default' : `1.${k.minor}`, path: k.bin }));
}

const KUBECTLS = findKubectls();
if (KUBECTLS.length === 0) console.log('kubectl discovery tests skipped: no kubectl found on PATH');
else console.log(`kubectl discovery tests run with: ${KUBECTLS.map((k) => k.version).join(', ')}`);

interface Seen {
  path: string;
  accept: string;
  contentType: string;
}

/** A pass-through proxy recording each request's path, Accept and response Content-Type. */
async function countingProxy(target: string, opts: { plainOnly?: boolean } = {}): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers };
    // Without the aggregated ranges, the server can only answer plain discovery.
    if (opts.plainOnly && headers.accept) headers.accept = headers.accept.split(',').filter((r) => !r.includes('as=APIGroupDiscoveryList')).join(',') || 'application/json';
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers }, (up) => {
      seen.push({ path: new URL(req.url ?? '/', 'http://x').pathname, accept: req.headers.accept ?? '', contentType: up.headers['content-type'] ?? '' });
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const run = (kubectl: string, args: string[]) => runKubectl(kubectl, args);

/** Requests for one group-version's resource list: /api/v1 or /apis/{group}/{version}. */
const isPerVersion = (p: string): boolean => /^\/api\/[^/]+\/?$/.test(p) || /^\/apis\/[^/]+\/[^/]+\/?$/.test(p);

describe.skipIf(KUBECTLS.length === 0)('kubectl discovery', () => {
  let dir: string;
  const servers: TestServer[] = [];
  const proxies: { close(): Promise<void> }[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubectl-discovery-'));
  });
  afterAll(async () => {
    for (const p of proxies) await p.close();
    for (const s of servers) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let runs = 0;
  /** Starts a server (and a proxy in front of it) and runs kubectl with a fresh cache through the proxy. */
  async function setup(apiDomain: string, proxyOpts: { plainOnly?: boolean } = {}) {
    const s = await startTestServer({ apiDomain });
    servers.push(s);
    const proxy = await countingProxy(s.url, proxyOpts);
    proxies.push(proxy);
    const kubeconfig = join(dir, `kubeconfig-${++runs}`);
    writeFileSync(kubeconfig, s.server.kubeconfig().split(s.url).join(proxy.url));
    const kubectl = (bin: string, ...args: string[]) => run(bin, ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, `cache-${++runs}`), ...args]);
    return { s, proxy, kubectl };
  }

  for (const k of KUBECTLS) {
    describe(`kubectl ${k.version}`, () => {
      it('discovers a k8s.io server through aggregated discovery alone: /api and /apis, no per-version lists', async () => {
        const { proxy, kubectl } = await setup('k8s.io');
        const r = await kubectl(k.path, 'api-resources');
        expect(r.code, r.stderr).toBe(0);
        const lines = r.stdout.split('\n');
        expect(lines.find((l) => /^deployments\s/.test(l))).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment\s*$/);
        expect(lines.find((l) => /^namespaces\s/.test(l))).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace\s*$/);
        expect(lines.find((l) => /^flowschemas\s/.test(l))).toMatch(/flowcontrol\.apiserver\.k8s\.io\/v1beta2\s+false\s+FlowSchema/);

        const paths = proxy.seen.map((x) => x.path);
        expect(paths).toContain('/api');
        expect(paths).toContain('/apis');
        expect(paths.filter(isPerVersion)).toEqual([]);
        const apis = proxy.seen.find((x) => x.path === '/apis')!;
        expect(apis.accept).toContain('g=apidiscovery.k8s.io');
        expect(apis.contentType).toMatch(/^application\/json;g=apidiscovery\.k8s\.io;v=(v2|v2beta1);as=APIGroupDiscoveryList$/);
        if (k.version !== '1.27') expect(apis.contentType).toContain('v=v2;');
        else expect(apis.contentType).toContain('v=v2beta1;');
      });

      it('uses what it discovered: api-versions lists the deprecated version, get resolves short names', async () => {
        const { proxy, kubectl } = await setup('k8s.io');
        const versions = await kubectl(k.path, 'api-versions');
        expect(versions.code, versions.stderr).toBe(0);
        expect(versions.stdout.split('\n')).toEqual(expect.arrayContaining(['v1', 'apps/v1', 'flowcontrol.apiserver.k8s.io/v1beta1', 'flowcontrol.apiserver.k8s.io/v1beta2']));
        const ns = await kubectl(k.path, 'get', 'ns', 'default', '-o', 'name');
        expect(ns.code, ns.stderr).toBe(0);
        expect(ns.stdout.trim()).toBe('namespace/default');
        const deploy = await kubectl(k.path, 'get', 'deploy', '-A', '-o', 'name');
        expect(deploy.code, deploy.stderr).toBe(0);
        expect(proxy.seen.map((x) => x.path).filter(isPerVersion)).toEqual([]);
      });

      it('falls back to plain discovery when the server does not answer the aggregated form', async () => {
        const { proxy, kubectl } = await setup('k8s.io', { plainOnly: true });
        const r = await kubectl(k.path, 'api-resources');
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment\s*$/m);
        expect(proxy.seen.find((x) => x.path === '/apis')?.contentType).toBe('application/json');
        const perVersion = proxy.seen.map((x) => x.path).filter(isPerVersion);
        expect(perVersion).toEqual(expect.arrayContaining(['/api/v1', '/apis/apps/v1']));
      });

      it('discovers an orch.io server through plain discovery (it asks for apidiscovery.k8s.io, which is not ours)', async () => {
        const { proxy, kubectl } = await setup('orch.io');
        const r = await kubectl(k.path, 'api-resources');
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment\s*$/m);
        expect(r.stdout).toMatch(/flowcontrol\.apiserver\.orch\.io\/v1beta2/);
        expect(proxy.seen.find((x) => x.path === '/apis')?.contentType).toBe('application/json');
        expect(proxy.seen.map((x) => x.path).filter(isPerVersion)).toContain('/apis/apps/v1');
      });
    });
  }
});
