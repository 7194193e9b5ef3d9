/**
 * Unmodified kubectl (the one on PATH and 1.27) under --api-domain=k8s.io, over TLS, with a token
 * kubeconfig (the CA and `token:`): a token from `kubectl create token`, a bootstrap token, and a
 * token that no longer holds. Who each token proves is read back from a CertificateSigningRequest
 * the token's user creates, which records its requester.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedKubectls, kubectlSandbox, type Kubectl, type KubectlSandbox } from '../helpers/kubectl.js';
import { grantClusterRoleToGroup } from '../helpers/rbac-grants.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { letEveryoneAskWhoami } from '../helpers/whoami.js';
import { EC_CSR } from '../kinds/certificates/fixtures.js';

const { found } = installedKubectls();
const picks: Kubectl[] = found.filter((k) => k.onPath || k.minor === 27);
if (picks.length === 0) console.log('kubectl token tests skipped: no kubectl on PATH');

function tokenKubeconfig(url: string, caPem: string, token: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: c',
    '  cluster:',
    `    server: ${url}`,
    `    certificate-authority-data: ${Buffer.from(caPem).toString('base64')}`,
    'contexts:',
    '- name: c',
    '  context: {cluster: c, user: u}',
    'current-context: c',
    'users:',
    '- name: u',
    '  user:',
    `    token: ${token}`,
    '',
  ].join('\n');
}

const csr = (name: string): string => `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata:
  name: ${name}
spec:
  request: ${Buffer.from(EC_CSR).toString('base64')}
  signerName: example.com/x
  usages: [digital signature]
`;

describe.runIf(picks.length > 0).each(picks)('$label with tokens (k8s.io)', (kubectl) => {
  let server: TestServer;
  let admin: KubectlSandbox;
  const boxes: KubectlSandbox[] = [];

  beforeAll(async () => {
    server = await startTestServer({ tls: true, apiDomain: 'k8s.io', enableBootstrapTokenAuth: true });
    admin = kubectlSandbox(server.server.kubeconfig(), 'orch-kubectl-admin-');
    // The default authorization is RBAC: token users may ask who they are (a CSR) and edit.
    await letEveryoneAskWhoami(server.target, 'k8s.io');
    await grantClusterRoleToGroup(server.target, 'edit', 'system:authenticated', 'k8s.io');
  });
  afterAll(async () => {
    for (const box of boxes) box.remove();
    admin?.remove();
    await server?.close();
  });

  const withToken = (token: string): KubectlSandbox => {
    const box = kubectlSandbox(tokenKubeconfig(server.url, server.tls?.ca as string, token), 'orch-kubectl-token-');
    boxes.push(box);
    return box;
  };

  /** The user `box` acts as, as the API server recorded it in a CertificateSigningRequest. */
  async function whoIs(box: KubectlSandbox, name: string): Promise<{ username: string; groups: string[]; extra?: Record<string, string[]> }> {
    const created = await box.run(kubectl.bin, ['create', '-f', box.manifest(`${name}.yaml`, csr(name))]);
    expect(created.code, created.stderr).toBe(0);
    const got = await admin.run(kubectl.bin, ['get', 'csr', name, '-o', 'json']);
    expect(got.code, got.stderr).toBe(0);
    return (JSON.parse(got.stdout) as { spec: { username: string; groups: string[]; extra?: Record<string, string[]> } }).spec;
  }

  it('kubectl create token gives a token kubectl then works with, as the service account', async () => {
    expect((await admin.run(kubectl.bin, ['create', 'serviceaccount', 'robot'])).code).toBe(0);
    const made = await admin.run(kubectl.bin, ['create', 'token', 'robot', '--duration=20m']);
    expect(made.code, made.stderr).toBe(0);
    const token = made.stdout.trim();
    expect(token.split('.')).toHaveLength(3);
    const box = withToken(token);
    const cm = await box.run(kubectl.bin, ['create', 'configmap', 'from-robot', '--from-literal=a=b']);
    expect(cm.code, cm.stderr).toBe(0);
    expect(await whoIs(box, `robot-${kubectl.minor}`)).toMatchObject({
      username: 'system:serviceaccount:default:robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
  });

  it('a token bound to a Pod carries its name in extra and dies with it', async () => {
    const pod = await admin.run(kubectl.bin, ['run', 'runner', '--image=busybox', '--overrides={"spec":{"serviceAccountName":"robot"}}']);
    expect(pod.code, pod.stderr).toBe(0);
    const made = await admin.run(kubectl.bin, ['create', 'token', 'robot', '--bound-object-kind=Pod', '--bound-object-name=runner']);
    expect(made.code, made.stderr).toBe(0);
    const box = withToken(made.stdout.trim());
    const who = await whoIs(box, `pod-bound-${kubectl.minor}`);
    expect(who.extra?.['authentication.kubernetes.io/pod-name']).toEqual(['runner']);
    expect((await admin.run(kubectl.bin, ['delete', 'pod', 'runner', '--wait=false'])).code).toBe(0);
    let refused = await box.run(kubectl.bin, ['get', 'configmaps']);
    for (let i = 0; i < 40 && refused.code === 0; i++) refused = await box.run(kubectl.bin, ['get', 'configmaps']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('You must be logged in to the server (Unauthorized)');
  });

  it('a bootstrap token works; an expired one and one without the usage flag do not', async () => {
    const secret = (id: string, extra: string) => `apiVersion: v1
kind: Secret
metadata:
  name: bootstrap-token-${id}
  namespace: kube-system
type: bootstrap.kubernetes.io/token
stringData:
  token-id: ${id}
  token-secret: 0123456789abcdef
${extra}`;
    const applied = await admin.run(kubectl.bin, [
      'apply',
      '-f', admin.manifest('good.yaml', secret('good27', '  usage-bootstrap-authentication: "true"\n  auth-extra-groups: system:bootstrappers:kubeadm:default-node-token\n')),
      '-f', admin.manifest('old.yaml', secret('old027', '  usage-bootstrap-authentication: "true"\n  expiration: "2020-01-01T00:00:00Z"\n')),
      '-f', admin.manifest('nouse.yaml', secret('nouse7', '')),
    ]);
    expect(applied.code, applied.stderr).toBe(0);
    const good = withToken('good27.0123456789abcdef');
    const ns = await good.run(kubectl.bin, ['get', 'namespaces', '-o', 'name']);
    expect(ns.code, ns.stderr).toBe(0);
    expect(ns.stdout).toContain('namespace/kube-system');
    expect(await whoIs(good, `bootstrap-${kubectl.minor}`)).toMatchObject({
      username: 'system:bootstrap:good27',
      groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'],
    });
    for (const token of ['old027.0123456789abcdef', 'nouse7.0123456789abcdef', 'good27.0123456789abcdee']) {
      const r = await withToken(token).run(kubectl.bin, ['get', 'namespaces']);
      expect(r.code, token).not.toBe(0);
      // Without a discovery cache kubectl words the 401 of its first request, discovery, this way.
      expect(r.stderr).toMatch(/You must be logged in to the server \(Unauthorized\)|the server has asked for the client to provide credentials/);
      expect(r.stderr).not.toContain('0123456789abcde');
    }
  });
});
