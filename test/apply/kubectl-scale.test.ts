/**
 * `kubectl scale` and `kubectl apply --server-side` sharing a Deployment's replicas, with kubectl
 * 1.27 and the newest installed, under `--api-domain=k8s.io`. kubectl scale sends a merge patch to
 * /scale without fieldManager, so the manager is what its User-Agent starts with: the program's
 * name (`kubectl`, or `kubectl.1.27` for a versioned binary). Skips, saying why, without kubectl.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
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

/** kubectl 1.27 when installed beside the kubectl on PATH, and that kubectl itself (the newest). */
function kubectls(): string[] {
  const bin = onPath('kubectl');
  if (!bin) return [];
  const dir = dirname(realpathSync(bin));
  const old = readdirSync(dir).includes('kubectl.1.27') ? [join(dir, 'kubectl.1.27')] : [];
  return [...old, bin];
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
  // Never a synchronous exec: the server answers kubectl from this very process.
  const kubectl = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(bin, ['--kubeconfig', join(dir, 'kubeconfig'), ...args], { timeout: 30_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
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
