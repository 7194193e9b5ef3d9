/**
 * What a kubectl user sees on an orch.io server: kubectl speaks Kubernetes' names (protobuf bodies
 * in application/vnd.kubernetes.protobuf, Tables in meta.k8s.io, x-kubernetes-* in OpenAPI), and the
 * server's errors and warnings tell the user why things fail or look bare, and to start the server
 * with --api-domain=k8s.io. Under k8s.io the same commands run without a word of it.
 * Skips, saying why, when kubectl is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBECTL, kubectlPicks, kubectlSandbox, onPath, runKubectl, type Kubectl } from '../helpers/kubectl.js';
import { startTestServer } from '../helpers/server.js';

const FIX = 'start it with --api-domain=k8s.io';
const hasKubectl = onPath(DEFAULT_KUBECTL) !== undefined || DEFAULT_KUBECTL.includes('/');
if (!hasKubectl) console.log('kubectl domain-hint tests skipped: no kubectl on PATH');

/** The kubectl on PATH (the one a user types), then 1.27 and the newest beside it for `get`. */
const others: Kubectl[] = hasKubectl ? kubectlPicks() : [];

describe.skipIf(!hasKubectl)('kubectl on an orch.io server is told about --api-domain=k8s.io', () => {
  let close: () => Promise<void> = async () => undefined;
  let box: ReturnType<typeof kubectlSandbox> | undefined;
  beforeAll(async () => {
    const s = await startTestServer({});
    close = () => s.close();
    box = kubectlSandbox(s.server.kubeconfig(), 'orch-kubectl-hints-');
  });
  afterAll(async () => {
    await close();
    box?.remove();
  });
  const kubectl = (...args: string[]) => box!.run(DEFAULT_KUBECTL, args);

  it('kubectl create namespace (a protobuf body) fails with the reason and the fix', async () => {
    const version = await runKubectl(DEFAULT_KUBECTL, ['version', '--client', '-o', 'json']);
    const minor = Number.parseInt((JSON.parse(version.stdout) as { clientVersion: { minor: string } }).clientVersion.minor, 10);
    const r = await kubectl('create', 'namespace', 'demo');
    if (minor < 32) {
      // Older kubectl creates a namespace with a JSON body, which this server reads.
      expect(r.code, r.stderr).toBe(0);
      return;
    }
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Error from server (UnsupportedMediaType): the body of the request was in an unknown format');
    expect(r.stderr).toContain("application/vnd.kubernetes.protobuf is Kubernetes' name for protobuf (here application/vnd.orch.protobuf)");
    expect(r.stderr).toContain(`this server serves the API domain orch.io, not k8s.io: for kubectl and other Kubernetes clients, ${FIX}`);
    const ns = await kubectl('get', 'namespace', 'demo', '-o', 'name');
    expect(ns.stderr).toContain('NotFound');
  });

  it.each(others.map((k) => [k.label, k] as const))('%s get namespaces prints names and ages only, and says why', async (_label, k) => {
    const r = await box!.run(k.bin, ['get', 'namespaces']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^NAME\s+AGE\n/);
    expect(r.stderr).toContain("Warning: as=Table;g=meta.k8s.io is Kubernetes' name (here g=meta.orch.io), so the answer is the plain object or list, not a Table;");
    expect(r.stderr).toContain(FIX);
  });

  it('kubectl explain fails, and the warning before its error says why', async () => {
    const r = await kubectl('explain', 'pods');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Warning: kubectl finds a kind in OpenAPI by x-kubernetes-group-version-kind, which this server writes as x-orch-group-version-kind');
    expect(r.stderr).toContain(FIX);
  });

  it('a k8s.io group in a path gets a 404 naming the group served instead', async () => {
    const r = await kubectl('get', '--raw', '/apis/rbac.authorization.k8s.io/v1');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("rbac.authorization.k8s.io is Kubernetes' name of the group served here as rbac.authorization.orch.io");
    expect(r.stderr).toContain(FIX);
  });
});

describe.skipIf(!hasKubectl)('kubectl on a k8s.io server hears nothing of the domain', () => {
  let close: () => Promise<void> = async () => undefined;
  let box: ReturnType<typeof kubectlSandbox> | undefined;
  beforeAll(async () => {
    const s = await startTestServer({ apiDomain: 'k8s.io' });
    close = () => s.close();
    box = kubectlSandbox(s.server.kubeconfig(), 'orch-kubectl-hints-');
  });
  afterAll(async () => {
    await close();
    box?.remove();
  });
  const kubectl = (...args: string[]) => box!.run(DEFAULT_KUBECTL, args);

  it('create namespace, get namespaces (a Table) and explain', async () => {
    const created = await kubectl('create', 'namespace', 'demo');
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toBe('');
    const got = await kubectl('get', 'namespaces');
    expect(got.stdout).toMatch(/^NAME\s+STATUS\s+AGE\n/);
    expect(got.stderr).toBe('');
    const explained = await kubectl('explain', 'pods.spec.containers.name');
    expect(explained.code, explained.stderr).toBe(0);
    expect(explained.stderr).toBe('');
  });
});
