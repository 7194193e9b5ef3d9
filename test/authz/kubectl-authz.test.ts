/**
 * Real kubectl (1.27 and the newest installed) against a k8s.io server: a restricted user, reached
 * with --as (the plain-HTTP caller is in system:masters and may impersonate), sees Kubernetes' 403
 * messages; `auth can-i` (with -n, --as, --as-group, --list, subresources and non-resource URLs)
 * answers what the server then enforces; escalation is refused in Kubernetes' words; `auth
 * reconcile` works. Skips, saying why, when kubectl is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlPicks, kubectlSandbox, type KubectlSandbox, type Run } from '../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const KUBECTLS = process.env.KUBECTL ? [{ label: 'KUBECTL', bin: process.env.KUBECTL }] : kubectlPicks().map((k) => ({ label: k.label, bin: k.bin }));
if (KUBECTLS.length === 0) console.log('kubectl authorization tests skipped: no kubectl found on PATH');

const SETUP = `
apiVersion: v1
kind: Namespace
metadata: { name: team }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: pod-reader, namespace: team }
rules:
- apiGroups: [""]
  resources: [pods, pods/log]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: alice-reads, namespace: team }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: pod-reader }
subjects:
- { kind: User, apiGroup: rbac.authorization.k8s.io, name: alice }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: boss-admin, namespace: team }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin }
subjects:
- { kind: User, apiGroup: rbac.authorization.k8s.io, name: boss }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: readers-view }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view }
subjects:
- { kind: Group, apiGroup: rbac.authorization.k8s.io, name: readers }
`;

const RECONCILE = `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: reconciled-role }
rules:
- apiGroups: [""]
  resources: [configmaps]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: reconciled-binding }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: reconciled-role }
subjects:
- { kind: User, apiGroup: rbac.authorization.k8s.io, name: rec }
`;

describe.each(KUBECTLS)('$label: authorization', ({ bin }) => {
  let s: TestServer;
  let box: KubectlSandbox;
  const k = (...args: string[]): Promise<Run> => box.run(bin, args);

  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
    box = kubectlSandbox(s.server.kubeconfig(), 'orch-kubectl-authz-');
    const applied = await k('apply', '-f', box.manifest('setup.yaml', SETUP));
    expect(applied.code, applied.stderr).toBe(0);
    // The grants reach the authorizer through the watch cache.
    for (let i = 0; i < 100 && (await k('auth', 'can-i', 'list', 'pods', '-n', 'team', '--as', 'alice')).stdout.trim() !== 'yes'; i++) await new Promise((r) => setTimeout(r, 50));
  });
  afterAll(async () => {
    await s?.close();
    box?.remove();
  });

  it('a restricted user sees Kubernetes\' 403 messages', async () => {
    const pods = await k('get', 'pods', '-n', 'default', '--as', 'alice');
    expect(pods.code).toBe(1);
    expect(pods.stderr).toContain('Error from server (Forbidden): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"');
    const cm = await k('create', 'configmap', 'x', '-n', 'team', '--as', 'alice');
    expect(cm.code).toBe(1);
    expect(cm.stderr).toContain('configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "team"');
    const nodes = await k('get', 'nodes', '--as', 'alice');
    expect(nodes.stderr).toContain('nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope');
    expect((await k('get', 'pods', '-n', 'team', '--as', 'alice')).code).toBe(0);
  });

  it('--as-group reaches group grants', async () => {
    expect((await k('get', 'configmaps', '-n', 'default', '--as', 'bob')).code).toBe(1);
    const r = await k('get', 'configmaps', '-n', 'default', '--as', 'bob', '--as-group', 'readers');
    expect(r.code, r.stderr).toBe(0);
  });

  it('auth can-i answers what the server enforces', async () => {
    const cells: [string[], string[]][] = [
      // [can-i arguments], [the request that checks it]
      [['list', 'pods', '-n', 'team'], ['get', 'pods', '-n', 'team']],
      [['list', 'pods', '-n', 'default'], ['get', 'pods', '-n', 'default']],
      [['create', 'configmaps', '-n', 'team'], ['create', 'configmap', 'probe', '-n', 'team']],
      [['list', 'namespaces'], ['get', 'namespaces']],
      [['get', 'pods', '--subresource=log', '-n', 'team'], []],
      [['get', 'pods', '--subresource=exec', '-n', 'team'], []],
      [['get', '/healthz'], ['get', '--raw', '/healthz']],
      [['get', '/metrics'], ['get', '--raw', '/metrics']],
    ];
    for (const [canI, request] of cells) {
      const answer = await k('auth', 'can-i', ...canI, '--as', 'alice');
      const yes = answer.stdout.trim() === 'yes';
      expect(answer.code, `${canI.join(' ')}: ${answer.stdout}${answer.stderr}`).toBe(yes ? 0 : 1);
      if (request.length) {
        const enforced = await k(...request, '--as', 'alice');
        expect(enforced.code === 0, `${canI.join(' ')} said ${yes ? 'yes' : 'no'}; ${request.join(' ')}: ${enforced.stderr}`).toBe(yes);
      }
    }
    expect((await k('auth', 'can-i', 'get', 'pods', '--subresource=log', '-n', 'team', '--as', 'alice')).stdout.trim()).toBe('yes');
    expect((await k('auth', 'can-i', 'get', 'pods', '--subresource=exec', '-n', 'team', '--as', 'alice')).stdout.trim()).toBe('no');
    // kubectl reads `pods/web` as the pod named web.
    expect((await k('auth', 'can-i', 'get', 'pods/web', '-n', 'team', '--as', 'alice')).stdout.trim()).toBe('yes');
    expect((await k('auth', 'can-i', 'list', 'configmaps', '-n', 'default', '--as', 'bob', '--as-group', 'readers')).stdout.trim()).toBe('yes');
  });

  it('auth can-i --list shows the rules in the namespace', async () => {
    const r = await k('auth', 'can-i', '--list', '-n', 'team', '--as', 'alice');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(r.stdout).toMatch(/^pods\/log\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(r.stdout).toMatch(/selfsubjectaccessreviews\.authorization\.k8s\.io/);
    expect(r.stdout).toMatch(/\[\/healthz\]\s+\[\]\s+\[get\]/);
  });

  it('escalation is refused in Kubernetes\' words, and allowed within what is held', async () => {
    const ok = await k('create', 'rolebinding', 'x-view', '--clusterrole=view', '--user=x', '-n', 'team', '--as', 'boss');
    expect(ok.code, ok.stderr).toBe(0);
    const refused = await k('create', 'rolebinding', 'x-admin', '--clusterrole=cluster-admin', '--user=x', '-n', 'team', '--as', 'boss');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'rolebindings.rbac.authorization.k8s.io "x-admin" is forbidden: user "boss" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
    );
    const role = await k('create', 'role', 'node-reader', '--verb=get', '--resource=nodes', '-n', 'team', '--as', 'boss');
    expect(role.code).toBe(1);
    expect(role.stderr).toContain('user "boss" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["get"]}');
  });

  it('auth reconcile creates, then finds nothing to change', async () => {
    const file = box.manifest('reconcile.yaml', RECONCILE);
    const first = await k('auth', 'reconcile', '-f', file);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('clusterrole.rbac.authorization.k8s.io/reconciled-role reconciled');
    expect(first.stdout).toContain('clusterrolebinding.rbac.authorization.k8s.io/reconciled-binding reconciled');
    const again = await k('auth', 'reconcile', '-f', file);
    expect(again.code, again.stderr).toBe(0);
    for (let i = 0; i < 100 && (await k('auth', 'can-i', 'get', 'configmaps', '--as', 'rec')).stdout.trim() !== 'yes'; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await k('auth', 'can-i', 'get', 'configmaps', '--as', 'rec')).stdout.trim()).toBe('yes');
  });

  it('shows the default policy under Kubernetes\' names', async () => {
    const r = await k('get', 'clusterrole', 'system:aggregate-to-view', '-o', 'jsonpath={.metadata.labels}{" "}{.metadata.annotations}');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"rbac.authorization.k8s.io/aggregate-to-view":"true"');
    expect(r.stdout).toContain('"kubernetes.io/bootstrapping":"rbac-defaults"');
    expect(r.stdout).toContain('"rbac.authorization.kubernetes.io/autoupdate":"true"');
  });
});
