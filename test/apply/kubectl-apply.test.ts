/**
 * `kubectl apply --server-side` against the server, with kubectl 1.27 and the newest installed:
 * create, re-apply, a conflict with another manager, then --force-conflicts, with the managedFields
 * each step leaves. Skips, saying why, when no kubectl is installed. (`diff --server-side` and the
 * same flow on a Deployment, for every installed version, are in test/e2e/kubectl/.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlPicks, runKubectl, type Run } from '../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const found = kubectlPicks();
if (found.length === 0) console.log('kubectl apply --server-side tests skipped: no kubectl on PATH');

describe.skipIf(found.length === 0).each(found)('$label apply --server-side', ({ bin }) => {
  let s: TestServer;
  let dir: string;
  const kubectl = (...args: string[]): Promise<Run> => runKubectl(bin, ['--kubeconfig', join(dir, 'kubeconfig'), ...args], { timeoutMs: 30_000 });
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
});
