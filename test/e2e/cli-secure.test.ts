/**
 * The command as `npm start` runs it, secure by default: it serves HTTPS, prints a kubeconfig that
 * carries its CA and the administrator's certificate, and kubectl (1.27 and the newest installed)
 * works with exactly that text. Certificates are made once in DATA/pki and reused at the next start.
 * Only the port (0) and the bind address (loopback, for tests) differ from the defaults.
 */
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlPicks, runKubectl } from '../helpers/kubectl.js';
import { httpCall } from '../helpers/server.js';
import { ensureBuilt, startCli, tempDir, type CliServer } from './helpers/cli.js';

const kubectls = kubectlPicks();
const cleanup: string[] = [];
const running: CliServer[] = [];

beforeAll(() => {
  console.log(`cli secure e2e: ${ensureBuilt()}`);
  if (kubectls.length === 0) console.log('cli secure e2e: kubectl not installed; the kubectl checks are skipped');
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.kill()));
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

async function serve(dataDir?: string): Promise<CliServer> {
  const s = await startCli([], { tls: true, ...(dataDir ? { dataDir } : {}) });
  running.push(s);
  if (!dataDir) cleanup.push(s.dataDir);
  return s;
}

/** The kubeconfig printed after the banner (everything after the first blank line). */
function printedKubeconfig(stdout: string): string {
  const at = stdout.indexOf('\n\n');
  return at < 0 ? '' : stdout.slice(at + 2);
}

function kubectlWith(kubeconfigText: string, bin: string, args: string[]) {
  const dir = tempDir('orch-kubectl-');
  cleanup.push(dir);
  mkdirSync(join(dir, 'home'));
  writeFileSync(join(dir, 'kubeconfig'), kubeconfigText);
  return runKubectl(bin, args, { env: { HOME: join(dir, 'home'), KUBECONFIG: join(dir, 'kubeconfig') }, timeoutMs: 30_000 });
}

describe('the command, secure by default', () => {
  let s: CliServer;
  beforeAll(async () => {
    s = await serve();
  });

  it('serves HTTPS and prints the kubeconfig it writes, with the CA and the admin certificate', async () => {
    expect(s.url).toBe(`https://127.0.0.1:${s.port}`);
    const printed = printedKubeconfig(s.stdout());
    expect(printed).toBe(s.kubeconfig());
    expect(printed).toContain(`server: https://127.0.0.1:${s.port}`);
    const field = (name: string): string => Buffer.from(new RegExp(`${name}: (\\S+)`).exec(printed)?.[1] ?? '', 'base64').toString('utf8');
    expect(field('certificate-authority-data')).toBe(readFileSync(join(s.dataDir, 'pki', 'ca.crt'), 'utf8'));
    expect(new X509Certificate(field('client-certificate-data')).subject).toBe('O=system:masters\nCN=orch-admin');
    expect(field('client-key-data')).toBe(readFileSync(join(s.dataDir, 'pki', 'admin.key'), 'utf8'));
    for (const key of ['ca.key', 'apiserver.key', 'admin.key']) expect(statSync(join(s.dataDir, 'pki', key)).mode & 0o777).toBe(0o600);
    expect(statSync(join(s.dataDir, 'kubeconfig')).mode & 0o077).toBe(0);
    expect((await httpCall({ url: s.url, tls: s.tls! }, 'GET', '/api/v1/namespaces/default')).status).toBe(200);
  });

  it.skipIf(kubectls.length === 0).each(kubectls)('$label works with the printed kubeconfig, over TLS', async (k) => {
    const r = await kubectlWith(printedKubeconfig(s.stdout()), k.bin, ['get', 'namespaces', '-o', 'name', '-v=6']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toEqual(expect.arrayContaining(['namespace/default', 'namespace/orch-system']));
    expect(r.stderr).toContain(`https://127.0.0.1:${s.port}/api`);
  });
});

describe('certificates across restarts', () => {
  it('are made once in DATA/pki and reused: the first kubeconfig still works after a restart', async () => {
    const first = await serve();
    const kubeconfig = first.kubeconfig();
    const pki = (f: string): string => readFileSync(join(first.dataDir, 'pki', f), 'utf8');
    const before = ['ca.crt', 'ca.key', 'apiserver.crt', 'apiserver.key', 'admin.crt', 'admin.key'].map(pki);
    await first.stop();
    const second = await serve(first.dataDir);
    expect(['ca.crt', 'ca.key', 'apiserver.crt', 'apiserver.key', 'admin.crt', 'admin.key'].map(pki)).toEqual(before);
    expect(second.kubeconfig().replace(/server: .*/, '')).toBe(kubeconfig.replace(/server: .*/, ''));
    expect((await httpCall({ url: second.url, tls: second.tls! }, 'GET', '/version')).status).toBe(200);
    for (const k of kubectls.slice(-1)) {
      const r = await kubectlWith(kubeconfig.replace(/server: .*/, `server: ${second.url}`), k.bin, ['get', 'ns', 'default', '-o', 'name']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('namespace/default');
    }
  });
});
