/**
 * One data directory (or etcd prefix), one API domain: the store records the domain of its first
 * start, and a start with another domain is refused (exit 1 from the CLI, StoreDomainMismatchError
 * from createServer) with a message naming both and the way out, before anything is written.
 * The etcd half skips, saying why, when etcd is not installed.
 */
import { rmSync } from 'node:fs';
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, StoreDomainMismatchError } from '../../src/index.js';
import { etcdSkipReason, startEtcd, uniquePrefix, type TestEtcd } from '../helpers/etcd.js';
import { httpCall } from '../helpers/server.js';
import { ensureBuilt, runCli, startCli, tempDir, type CliServer } from './helpers/cli.js';

const cleanup: string[] = [];
const running: CliServer[] = [];

async function serve(args: string[], dataDir?: string): Promise<CliServer> {
  const s = await startCli(args, dataDir ? { dataDir } : {});
  running.push(s);
  cleanup.push(s.dataDir);
  return s;
}

const namespaces = async (url: string): Promise<string[]> =>
  ((await httpCall(url, 'GET', '/api/v1/namespaces')).body.items as { metadata: { name: string } }[]).map((n) => n.metadata.name);

beforeAll(() => {
  console.log(`store-domain e2e: ${ensureBuilt()}`);
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.kill()));
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

describe('a SQLite data directory keeps the domain it was created with', () => {
  it('refuses a start with another domain: exit 1, both domains and the way out, nothing written', async () => {
    const first = await serve([]);
    const made = await httpCall(first.url, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'kept' } } });
    expect(made.status).toBe(201);
    expect((await first.stop()).code).toBe(0);

    const refused = await runCli(['--secure-port', '0', '--data-dir', first.dataDir, '--api-domain=k8s.io']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).not.toContain('serving');
    expect(refused.stderr).toBe(
      `orch-apiserver: cannot start: the data directory ${first.dataDir} was created with --api-domain=orch.io, and this server was started with --api-domain=k8s.io; ` +
        'one store serves one API domain. Start with --api-domain=orch.io to use it, or give k8s.io a store of its own with another --data-dir\n',
    );

    // The way out works both ways: the recorded domain on this directory, the other on a new one.
    const again = await serve([], first.dataDir);
    expect(await namespaces(again.url)).toEqual(['default', 'orch-node-lease', 'orch-public', 'orch-system']);
    expect((await httpCall(again.url, 'GET', '/api/v1/namespaces/default/configmaps/kept')).status).toBe(200);
    const other = await serve(['--api-domain=k8s.io']);
    expect(await namespaces(other.url)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  });

  it('createServer rejects with StoreDomainMismatchError and leaves the store closed for the next start', async () => {
    const dataDir = tempDir();
    cleanup.push(dataDir);
    const first = await createServer({ port: 0, plainHttp: true, dataDir, apiDomain: 'k8s.io', logLevel: 'silent' });
    await first.close();
    const err = await createServer({ port: 0, plainHttp: true, dataDir, logLevel: 'silent' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreDomainMismatchError);
    expect(err).toMatchObject({ storedDomain: 'k8s.io', requestedDomain: 'orch.io' });
    const again = await createServer({ port: 0, plainHttp: true, dataDir, apiDomain: 'k8s.io', logLevel: 'silent' });
    expect(await namespaces(again.url)).toContain('kube-system');
    await again.close();
  });
});

const skip = etcdSkipReason();
if (skip) console.warn(skip);

describe.skipIf(skip)('an etcd prefix keeps the domain it was created with', () => {
  let etcd: TestEtcd;
  beforeAll(async () => {
    etcd = await startEtcd();
  });
  afterAll(async () => {
    await etcd?.close();
  });

  it('records it under the prefix, outside the objects, and refuses another domain with exit 1', async () => {
    const prefix = uniquePrefix('domain');
    const etcdArgs = ['--storage-backend=etcd', `--etcd-servers=${etcd.endpoint}`, `--etcd-prefix=${prefix}`];
    const first = await serve([...etcdArgs, '--api-domain=k8s.io']);
    expect((await first.stop()).code).toBe(0);

    const client = new Etcd3({ hosts: etcd.endpoint });
    try {
      expect(JSON.parse((await client.get(`${prefix}/registry/internal/api-domain`).string()) ?? '')).toEqual({ apiDomain: 'k8s.io' });
    } finally {
      client.close();
    }

    const dir = tempDir();
    cleanup.push(dir);
    const refused = await runCli(['--secure-port', '0', '--data-dir', dir, ...etcdArgs]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `orch-apiserver: cannot start: the etcd prefix ${prefix} at ${etcd.endpoint} was created with --api-domain=k8s.io, and this server was started with --api-domain=orch.io; ` +
        'one store serves one API domain. Start with --api-domain=k8s.io to use it, or give orch.io a store of its own with another --etcd-prefix\n',
    );

    const again = await serve([...etcdArgs, '--api-domain=k8s.io']);
    expect(await namespaces(again.url)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const beside = await serve(['--storage-backend=etcd', `--etcd-servers=${etcd.endpoint}`, `--etcd-prefix=${uniquePrefix('domain')}`]);
    expect(await namespaces(beside.url)).toEqual(['default', 'orch-node-lease', 'orch-public', 'orch-system']);
  });
});
