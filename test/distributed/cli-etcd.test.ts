/**
 * The command on etcd, as an operator runs it: two processes with --storage-backend=etcd on one etcd
 * serve the same objects; an unreachable etcd stops the start with exit code 1.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, startCli, tempDir, type CliServer } from '../e2e/helpers/cli.js';
import { etcdSkipReason, startEtcd, uniquePrefix, type TestEtcd } from '../helpers/etcd.js';
import { httpCall } from '../helpers/server.js';

const skip = etcdSkipReason();
if (skip) console.warn(skip);

describe.skipIf(skip)('orch-apiserver --storage-backend=etcd', () => {
  let etcd: TestEtcd;
  const running: CliServer[] = [];

  beforeAll(async () => {
    console.log(`cli on etcd: ${ensureBuilt()}`);
    etcd = await startEtcd();
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => s.kill()));
    for (const s of running) rmSync(s.dataDir, { recursive: true, force: true });
    await etcd?.close();
  });

  it('runs two processes on one etcd prefix that serve the same objects', async () => {
    const prefix = uniquePrefix('cli');
    const args = ['--storage-backend=etcd', `--etcd-servers=${etcd.endpoint}`, `--etcd-prefix=${prefix}`];
    const [one, two] = await Promise.all([startCli(args), startCli(args)]);
    running.push(one, two);
    expect(one.stdout()).toContain(`storage: etcd at ${etcd.endpoint} under ${prefix}`);
    const created = await httpCall(one.url, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'shared' }, data: { a: 'b' } } });
    expect(created.status).toBe(201);
    const read = await httpCall(two.url, 'GET', '/api/v1/namespaces/default/configmaps/shared');
    expect(read.status).toBe(200);
    expect(read.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    expect((await two.stop()).code).toBe(0);
  });

  it('exits 1 when etcd cannot be reached', async () => {
    const dir = tempDir();
    const r = await runCli(['--secure-port', '0', '--bind-address', '127.0.0.1', '--data-dir', dir, '--storage-backend=etcd', '--etcd-servers=http://127.0.0.1:1']);
    rmSync(dir, { recursive: true, force: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot reach etcd at http:\/\/127\.0\.0\.1:1/);
  });
});
