/**
 * Unmodified kubectl (the one on PATH and 1.27) under --api-domain=k8s.io, over TLS: a pod made with
 * `kubectl run` shows the ServiceAccount plugin's work in `kubectl get pod -o yaml` (the account,
 * the `kube-api-access-<suffix>` projected volume, the read-only mount), the namespace has its
 * `default` account and `kube-root-ca.crt`, `kubectl create token` issues a token for an account,
 * and a pod naming a missing account is refused with Kubernetes' message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { installedKubectls, kubectlSandbox, type Kubectl, type KubectlSandbox } from '../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const { found } = installedKubectls();
const picks: Kubectl[] = found.filter((k) => k.onPath || k.minor === 27);
if (picks.length === 0) console.log('kubectl service-account tests skipped: no kubectl on PATH');

describe.runIf(picks.length > 0).each(picks)('$label and service accounts (k8s.io)', (kubectl) => {
  let server: TestServer;
  let box: KubectlSandbox;
  const k = (...args: string[]) => box.run(kubectl.bin, args);

  beforeAll(async () => {
    server = await startTestServer({ tls: true, apiDomain: 'k8s.io', controllerManager: { controllers: ['*'] } });
    box = kubectlSandbox(server.server.kubeconfig(), 'orch-kubectl-sa-');
  });
  afterAll(async () => {
    box?.remove();
    await server?.close();
  });

  it('shows the service-account volume of a pod in get -o yaml', async () => {
    expect((await k('create', 'namespace', 'demo')).code).toBe(0);
    const run = await k('run', 'web', '--image=nginx:1.25', '-n', 'demo');
    expect(run.code, run.stderr).toBe(0);
    const got = await k('get', 'pod', 'web', '-n', 'demo', '-o', 'yaml');
    expect(got.code, got.stderr).toBe(0);
    const pod = parse(got.stdout);
    expect(pod.spec.serviceAccountName).toBe('default');
    expect(pod.spec.serviceAccount).toBe('default');
    const volume = pod.spec.volumes.find((v: any) => v.name.startsWith('kube-api-access-'));
    expect(volume.name).toMatch(/^kube-api-access-[a-z0-9]{5}$/);
    expect(volume.projected).toEqual({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
    expect(pod.spec.containers[0].volumeMounts).toEqual([{ name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);

    const sa = await k('get', 'serviceaccount', 'default', '-n', 'demo', '-o', 'name');
    expect(sa.stdout.trim()).toBe('serviceaccount/default');
    const ca = await k('get', 'configmap', 'kube-root-ca.crt', '-n', 'demo', '-o', 'jsonpath={.data.ca\\.crt}');
    expect(ca.code, ca.stderr).toBe(0);
    expect(ca.stdout).toBe(server.tls?.ca);
  });

  it('creates a token for an account, and refuses a pod whose account is missing', async () => {
    expect((await k('create', 'serviceaccount', 'robot', '-n', 'demo')).code).toBe(0);
    const token = await k('create', 'token', 'robot', '-n', 'demo', '--duration=10m');
    expect(token.code, token.stderr).toBe(0);
    const claims = JSON.parse(Buffer.from(token.stdout.trim().split('.')[1] as string, 'base64url').toString('utf8'));
    expect(claims.sub).toBe('system:serviceaccount:demo:robot');
    expect(claims.exp - claims.iat).toBe(600);

    const refused = await k('run', 'lost', '--image=nginx', '-n', 'demo', '--overrides={"spec":{"serviceAccountName":"ghost"}}');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('pods "lost" is forbidden: error looking up service account demo/ghost: serviceaccount "ghost" not found');
  });
});
