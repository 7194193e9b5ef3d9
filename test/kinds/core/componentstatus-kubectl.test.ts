/** `kubectl get componentstatuses` (k8s.io, kubectl 1.27 and newest): the warning and the rows. Skips without kubectl. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlPicks, kubectlSandbox, type KubectlSandbox } from '../../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const KUBECTLS = kubectlPicks();
if (KUBECTLS.length === 0) console.log('kubectl get componentstatuses skipped: no kubectl found on PATH');

describe.each(KUBECTLS.map((k) => [k.label, k] as const))('kubectl get componentstatuses (%s, k8s.io)', (_label, k) => {
  let s: TestServer;
  let box: KubectlSandbox;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
    box = kubectlSandbox(s.server.kubeconfig(), 'kubectl-cs-');
  });
  afterAll(async () => {
    await s.close();
    box.remove();
  });

  it('prints the components with the deprecation warning', async () => {
    const r = await box.run(k.bin, ['get', 'cs']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Warning: v1 ComponentStatus is deprecated in v1.19+');
    expect(r.stdout).toMatch(/^NAME\s+STATUS\s+MESSAGE\s+ERROR\n/);
    expect(r.stdout).toMatch(/\ncontroller-manager\s+Healthy\s+ok\s*\n/);
    expect(r.stdout).toMatch(/\netcd-0\s+Healthy\s+\{"health":"true","reason":""\}\s*\n/);
    expect(r.stdout).toMatch(/\nscheduler\s+(Healthy|Unhealthy)/);
  });
});
