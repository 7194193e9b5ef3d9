/**
 * The orch-apiserver command as a user runs it: `node dist/main.js` in a child process (built by
 * ensureBuilt), its flags, its startup output and the server each flag gives.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall } from '../helpers/server.js';
import { ensureBuilt, ROOT, runCli, startCli, tempDir, type CliServer } from './helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const cleanup: string[] = [];
const running: CliServer[] = [];

async function serve(args: string[]): Promise<CliServer> {
  const s = await startCli(args);
  running.push(s);
  cleanup.push(s.dataDir);
  return s;
}

beforeAll(() => {
  console.log(`cli e2e: ${ensureBuilt()}`);
});

afterAll(async () => {
  await Promise.all(running.map((s) => s.kill()));
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

describe.concurrent('flags that end at once', () => {
  it('--help prints the flags and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: orch-apiserver \[flags\]$/m);
    for (const flag of ['--secure-port', '--bind-address', '--advertise-address', '--tls-cert-file', '--tls-private-key-file', '--tls-min-version', '--client-ca-file', '--insecure-plain-http', '--data-dir', '--storage-backend', '--etcd-servers', '--etcd-prefix', '--api-domain', '--runtime-config', '--watch-history', '--max-request-body-bytes', '--version', '--help']) {
      expect(r.stdout).toContain(flag);
    }
  });

  it('--version prints the package version and exits 0', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(`orch-apiserver ${pkg.version}`);
  });

  it.each([
    [['--no-such-flag'], /no-such-flag/],
    [['positional'], /positional/],
    [['--secure-port', 'eighty'], /--secure-port must be a non-negative integer/],
    [['--secure-port', '70000'], /--secure-port must be at most 65535/],
    [['--port', '8080'], /--port \(plain HTTP\) is gone: the server serves HTTPS on --secure-port/],
    [['--bind-address=somewhere'], /invalid argument "somewhere" for "--bind-address" flag/],
    [['--advertise-address=10.0.0.300'], /invalid argument "10.0.0.300" for "--advertise-address" flag/],
    [['--tls-min-version=VersionTLS11'], /--tls-min-version: unknown TLS version "VersionTLS11"; use one of VersionTLS12, VersionTLS13/],
    [['--tls-cert-file=/nonexistent.crt'], /--tls-cert-file and --tls-private-key-file must be given together/],
    [['--insecure-plain-http', '--bind-address=0.0.0.0'], /--insecure-plain-http serves only on a loopback address \(127.0.0.1 or ::1\), not on 0.0.0.0/],
    [['--insecure-plain-http', '--client-ca-file=/ca.crt'], /--insecure-plain-http cannot be combined with --client-ca-file/],
    [['--api-domain=Orch_IO'], /--api-domain must be a lowercase DNS name/],
    [['--storage-backend=postgres'], /--storage-backend must be sqlite, memory or etcd/],
    [['--storage-backend=etcd'], /--storage-backend=etcd needs --etcd-servers/],
    [['--etcd-servers=http://127.0.0.1:2379'], /--etcd-servers and --etcd-prefix need --storage-backend=etcd/],
    [['--storage-backend=etcd', '--etcd-servers=https://127.0.0.1:2379'], /TLS is not supported/],
    [['--storage-backend=etcd', '--etcd-servers=127.0.0.1:2379'], /is not a client URL/],
    [['--storage-backend=etcd', '--etcd-servers=http://127.0.0.1:2379', '--etcd-prefix=orch'], /--etcd-prefix must start with \//],
    [['--log-level=loud'], /--log-level/],
    [['--watch-history=soon'], /--watch-history/],
    [['--max-request-body-bytes=-1'], /--max-request-body-bytes/],
    [['--runtime-config=v1/secrets=maybe'], /runtime-config/],
    [['--runtime-config=a/b/c/d'], /runtime-config/],
    [['--anonymous-auth=maybe'], /invalid argument "maybe" for "--anonymous-auth" flag/],
    [['--insecure-plain-http', '--token-auth-file=tokens.csv'], /--insecure-plain-http cannot be combined with --token-auth-file/],
    [['--requestheader-username-headers=X-Remote-User'], /the --requestheader-\* flags need --requestheader-client-ca-file/],
    [['--requestheader-client-ca-file=ca.crt'], /--requestheader-client-ca-file needs --requestheader-username-headers/],
    [['--requestheader-client-ca-file=ca.crt', '--requestheader-username-headers=X-Remote-User,'], /empty value in "--requestheader-username-headers"/],
  ])('%j exits 2 with a message on stderr', async (args, message) => {
    const dir = tempDir();
    cleanup.push(dir);
    const r = await runCli(['--secure-port', '0', '--bind-address', '127.0.0.1', '--data-dir', dir, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('--help');
    expect(r.stdout).not.toContain('serving');
  });
});

describe.concurrent('startup', () => {
  it('with --secure-port 0 prints the real address and a kubeconfig, and writes the kubeconfig to the data dir', async () => {
    const s = await serve([]);
    expect(s.port).toBeGreaterThan(0);
    expect(s.url).toBe(`http://127.0.0.1:${s.port}`);
    const out = s.stdout();
    expect(out).toContain(`serving http://127.0.0.1:${s.port}`);
    expect(out).toContain('storage: sqlite');
    expect(out).toContain('API domain orch.io');
    // Which clients fit this domain, before anyone meets a failing kubectl.
    expect(out).toContain("API domain orch.io: groups, media types and annotations are named *.orch.io, for clients written for orch.io");
    expect(out).toContain("kubectl and other Kubernetes clients need Kubernetes' names: start with --api-domain=k8s.io for them");
    const path = join(s.dataDir, 'kubeconfig');
    expect(out).toContain(`kubeconfig written to ${path}`);
    expect(out).toContain(`server: http://127.0.0.1:${s.port}`);
    const kubeconfig = readFileSync(path, 'utf8');
    expect(kubeconfig).toContain('kind: Config');
    expect(kubeconfig).toContain(`server: http://127.0.0.1:${s.port}`);
    // Only the owner may read a file that will one day hold credentials.
    expect(statSync(path).mode & 0o077).toBe(0);
    expect(existsSync(join(s.dataDir, 'state.db'))).toBe(true);
    const r = await httpCall(s.url, 'GET', '/api/v1/namespaces');
    expect(r.status).toBe(200);
    expect(r.body.items.map((n: any) => n.metadata.name)).toContain('orch-system');
    // Nothing alarming on a clean start (the garbage collector once tripped Node's listener-leak warning).
    expect(s.stderr()).not.toContain('MaxListenersExceededWarning');
  });

  it('a port in use is no usage error: exit 1 with the cause', async () => {
    const s = await serve([]);
    const dir = tempDir();
    cleanup.push(dir);
    const r = await runCli(['--secure-port', String(s.port), '--bind-address', '127.0.0.1', '--data-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot start: .*EADDRINUSE/);
  });

  it('a malformed --token-auth-file stops the start (exit 1), naming the file and the line', async () => {
    const dir = tempDir();
    cleanup.push(dir);
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, 'secret-token-1,jane,1\njust-one-column\n');
    const r = await runCli(['--secure-port', '0', '--bind-address', '127.0.0.1', '--data-dir', dir, `--token-auth-file=${tokens}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot start: --token-auth-file: token file '${tokens}' must have at least 3 columns (token, user name, user uid), found 1 on line 2`);
    expect(r.stderr).not.toContain('secret-token-1');
    expect(existsSync(join(dir, 'state.db'))).toBe(false);
  });

  it('stops cleanly on SIGTERM', async () => {
    const s = await serve([]);
    const exit = await s.stop();
    expect(exit, s.stderr()).toEqual({ code: 0, signal: null });
    expect(s.stderr()).toContain('SIGTERM received');
  });

  it('--storage-backend=memory keeps nothing on disk and nothing across a restart', async () => {
    const s = await serve(['--storage-backend=memory']);
    expect(s.stdout()).toContain('storage: memory');
    const c = await httpCall(s.url, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'volatile' } } });
    expect(c.status).toBe(201);
    expect(existsSync(join(s.dataDir, 'state.db'))).toBe(false);
    await s.stop();
    const again = await startCli(['--storage-backend=memory'], { dataDir: s.dataDir });
    running.push(again);
    expect((await httpCall(again.url, 'GET', '/api/v1/namespaces/default/configmaps/volatile')).status).toBe(404);
  });

  it('the sqlite backend keeps objects across a restart', async () => {
    const s = await serve([]);
    const c = await httpCall(s.url, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'durable' }, data: { k: 'v' } } });
    expect(c.status).toBe(201);
    await s.stop();
    const again = await startCli([], { dataDir: s.dataDir });
    running.push(again);
    const r = await httpCall(again.url, 'GET', '/api/v1/namespaces/default/configmaps/durable');
    expect(r.status).toBe(200);
    expect(r.body.metadata.uid).toBe(c.body.metadata.uid);
  });

  it('--api-domain=k8s.io serves Kubernetes names: kube-system and friends', async () => {
    const s = await serve(['--api-domain=k8s.io']);
    expect(s.stdout()).toContain('API domain k8s.io');
    expect(s.stdout()).toContain("API domain k8s.io: Kubernetes' own names, for kubectl, client-go, @kubernetes/client-node, Helm and other Kubernetes clients");
    const r = await httpCall(s.url, 'GET', '/api/v1/namespaces');
    expect(r.body.items.map((n: any) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  });

  it('--watch-history=1s is accepted', async () => {
    const s = await serve(['--watch-history=1s']);
    expect((await httpCall(s.url, 'GET', '/readyz')).status).toBe(200);
  });
});

describe.concurrent('--runtime-config', () => {
  it('v1/secrets=false removes secrets from discovery and 404s them, leaving the rest of v1', async () => {
    const s = await serve(['--runtime-config=v1/secrets=false']);
    const doc = await httpCall(s.url, 'GET', '/api/v1');
    expect(doc.status).toBe(200);
    const names = doc.body.resources.map((r: any) => r.name);
    expect(names).not.toContain('secrets');
    expect(names).toContain('configmaps');
    expect((await httpCall(s.url, 'GET', '/api/v1/namespaces/default/secrets')).status).toBe(404);
    const created = await httpCall(s.url, 'POST', '/api/v1/namespaces/default/secrets', { body: { metadata: { name: 's' } } });
    expect(created.status).toBe(404);
    expect(created.body.kind).toBe('Status');
    expect((await httpCall(s.url, 'GET', '/api/v1/namespaces/default/configmaps')).status).toBe(200);
  });

  it('v1=false removes the whole core group version', async () => {
    const s = await serve(['--runtime-config=v1=false']);
    expect((await httpCall(s.url, 'GET', '/api/v1')).status).toBe(404);
    expect((await httpCall(s.url, 'GET', '/api/v1/namespaces')).status).toBe(404);
    expect((await httpCall(s.url, 'GET', '/api/v1/namespaces/default/configmaps')).status).toBe(404);
    const api = await httpCall(s.url, 'GET', '/api');
    expect(api.body.versions).toEqual([]);
  });

  it('re-enabling wins: v1=false,v1/configmaps=true serves configmaps only', async () => {
    const s = await serve(['--runtime-config=v1=false,v1/configmaps=true']);
    const doc = await httpCall(s.url, 'GET', '/api/v1');
    expect(doc.body.resources.map((r: any) => r.name)).toEqual(['configmaps']);
  });
});

describe('--max-request-body-bytes', () => {
  it('refuses a larger body with 413 and accepts a smaller one', async () => {
    const s = await serve(['--max-request-body-bytes=2000']);
    const big = await httpCall(s.url, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'big' }, data: { x: 'y'.repeat(3000) } } });
    expect(big.status).toBe(413);
    expect(big.body.reason).toBe('RequestEntityTooLarge');
    expect((await httpCall(s.url, 'GET', '/api/v1/namespaces/default/configmaps/big')).status).toBe(404);
    const small = await httpCall(s.url, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'small' }, data: { x: 'y'.repeat(1000) } } });
    expect(small.status).toBe(201);
  });
});
