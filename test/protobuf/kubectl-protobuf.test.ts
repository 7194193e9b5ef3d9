/**
 * Real kubectl against a k8s.io server: kubectl 1.32+ sends the bodies of `create namespace`,
 * `create configmap` and `create secret` in protobuf (application/vnd.kubernetes.protobuf) and
 * reads protobuf answers; older kubectl sends JSON. Runs the kubectl on PATH and, beside its real
 * path, kubectl.1.27 and the newest kubectl.1.NN; skips with the reason when kubectl is absent.
 * A recording proxy in front of the server shows what each request carried.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeconfigFor } from '../../src/server/kubeconfig.js';
import { clientVersion, installedKubectls, runKubectl, type Kubectl } from '../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const KPB = 'application/vnd.kubernetes.protobuf';

/** The kubectl on PATH, 1.27, 1.32 (the first to send protobuf) and the newest. */
function findKubectls(): Kubectl[] {
  const { found } = installedKubectls();
  const versioned = found.filter((k) => !k.onPath);
  const picks = [versioned.find((v) => v.minor === 27), versioned.find((v) => v.minor === 32), versioned.at(-1), found.find((k) => k.onPath)];
  return picks.filter((v, i): v is Kubectl => v !== undefined && picks.indexOf(v) === i);
}

const kubectls = findKubectls();
if (kubectls.length === 0) console.log('kubectl protobuf test skipped: no kubectl on PATH');

interface Seen {
  method: string;
  path: string;
  contentType: string;
}

/** A pass-through proxy that records each request's method, path and Content-Type. */
async function recordingProxy(target: string): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createHttpServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', contentType: String(req.headers['content-type'] ?? '') });
    const up = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe.skipIf(kubectls.length === 0)('kubectl with protobuf bodies (k8s.io)', () => {
  let s: TestServer;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let work: string;

  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
    proxy = await recordingProxy(s.url);
    work = mkdtempSync(join(tmpdir(), 'orch-kubectl-pb-'));
    mkdirSync(join(work, 'home'));
    writeFileSync(join(work, 'kubeconfig'), kubeconfigFor(proxy.url));
  });
  afterAll(async () => {
    await proxy?.close();
    await s?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const run = (k: Kubectl, args: string[]) => runKubectl(k.bin, args, { env: { HOME: join(work, 'home'), KUBECONFIG: join(work, 'kubeconfig') }, timeoutMs: 20_000 });

  describe.each(kubectls)('$label', (k) => {
    let minor = k.minor;
    const ns = `pb-${k.label.replace(/\D+/g, '') || 'path'}`;
    const posted = (path: string): Seen | undefined => proxy.seen.filter((r) => r.method === 'POST' && r.path.split('?')[0] === path).at(-1);

    beforeAll(async () => {
      const v = await clientVersion(k.bin);
      if (minor < 0) minor = v.minor;
      console.log(`kubectl protobuf test: running ${k.label} = ${k.bin}, client ${v.gitVersion}`);
    });

    it('create namespace', async () => {
      const r = await run(k, ['create', 'namespace', ns]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(`namespace/${ns} created`);
      expect(posted('/api/v1/namespaces')?.contentType).toBe(minor >= 32 ? KPB : 'application/json');
      const got = await s.get(`/api/v1/namespaces/${ns}`);
      expect(got.body).toMatchObject({ metadata: { name: ns }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    });

    it('create configmap --from-literal, then get, label and delete it', async () => {
      const r = await run(k, ['create', 'configmap', 'literal', '-n', ns, '--from-literal=a=b', '--from-literal=empty=']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('configmap/literal created');
      expect(posted(`/api/v1/namespaces/${ns}/configmaps`)?.contentType).toBe(minor >= 32 ? KPB : 'application/json');
      expect((await s.get(`/api/v1/namespaces/${ns}/configmaps/literal`)).body.data).toEqual({ a: 'b', empty: '' });

      const yaml = await run(k, ['get', 'configmap', 'literal', '-n', ns, '-o', 'jsonpath={.data.a}']);
      expect(yaml.code, yaml.stderr).toBe(0);
      expect(yaml.stdout).toBe('b');
      const label = await run(k, ['label', 'configmap', 'literal', '-n', ns, 'x=y']);
      expect(label.code, label.stderr).toBe(0);
      expect((await s.get(`/api/v1/namespaces/${ns}/configmaps/literal`)).body.metadata.labels).toEqual({ x: 'y' });
      const del = await run(k, ['delete', 'configmap', 'literal', '-n', ns]);
      expect(del.code, del.stderr).toBe(0);
      expect((await s.get(`/api/v1/namespaces/${ns}/configmaps/literal`)).status).toBe(404);
    });

    it('create secret generic --from-literal', async () => {
      const r = await run(k, ['create', 'secret', 'generic', 'pw', '-n', ns, '--from-literal=password=s3cr3t']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('secret/pw created');
      expect(posted(`/api/v1/namespaces/${ns}/secrets`)?.contentType).toBe(minor >= 32 ? KPB : 'application/json');
      const got = await s.get(`/api/v1/namespaces/${ns}/secrets/pw`);
      expect(got.body).toMatchObject({ type: 'Opaque', data: { password: Buffer.from('s3cr3t').toString('base64') } });
    });
  });
});
