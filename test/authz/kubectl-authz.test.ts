/**
 * Real kubectl (1.27 and the newest installed) against a k8s.io server: a restricted user, reached
 * with --as (the plain-HTTP caller is in system:masters and may impersonate), sees Kubernetes' 403
 * messages; `auth can-i` (with -n, --as, --as-group, --list, subresources and non-resource URLs)
 * answers what the server then enforces; escalation is refused in Kubernetes' words; `auth
 * reconcile` creates, restores and (when asked) removes extras. A restricted user with a token of its
 * own (over HTTPS, no --as) sees the same 403s, and its `auth can-i` agrees with what it may do.
 * Skips, saying why, when kubectl is not installed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
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

const RECONCILE_NAMESPACED = `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: ns-reconciled, namespace: team }
rules:
- apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: ns-reconciled, namespace: team }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: ns-reconciled }
subjects:
- { kind: User, apiGroup: rbac.authorization.k8s.io, name: carl }
`;

const NARROWED = `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: ns-reconciled, namespace: team }
rules:
- apiGroups: [""]
  resources: [secrets]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: ns-reconciled, namespace: team }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: ns-reconciled }
subjects:
- { kind: User, apiGroup: rbac.authorization.k8s.io, name: carl }
- { kind: User, apiGroup: rbac.authorization.k8s.io, name: dora }
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

  it('auth reconcile adds a missing rule and subject, reconciles namespaced roles, and removes extras when asked', async () => {
    const file = box.manifest('reconcile-ns.yaml', RECONCILE_NAMESPACED);
    const first = await k('auth', 'reconcile', '-f', file);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('role.rbac.authorization.k8s.io/ns-reconciled reconciled');
    expect(first.stdout).toContain('rolebinding.rbac.authorization.k8s.io/ns-reconciled reconciled');
    // Someone narrows the role and adds a rule of their own: reconcile restores what the file holds and keeps the extra.
    const narrowed = await k('apply', '-f', box.manifest('narrowed.yaml', NARROWED));
    expect(narrowed.code, narrowed.stderr).toBe(0);
    const again = await k('auth', 'reconcile', '-f', file);
    expect(again.code, again.stderr).toBe(0);
    // What the role grants, one resource:verb piece each (kubectl adds missing rules broken down so).
    const rules = async (): Promise<string[]> => {
      const list = JSON.parse((await k('get', 'role', 'ns-reconciled', '-n', 'team', '-o', 'jsonpath={.rules}')).stdout) as { resources: string[]; verbs: string[] }[];
      return [...new Set(list.flatMap((r) => r.resources.flatMap((res) => r.verbs.map((v) => `${res}:${v}`))))].sort();
    };
    expect(await rules()).toEqual(['configmaps:get', 'configmaps:list', 'secrets:get']);
    const strict = await k('auth', 'reconcile', '-f', file, '--remove-extra-permissions', '--remove-extra-subjects');
    expect(strict.code, strict.stderr).toBe(0);
    expect(await rules()).toEqual(['configmaps:get', 'configmaps:list']);
    const subjects = await k('get', 'rolebinding', 'ns-reconciled', '-n', 'team', '-o', 'jsonpath={.subjects[*].name}');
    expect(subjects.stdout).toBe('carl');
    for (let i = 0; i < 100 && (await k('auth', 'can-i', 'list', 'configmaps', '-n', 'team', '--as', 'carl')).stdout.trim() !== 'yes'; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await k('auth', 'can-i', 'list', 'configmaps', '-n', 'team', '--as', 'carl')).stdout.trim()).toBe('yes');
    expect((await k('auth', 'can-i', 'get', 'secrets', '-n', 'team', '--as', 'carl')).stdout.trim()).toBe('no');
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

/** A kubeconfig for a caller whose only credential is a bearer token (no client certificate). */
function tokenKubeconfig(server: string, caPem: string, token: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'orch', cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
    users: [{ name: 'rita', user: { token } }],
    contexts: [{ name: 'orch', context: { cluster: 'orch', user: 'rita' } }],
    'current-context': 'orch',
  });
}

describe.each(KUBECTLS)('$label: a restricted user with a credential of its own (no --as)', ({ bin }) => {
  let s: TestServer;
  let dir: string;
  let box: KubectlSandbox;
  const k = (...args: string[]): Promise<Run> => box.run(bin, args);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-rita-'));
    writeFileSync(join(dir, 'tokens.csv'), 'rita-token-0123456789,rita,7\n');
    s = await startTestServer({ tls: true, apiDomain: 'k8s.io', storageBackend: 'memory', dataDir: join(dir, 'data'), tokenAuthFile: join(dir, 'tokens.csv') });
    expect((await s.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
    const rbac = 'rbac.authorization.k8s.io';
    const binding = { metadata: { name: 'rita-views' }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', apiGroup: rbac, name: 'rita' }] };
    expect((await s.post(`/apis/${rbac}/v1/namespaces/team/rolebindings`, binding)).status).toBe(201);
    box = kubectlSandbox(tokenKubeconfig(s.url, s.tls!.ca as string, 'rita-token-0123456789'), 'orch-kubectl-rita-');
    for (let i = 0; i < 100 && (await k('auth', 'can-i', 'list', 'pods', '-n', 'team')).stdout.trim() !== 'yes'; i++) await new Promise((r) => setTimeout(r, 50));
  });
  afterAll(async () => {
    await s?.close();
    box?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("sees Kubernetes' 403 messages for what view does not grant", async () => {
    const secrets = await k('get', 'secrets', '-n', 'team');
    expect(secrets.code).toBe(1);
    expect(secrets.stderr).toContain('Error from server (Forbidden): secrets is forbidden: User "rita" cannot list resource "secrets" in API group "" in the namespace "team"');
    const cm = await k('create', 'configmap', 'x', '-n', 'team');
    expect(cm.code).toBe(1);
    expect(cm.stderr).toContain('configmaps is forbidden: User "rita" cannot create resource "configmaps" in API group "" in the namespace "team"');
    const nodes = await k('get', 'nodes');
    expect(nodes.stderr).toContain('Error from server (Forbidden): nodes is forbidden: User "rita" cannot list resource "nodes" in API group "" at the cluster scope');
  });

  it('auth can-i (its own SelfSubjectAccessReview) answers what the server enforces', async () => {
    const cells: [string[], string[], 'yes' | 'no'][] = [
      [['list', 'pods', '-n', 'team'], ['get', 'pods', '-n', 'team'], 'yes'],
      [['list', 'pods', '-n', 'default'], ['get', 'pods', '-n', 'default'], 'no'],
      [['list', 'secrets', '-n', 'team'], ['get', 'secrets', '-n', 'team'], 'no'],
      [['create', 'configmaps', '-n', 'team'], ['create', 'configmap', 'probe', '-n', 'team'], 'no'],
      [['list', 'namespaces'], ['get', 'namespaces'], 'no'],
      [['get', 'pods', '--subresource=log', '-n', 'team'], [], 'yes'],
      [['create', 'pods', '--subresource=exec', '-n', 'team'], [], 'no'],
      [['get', '/healthz'], ['get', '--raw', '/healthz'], 'yes'],
      [['get', '/metrics'], ['get', '--raw', '/metrics'], 'no'],
    ];
    for (const [canI, request, want] of cells) {
      const answer = await k('auth', 'can-i', ...canI);
      expect(answer.stdout.trim(), `can-i ${canI.join(' ')}: ${answer.stderr}`).toBe(want);
      expect(answer.code).toBe(want === 'yes' ? 0 : 1);
      if (request.length) {
        const enforced = await k(...request);
        expect(enforced.code === 0, `${request.join(' ')}: ${enforced.stderr}`).toBe(want === 'yes');
      }
    }
  });

  it('auth can-i --list shows its rules in the namespace', async () => {
    const r = await k('auth', 'can-i', '--list', '-n', 'team');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(r.stdout).not.toMatch(/^secrets\s/m);
  });
});
