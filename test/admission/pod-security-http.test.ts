/**
 * PodSecurity over HTTP: enforce refuses with Kubernetes' 403, warn answers with Warning headers,
 * workloads' templates are warned about but never refused, bad labels are 422, tightening a
 * namespace's enforce level names the existing pods that break it, and the admission configuration
 * file's PodSecurityConfiguration sets defaults and exemptions.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Reply, type TestServer } from '../helpers/server.js';
import { auditIdOf, eventsOf, readEvents } from '../audit/helpers.js';
import { created, forbidden, MERGE, pod } from './helpers.js';

const warningsOf = (r: Reply): string[] => {
  const h = r.headers.warning;
  const all = Array.isArray(h) ? h : h ? [h] : [];
  // `299 - "text"`, the text with \" and \\ escaped.
  return all.flatMap((x) => x.split(/,(?=\s*299 )/)).map((x) => JSON.parse(x.trim().replace(/^299 - /, '')) as string);
};
const nsWith = (name: string, labels: Record<string, string>) => ({ metadata: { name, labels } });
const privileged = (name: string) => pod(name, { containers: [{ name: 'app', image: 'nginx', securityContext: { privileged: true } }] });
const restrictedPod = (name: string) =>
  pod(name, {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [{ name: 'app', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
  });

describe('PodSecurity', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await created(s.post('/api/v1/namespaces', nsWith('strict', { 'pod-security.orch.io/enforce': 'restricted' })));
    await created(s.post('/api/v1/namespaces', nsWith('warned', { 'pod-security.orch.io/warn': 'baseline', 'pod-security.orch.io/warn-version': 'v1.25' })));
  });
  afterAll(() => s.close());

  it("refuses what the enforce level forbids, in Kubernetes' words", async () => {
    await forbidden(
      s.post('/api/v1/namespaces/strict/pods', pod('bare')),
      'pods "bare" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    await forbidden(
      s.post('/api/v1/namespaces/strict/pods', pod('host', { hostNetwork: true, volumes: [{ name: 'root', hostPath: { path: '/' } }], securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'app', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }] })),
      'pods "host" is forbidden: violates PodSecurity "restricted:latest": host namespaces (hostNetwork=true), restricted volume types (volume "root" uses restricted volume type "hostPath")',
    );
    const ok = await s.post('/api/v1/namespaces/strict/pods', restrictedPod('good'));
    expect(ok.status, ok.text).toBe(201);
    expect(ok.headers.warning).toBeUndefined();
  });

  it('warns for the warn level and admits', async () => {
    const r = await s.post('/api/v1/namespaces/warned/pods', privileged('priv'));
    expect(r.status, r.text).toBe(201);
    expect(warningsOf(r)).toEqual(['would violate PodSecurity "baseline:v1.25": privileged (container "app" must not set securityContext.privileged=true)']);
  });

  it('only warns about a workload template, even under enforce', async () => {
    const deployment = {
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { hostPID: true, containers: [{ name: 'app', image: 'nginx' }] } } },
    };
    const r = await s.post('/apis/apps/v1/namespaces/strict/deployments', deployment);
    expect(r.status, r.text).toBe(201);
    expect(warningsOf(r)).toEqual([
      'would violate PodSecurity "restricted:latest": host namespaces (hostPID=true), allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    ]);
  });

  it('refuses bad labels on a namespace with 422', async () => {
    const r = await s.post('/api/v1/namespaces', nsWith('bad', { 'pod-security.orch.io/enforce': 'strict', 'pod-security.orch.io/audit-version': '1.25' }));
    expect([r.status, r.body.reason, r.body.message]).toEqual([
      422,
      'Invalid',
      'Namespace "bad" is invalid: [metadata.labels[pod-security.orch.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.orch.io/audit-version]: Invalid value: "1.25": must be "latest" or "v1.x"]',
    ]);
  });

  it('names the existing pods a tightened enforce level would refuse', async () => {
    await created(s.post('/api/v1/namespaces', nsWith('later', {})));
    for (const name of ['b', 'a', 'c']) await created(s.post('/api/v1/namespaces/later/pods', privileged(name)));
    await created(s.post('/api/v1/namespaces/later/pods', pod('plain')));
    const r = await s.patch('/api/v1/namespaces/later', { metadata: { labels: { 'pod-security.orch.io/enforce': 'baseline' } } }, MERGE);
    expect(r.status, r.text).toBe(200);
    expect(warningsOf(r)).toEqual(['existing pods in namespace "later" violate the new PodSecurity enforce level "baseline:latest"', 'a (and 2 other pods): privileged']);
    // Loosening says nothing.
    const loose = await s.patch('/api/v1/namespaces/later', { metadata: { labels: { 'pod-security.orch.io/enforce': 'privileged' } } }, MERGE);
    expect(loose.headers.warning).toBeUndefined();
  });
});

describe('PodSecurity configured by the admission configuration file', () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pod-security-'));
    const file = join(dir, 'admission.yaml');
    writeFileSync(
      file,
      `apiVersion: apiserver.config.orch.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.orch.io/v1
    kind: PodSecurityConfiguration
    defaults:
      enforce: baseline
    exemptions:
      namespaces: [free]
      usernames: []
`,
    );
    writeFileSync(join(dir, 'policy.yaml'), 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  resources: [{group: "", resources: [pods]}]\n');
    s = await startTestServer({ admission: { configFile: file }, audit: { policyFile: join(dir, 'policy.yaml'), log: { path: join(dir, 'audit.log') } } });
    await created(s.post('/api/v1/namespaces', nsWith('free', {})));
    await created(s.post('/api/v1/namespaces', nsWith('held', {})));
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('enforces the default level except in exempt namespaces', async () => {
    await forbidden(s.post('/api/v1/namespaces/held/pods', privileged('p')), 'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "app" must not set securityContext.privileged=true)');
    await created(s.post('/api/v1/namespaces/free/pods', privileged('p')));
  });

  it("writes the audit level's violations and the enforced policy into the request's audit event", async () => {
    await created(s.post('/api/v1/namespaces', nsWith('audited', { 'pod-security.orch.io/audit': 'restricted' })));
    const r = await s.post('/api/v1/namespaces/audited/pods', pod('plain'));
    expect(r.status, r.text).toBe(201);
    const events = await eventsOf(() => readEvents(join(dir, 'audit.log')), auditIdOf(r.headers));
    expect(events.at(-1)?.annotations).toMatchObject({
      'pod-security.orch.io/enforce-policy': 'baseline:latest',
      'pod-security.orch.io/audit-violations': expect.stringMatching(/^would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false/),
    });
  });
});
