/**
 * `kubectl apply --server-side` against the server, with kubectl 1.27 and the newest installed:
 * create, re-apply, a conflict with another manager, then --force-conflicts. Skips, saying why,
 * when no kubectl is installed.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

function onPath(cmd: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, cmd), constants.X_OK);
      return join(dir, cmd);
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** kubectl 1.27 (or the oldest versioned one) and the newest, from beside the kubectl on PATH. */
function kubectls(): { label: string; bin: string }[] {
  const bin = onPath('kubectl');
  if (!bin) return [];
  const dir = dirname(realpathSync(bin));
  const versioned = readdirSync(dir)
    .map((f) => /^kubectl\.1\.(\d+)$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ minor: Number(m[1]), bin: join(dir, m[0]) }))
    .sort((a, b) => a.minor - b.minor);
  const picked = [versioned.find((v) => v.minor === 27) ?? versioned[0], versioned.at(-1)].filter((v) => v !== undefined);
  const out = picked.map((v) => ({ label: `kubectl 1.${v.minor}`, bin: v.bin }));
  return out.length ? out.filter((v, i) => out.findIndex((w) => w.bin === v.bin) === i) : [{ label: 'kubectl', bin }];
}

const found = kubectls();
if (found.length === 0) console.log('kubectl apply --server-side tests skipped: no kubectl on PATH');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe.skipIf(found.length === 0).each(found)('$label apply --server-side', ({ bin }) => {
  let s: TestServer;
  let dir: string;
  // Never a synchronous exec: the server answers kubectl from this very process.
  const kubectl = (...args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      execFile(bin, ['--kubeconfig', join(dir, 'kubeconfig'), ...args], { timeout: 30_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  const manifest = (name: string, value: string): string => {
    const file = join(dir, `${name}-${value}.yaml`);
    writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  a: "${value}"\n  b: keep\n`);
    return file;
  };

  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
    dir = mkdtempSync(join(tmpdir(), 'orch-ssa-kubectl-'));
    writeFileSync(join(dir, 'kubeconfig'), s.server.kubeconfig());
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates, re-applies, reports a conflict in Kubernetes words, and takes the field over with --force-conflicts', async () => {
    const cm = '/api/v1/namespaces/default/configmaps/ssa';
    let r = await kubectl('apply', '--server-side', '-f', manifest('ssa', '1'));
    expect(r.stdout.trim(), r.stderr).toBe('configmap/ssa serverside-applied');
    r = await kubectl('apply', '--server-side', '-f', manifest('ssa', '1'));
    expect(r.stdout.trim(), r.stderr).toBe('configmap/ssa serverside-applied');
    let live = (await s.get(cm)).body;
    expect(live.metadata.managedFields.map((e: any) => [e.manager, e.operation, e.fieldsV1])).toEqual([['kubectl', 'Apply', { 'f:data': { 'f:a': {}, 'f:b': {} } }]]);

    r = await kubectl('patch', 'configmap', 'ssa', '-n', 'default', '--type', 'merge', '-p', '{"data":{"a":"9"}}');
    expect(r.code, r.stderr).toBe(0);
    r = await kubectl('apply', '--server-side', '-f', manifest('ssa', '2'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl-patch" using v1: .data.a');
    expect((await s.get(cm)).body.data.a).toBe('9');

    r = await kubectl('apply', '--server-side', '--force-conflicts', '-f', manifest('ssa', '2'));
    expect(r.stdout.trim(), r.stderr).toBe('configmap/ssa serverside-applied');
    live = (await s.get(cm)).body;
    expect(live.data).toEqual({ a: '2', b: 'keep' });
    // kubectl-patch owned nothing else, so its entry is gone.
    expect(live.metadata.managedFields.map((e: any) => [e.manager, e.operation])).toEqual([['kubectl', 'Apply']]);
  });

  it('diff --server-side shows what an apply would change, without changing it', async () => {
    await kubectl('apply', '--server-side', '-f', manifest('differ', '1'));
    const before = (await s.get('/api/v1/namespaces/default/configmaps/differ')).body;
    const same = await kubectl('diff', '--server-side', '-f', manifest('differ', '1'));
    expect(same.code, same.stderr).toBe(0);
    const changed = await kubectl('diff', '--server-side', '-f', manifest('differ', '3'));
    expect(changed.code, changed.stderr).toBe(1);
    expect(changed.stdout).toMatch(/^-\s+a: "1"$/m);
    expect(changed.stdout).toMatch(/^\+\s+a: "3"$/m);
    expect((await s.get('/api/v1/namespaces/default/configmaps/differ')).body).toEqual(before);
  });
});
