/**
 * The official Python client (Debian's python3-kubernetes, run by /usr/bin/python3) against the real
 * CLI server in both API domains. python_client.py performs the steps and prints what the client
 * returned as JSON; the assertions live here. Under orch.io the core and apps groups are reached
 * through the typed APIs (their paths are the same in both domains), the networking group by name
 * through CustomObjectsApi and by kind through the DynamicClient, which reads discovery.
 *
 * Skips with a printed reason when /usr/bin/python3 is missing or cannot import kubernetes
 * (CI installs it with `apt-get install python3-kubernetes`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { ensureBuilt, startCli, type CliServer } from '../helpers/cli.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'python_client.py');

function pythonClientVersion(): { version?: string; reason?: string } {
  const r = spawnSync(PYTHON, ['-c', 'import kubernetes; print(kubernetes.__version__)'], { encoding: 'utf8' });
  if (r.error) return { reason: `${PYTHON} cannot run (${r.error.message})` };
  if (r.status !== 0) return { reason: `${PYTHON} cannot import kubernetes (install python3-kubernetes): ${r.stderr.trim().split('\n').at(-1)}` };
  return { version: r.stdout.trim() };
}

const probe = pythonClientVersion();
if (probe.reason) console.log(`Python client e2e skipped: ${probe.reason}`);
else console.log(`Python client e2e: kubernetes ${probe.version} under ${PYTHON}`);

/** Runs python_client.py and returns the JSON it printed. */
function runClient(args: string[], timeoutMs = 60_000): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`python_client.py did not finish; stdout: ${stdout}; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`python_client.py exited with ${code}; stderr: ${stderr}`));
      try {
        resolve(JSON.parse(stdout) as Record<string, any>);
      } catch {
        reject(new Error(`python_client.py printed no JSON: ${stdout}; stderr: ${stderr}`));
      }
    });
  });
}

describe.skipIf(!!probe.reason).each(['orch.io', 'k8s.io'])('the Python client against the CLI server (--api-domain=%s)', (domain) => {
  const networking = `networking.${domain}`;
  let server: CliServer;
  let out: Record<string, any>;

  beforeAll(async () => {
    console.log(`Python client e2e (${domain}): ${ensureBuilt()}`);
    server = await startCli([`--api-domain=${domain}`]);
    out = await runClient([server.url, domain, 'py-e2e']);
    // Every step's outcome at once, so that one failing step does not hide the others.
    const failed = Object.entries(out).filter(([, v]) => v && typeof v === 'object' && !Array.isArray(v) && 'error' in v);
    if (failed.length) console.log(`Python client steps that raised (${domain}):`, JSON.stringify(Object.fromEntries(failed), null, 1));
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('lists and creates namespaces with CoreV1Api', () => {
    const nameLabel = domain === 'k8s.io' ? 'kubernetes.io/metadata.name' : 'orch.io/metadata.name';
    expect(out.createNamespace).toEqual({ name: 'py-e2e', phase: 'Active', labels: { [nameLabel]: 'py-e2e' } });
    const system = domain === 'k8s.io' ? 'kube-system' : 'orch-system';
    expect(out.listNamespaces).toEqual(expect.arrayContaining(['default', system, 'py-e2e']));
  });

  it('creates, lists and patches configmaps; the models deserialize timestamps', () => {
    expect(out.createConfigMapA).toMatchObject({ name: 'py-a', data: { k: 'a' } });
    expect(out.createConfigMapA.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(out.createConfigMapB).toMatchObject({ name: 'py-b', data: { k: 'b' } });
    expect(out.listConfigMaps).toEqual({ names: ['py-a', 'py-b'], resourceVersion: out.createConfigMapB.resourceVersion });
    expect(out.listInPages).toEqual({ names: ['py-a', 'py-b'], pages: 2, remaining: null });
    expect(out.deleteCollection).toEqual({ kind: 'ConfigMapList', left: 0 });
    // The Python client sends a dict body as a strategic merge patch.
    expect(out.patchConfigMap).toEqual({ k: 'a', patched: 'yes' });
  });

  it('creates secrets, services and a deployment, and scales it through the scale subresource', () => {
    expect(out.createSecret).toEqual({ data: { password: Buffer.from('hunter2').toString('base64') }, type: 'Opaque' });
    expect(out.createService).toMatchObject({ type: 'ClusterIP', targetPort: 80 });
    expect(out.createService.clusterIP).toMatch(/^10\.0\.0\.\d+$/);
    expect(out.createDeployment).toEqual({ replicas: 2, strategy: 'RollingUpdate', scale: 2, patchedScale: 4, after: 4 });
  });

  it('watches from a list`s resourceVersion: the later patch, then ADDED, MODIFIED, DELETED', () => {
    const events = out.watchFromList as { type: string; name: string; data: Record<string, string>; kind: string; resourceVersion: string }[];
    expect(events.map((e) => [e.type, e.name, e.data, e.kind])).toEqual([
      ['MODIFIED', 'py-a', { k: 'a', patched: 'yes' }, 'V1ConfigMap'],
      ['ADDED', 'py-w', { v: '1' }, 'V1ConfigMap'],
      ['MODIFIED', 'py-w', { v: '2' }, 'V1ConfigMap'],
      ['DELETED', 'py-w', { v: '2' }, 'V1ConfigMap'],
    ]);
    const rvs = events.map((e) => Number(e.resourceVersion));
    expect(rvs[0]).toBeGreaterThan(Number(out.listConfigMaps.resourceVersion));
    expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
  });

  it(`drives ${networking} through CustomObjectsApi`, () => {
    expect(out.customObjects).toEqual({
      created: `${networking}/v1`,
      listed: ['py-e2e-class'],
      got: 'example.com/py',
      patchedLabels: { patched: 'yes' },
      ingress: ['Ingress', `${networking}/v1`],
      deleted: 'Success',
    });
  });

  it(`finds ${networking} and core kinds through discovery with the DynamicClient, and watches them`, () => {
    expect(out.dynamicClient).toEqual({
      ingressPath: `/apis/${networking}/v1/namespaces/py-e2e/ingresses`,
      ingresses: ['py-ing'],
      watched: [['ADDED', 'py-ing', `${networking}/v1`]],
      deployments: ['py-deploy'],
      configmap: '1',
      namespaced: true,
    });
  });

  it('deletes the namespace', () => {
    expect(out.deleteNamespace).toBe('Namespace');
  });
});

describe.skipIf(!!probe.reason)('the Python client watching from a compacted version', () => {
  let s: TestServer;
  afterAll(() => s?.close());

  it('raises ApiException 410 from the ERROR event the server streams', async () => {
    s = await startTestServer({ watchHistoryMs: 100 });
    await s.post('/api/v1/namespaces', { metadata: { name: 'old' } });
    const rv = (await s.get('/api/v1/namespaces/old/configmaps')).body.metadata.resourceVersion as string;
    await s.post('/api/v1/namespaces/old/configmaps', { metadata: { name: 'newer' } });
    // Wait until the server itself answers a watch from rv with 410, then let the client try.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const w = await s.watch(`/api/v1/namespaces/old/configmaps?watch=true&resourceVersion=${rv}`);
      const [first] = await w.next(1);
      w.close();
      if (first?.type === 'ERROR') break;
      if (Date.now() > deadline) throw new Error('the history was never compacted');
      await new Promise((r) => setTimeout(r, 50));
    }
    const out = await runClient([s.url, 'orch.io', 'old', 'expired', rv]);
    expect(out.watchExpired).toMatchObject({ error: 'ApiException', status: 410 });
  });
});
