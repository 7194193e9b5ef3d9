/**
 * `kubectl scale` and `kubectl apply --server-side` sharing a Deployment's replicas, with kubectl
 * 1.27 and the newest installed, under `--api-domain=k8s.io`. kubectl scale sends a merge patch to
 * /scale without fieldManager, so the manager is what its User-Agent starts with: the program's
 * name (`kubectl`, or `kubectl.1.27` for a versioned binary). Skips, saying why, without kubectl.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedKubectls, onPath, runKubectl, type Run } from '../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** kubectl 1.27 when installed beside the kubectl on PATH, and that kubectl itself (the newest). */
function kubectls(): string[] {
  const bin = onPath('kubectl');
  if (!bin) return [];
  const old = installedKubectls().found.find((k) => !k.onPath && k.minor === 27);
  return [...(old ? [old.bin] : []), bin];
}

const found = kubectls();
if (found.length === 0) console.log('kubectl scale tests skipped: no kubectl on PATH');

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
`;

describe.skipIf(found.length === 0).each(found.map((bin) => ({ bin, manager: basename(bin) })))('$manager scale and apply --server-side', ({ bin, manager }) => {
  let s: TestServer;
  let dir: string;
  const kubectl = (...args: string[]): Promise<Run> => runKubectl(bin, ['--kubeconfig', join(dir, 'kubeconfig'), ...args], { timeoutMs: 30_000 });
  const DEPLOY = '/apis/apps/v1/namespaces/default/deployments/web';

  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
    dir = mkdtempSync(join(tmpdir(), 'orch-scale-kubectl-'));
    writeFileSync(join(dir, 'kubeconfig'), s.server.kubeconfig());
    writeFileSync(join(dir, 'web.yaml'), DEPLOYMENT);
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scale records an Update entry with subresource scale; the applier then conflicts until --force-conflicts', async () => {
    let r = await kubectl('apply', '--server-side', '-f', join(dir, 'web.yaml'));
    expect(r.stdout.trim(), r.stderr).toBe('deployment.apps/web serverside-applied');

    r = await kubectl('scale', 'deployment', 'web', '--replicas=4');
    expect(r.stdout.trim(), r.stderr).toBe('deployment.apps/web scaled');
    let live = (await s.get(DEPLOY)).body;
    expect(live.spec.replicas).toBe(4);
    const scaled = live.metadata.managedFields.filter((e: any) => e.subresource === 'scale');
    // As Kubernetes writes it: the Deployment's terms, no time (the scale handler keeps none for a new entry).
    expect(scaled).toEqual([{ manager, operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' }]);
    const applied = live.metadata.managedFields.find((e: any) => e.manager === 'kubectl' && e.operation === 'Apply');
    expect(applied.fieldsV1['f:spec']['f:replicas']).toBeUndefined();

    // The Scale itself carries no managedFields.
    r = await kubectl('get', '--raw', `${DEPLOY}/scale`);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).metadata.managedFields).toBeUndefined();

    r = await kubectl('apply', '--server-side', '-f', join(dir, 'web.yaml'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`Apply failed with 1 conflict: conflict with "${manager}" with subresource "scale" using apps/v1: .spec.replicas`);
    expect((await s.get(DEPLOY)).body.spec.replicas).toBe(4);

    r = await kubectl('apply', '--server-side', '--force-conflicts', '-f', join(dir, 'web.yaml'));
    expect(r.stdout.trim(), r.stderr).toBe('deployment.apps/web serverside-applied');
    live = (await s.get(DEPLOY)).body;
    expect(live.spec.replicas).toBe(2);
    expect(live.metadata.managedFields.map((e: any) => [e.manager, e.operation, e.subresource ?? ''])).toEqual([['kubectl', 'Apply', '']]);
  });
});
