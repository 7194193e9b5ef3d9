/**
 * `kubectl create quota`, `create priorityclass` and `create pdb` against the server under
 * `--api-domain=k8s.io`, with kubectl 1.27 and the newest installed; `get` prints the columns.
 * Skips, saying why, when kubectl is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlPicks, kubectlSandbox, type KubectlSandbox } from '../../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const KUBECTLS = kubectlPicks();
if (KUBECTLS.length === 0) console.log('kubectl create quota/priorityclass/pdb tests skipped: no kubectl found on PATH');

describe.each(KUBECTLS.map((k) => [k.label, k] as const))('kubectl create quota, priorityclass and pdb (%s, k8s.io)', (_label, k) => {
  let s: TestServer;
  let box: KubectlSandbox;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
    box = kubectlSandbox(s.server.kubeconfig(), 'kubectl-policy-');
  });
  afterAll(async () => {
    await s.close();
    box.remove();
  });
  const kubectl = (...args: string[]) => box.run(k.bin, args);

  it('creates a quota with hard limits and scopes, and refuses a bad one with the server\'s message', async () => {
    const made = await kubectl('create', 'quota', 'team', '--hard=pods=10,requests.cpu=2,limits.memory=4Gi', '--scopes=NotBestEffort');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('resourcequota/team created');
    const got = await kubectl('get', 'quota', 'team', '-o', 'jsonpath={.spec.hard.pods} {.spec.hard.limits\\.memory} {.spec.scopes[0]}');
    expect(got.stdout).toBe('10 4Gi NotBestEffort');
    const table = await kubectl('get', 'quota');
    expect(table.stdout).toMatch(/^NAME\s+AGE\s+REQUEST\s+LIMIT\nteam\s+\d+s/);
    const bad = await kubectl('create', 'quota', 'broken', '--hard=pods=1', '--scopes=BestEffort,NotBestEffort');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('conflicting scopes');
  });

  it('creates a priority class, and keeps the reserved prefix for the system', async () => {
    const made = await kubectl('create', 'priorityclass', 'high', '--value=1000', '--description=important', '--preemption-policy=Never');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('priorityclass.scheduling.k8s.io/high created');
    const table = await kubectl('get', 'pc', 'high');
    expect(table.stdout).toMatch(/^NAME\s+VALUE\s+GLOBAL-DEFAULT\s+AGE\nhigh\s+1000\s+false\s+\d+s/);
    const reserved = await kubectl('create', 'priorityclass', 'system-mine', '--value=5');
    expect(reserved.code).not.toBe(0);
    expect(reserved.stderr).toContain("priority class names with 'system-' prefix are reserved for system use only");
  });

  it('creates pod disruption budgets by min-available and max-unavailable', async () => {
    const min = await kubectl('create', 'pdb', 'web', '--selector=app=web', '--min-available=2');
    expect(min.code, min.stderr).toBe(0);
    expect(min.stdout).toContain('poddisruptionbudget.policy/web created');
    const max = await kubectl('create', 'pdb', 'db', '--selector=app=db', '--max-unavailable=25%');
    expect(max.code, max.stderr).toBe(0);
    const table = await kubectl('get', 'pdb');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\n/);
    expect(table.stdout).toMatch(/\ndb\s+N\/A\s+25%\s+0\s+\d+s\n/);
    expect(table.stdout).toMatch(/\nweb\s+2\s+N\/A\s+0\s+\d+s\n/);
  });
});
