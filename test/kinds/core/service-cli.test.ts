/** The CLI flags of the Service allocators: documented in --help, checked before starting, and applied. */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall } from '../../helpers/server.js';
import { ensureBuilt, runCli, startCli, tempDir, type CliServer } from '../../e2e/helpers/cli.js';

const cleanup: string[] = [];
let server: CliServer | undefined;

beforeAll(() => {
  console.log(`service cli: ${ensureBuilt()}`);
});

afterAll(async () => {
  await server?.kill();
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

describe('service range flags', () => {
  it('--help documents them with their defaults', async () => {
    const r = await runCli(['--help']);
    expect(r.stdout).toContain('--service-cluster-ip-range=CIDR[,CIDR]');
    expect(r.stdout).toContain('(default 10.0.0.0/24)');
    expect(r.stdout).toContain('--service-node-port-range=FIRST-LAST');
    expect(r.stdout).toContain('(default 30000-32767)');
  });

  it.each([
    [['--service-cluster-ip-range=10.0.0.0'], /--service-cluster-ip-range\[0\]: "10.0.0.0" is not a valid CIDR/],
    [['--service-cluster-ip-range=10.0.0.0/8'], /too large/],
    [['--service-cluster-ip-range=10.0.0.0/24,10.1.0.0/24'], /must be of different IP families/],
    [['--service-node-port-range=32767-30000'], /--service-node-port-range: "32767-30000" is not a port range/],
  ])('%j', async (args, message) => {
    const dir = tempDir();
    cleanup.push(dir);
    const r = await runCli(['--secure-port', '0', '--bind-address', '127.0.0.1', '--data-dir', dir, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('are applied to the server', async () => {
    server = await startCli(['--storage-backend=memory', '--service-cluster-ip-range=10.77.0.0/24', '--service-node-port-range=31000-31010']);
    cleanup.push(server.dataDir);
    const r = await httpCall(server.url, 'POST', '/api/v1/namespaces/default/services', {
      body: { metadata: { name: 'web' }, spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80 }] } },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.clusterIP).toMatch(/^10\.77\.0\./);
    expect(r.body.spec.ports[0].nodePort).toBeGreaterThanOrEqual(31000);
    expect(r.body.spec.ports[0].nodePort).toBeLessThanOrEqual(31010);
  });
});
