/**
 * Document 1's "Removed and scheduled-for-removal versions": the group versions no longer served
 * answer 404 on every path and appear nowhere in discovery, under the default domain and k8s.io.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiNames, type ApiNames } from '../../src/machinery/api-names.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Removed {
  group: (n: ApiNames) => string;
  version: string;
  resources: { name: string; namespaced: boolean }[];
}

const REMOVED: Removed[] = [
  {
    group: (n) => n.group('admissionregistration'),
    version: 'v1beta1',
    resources: [
      { name: 'mutatingwebhookconfigurations', namespaced: false },
      { name: 'validatingwebhookconfigurations', namespaced: false },
    ],
  },
  { group: (n) => n.group('apiextensions'), version: 'v1beta1', resources: [{ name: 'customresourcedefinitions', namespaced: false }] },
  { group: () => 'batch', version: 'v1beta1', resources: [{ name: 'cronjobs', namespaced: true }] },
  { group: (n) => n.group('discovery'), version: 'v1beta1', resources: [{ name: 'endpointslices', namespaced: true }] },
  { group: (n) => n.group('events'), version: 'v1beta1', resources: [{ name: 'events', namespaced: true }] },
  { group: () => 'autoscaling', version: 'v2beta1', resources: [{ name: 'horizontalpodautoscalers', namespaced: true }] },
  {
    group: () => 'policy',
    version: 'v1beta1',
    resources: [
      { name: 'poddisruptionbudgets', namespaced: true },
      { name: 'podsecuritypolicies', namespaced: false },
    ],
  },
  { group: (n) => n.group('node'), version: 'v1beta1', resources: [{ name: 'runtimeclasses', namespaced: false }] },
];

describe.each(['orch.io', 'k8s.io'])('removed versions are not served (%s)', (domain) => {
  const names = createApiNames(domain);
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain: domain });
  });
  afterAll(() => s.close());

  it.each(REMOVED.map((r) => [`${r.group(names)}/${r.version}`, r] as const))('%s answers 404 and is absent from discovery', async (gv, r) => {
    const group = r.group(names);
    expect((await s.get(`/apis/${gv}`)).status).toBe(404);
    for (const res of r.resources) {
      const collection = res.namespaced ? `/apis/${gv}/namespaces/default/${res.name}` : `/apis/${gv}/${res.name}`;
      expect((await s.get(collection)).status, collection).toBe(404);
      expect((await s.get(`${collection}/x`)).status).toBe(404);
      expect((await s.post(collection, { metadata: { name: 'x' } })).status).toBe(404);
      expect((await s.get(`/apis/${gv}/${res.name}?watch=true`)).status).toBe(404);
      if (res.namespaced) expect((await s.get(`/apis/${gv}/${res.name}`)).status).toBe(404);
    }
    const groups = (await s.get('/apis')).body.groups as { name: string; versions: { version: string }[]; preferredVersion: { version: string } }[];
    const listed = groups.find((g) => g.name === group);
    expect(listed?.versions.map((v) => v.version) ?? []).not.toContain(r.version);
    expect(listed?.preferredVersion.version).not.toBe(r.version);
    const groupDoc = await s.get(`/apis/${group}`);
    if (groupDoc.status === 200) expect(groupDoc.body.versions.map((v: any) => v.version)).not.toContain(r.version);
    else expect(groupDoc.status).toBe(404);
  });

  it('still serves the versions that replace them where this server has the kind (flowcontrol v1beta2 and v1beta1)', async () => {
    const g = names.group('flowcontrol.apiserver');
    expect((await s.get(`/apis/${g}/v1beta2/flowschemas`)).status).toBe(200);
    expect((await s.get(`/apis/${g}/v1beta1/flowschemas`)).status).toBe(200);
  });
});
