/**
 * kubectl prints the server's Table (`kubectl get`, `-o wide`) under `--api-domain=k8s.io`, with the
 * oldest (1.27) and newest kubectl installed: 1.32+ asks for a protobuf Table first and must get
 * the JSON one. Skips, saying why, when kubectl is not installed.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

function run(bin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(bin, args, { timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The oldest (1.27) and the newest versioned kubectl beside the one on PATH, or that one alone. */
async function kubectls(): Promise<string[]> {
  const onPath = process.env.KUBECTL ?? 'kubectl';
  if ((await run(onPath, ['version', '--client'])).code !== 0) return [];
  let dir: string;
  try {
    const which = await run('sh', ['-c', `command -v ${onPath}`]);
    dir = dirname(realpathSync(which.stdout.trim()));
  } catch {
    return [onPath];
  }
  const versioned = readdirSync(dir)
    .filter((f) => /^kubectl\.1\.\d+$/.test(f))
    .sort((a, b) => Number(a.split('.')[2]) - Number(b.split('.')[2]));
  const picked = new Set<string>();
  if (existsSync(join(dir, 'kubectl.1.27'))) picked.add(join(dir, 'kubectl.1.27'));
  const newest = versioned[versioned.length - 1];
  picked.add(newest ? join(dir, newest) : onPath);
  return [...picked];
}

const binaries = await kubectls();
if (binaries.length === 0) console.log('kubectl table tests skipped: kubectl could not be run');
else console.log(`kubectl table tests run with: ${binaries.join(', ')}`);

function headerOf(stdout: string): string[] {
  return (stdout.split('\n')[0] ?? '').trim().split(/\s{2,}/);
}

describe.skipIf(binaries.length === 0)('kubectl prints server-side tables (k8s.io)', () => {
  let s: TestServer;
  let dir: string;
  let kubeconfig: string;

  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
    dir = mkdtempSync(join(tmpdir(), 'kubectl-table-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, s.server.kubeconfig());
    const deploy = {
      metadata: { name: 'web' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } },
    };
    expect((await s.post('/apis/apps/v1/namespaces/default/deployments', deploy)).status).toBe(201);
    const svc = { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] } };
    expect((await s.post('/api/v1/namespaces/default/services', svc)).status).toBe(201);
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe.each(binaries.map((b) => [b.split('/').pop() as string, b] as const))('%s', (_name, bin) => {
    const kubectl = (...args: string[]) => run(bin, ['--kubeconfig', kubeconfig, ...args]);

    it('get deploy', async () => {
      const r = await kubectl('get', 'deploy');
      expect(r.code, r.stderr).toBe(0);
      expect(headerOf(r.stdout)).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
      expect(r.stdout.split('\n')[1]).toMatch(/^web\s+0\/2\s+0\s+0\s+\d+s$/);
    });

    it('get svc -o wide', async () => {
      const r = await kubectl('get', 'svc', 'web', '-o', 'wide');
      expect(r.code, r.stderr).toBe(0);
      expect(headerOf(r.stdout)).toEqual(['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', 'SELECTOR']);
      expect(r.stdout.split('\n')[1]).toMatch(/^web\s+ClusterIP\s+\d+\.\d+\.\d+\.\d+\s+<none>\s+80\/TCP\s+\d+s\s+app=web$/);
    });

    it('get ns', async () => {
      const r = await kubectl('get', 'ns');
      expect(r.code, r.stderr).toBe(0);
      expect(headerOf(r.stdout)).toEqual(['NAME', 'STATUS', 'AGE']);
      expect(r.stdout).toMatch(/\ndefault\s+Active\s+\S+\n/);
    });
  });
});
