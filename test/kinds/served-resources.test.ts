/**
 * Under `--api-domain=k8s.io` the server serves exactly the resources (and subresources) of a
 * Kubernetes 1.25 kube-apiserver with its default settings and no extension APIs (no aggregated
 * API servers, no custom resources): the list below, typed in from Kubernetes' published 1.25 API.
 * Entries marked `missing` are not served yet; the test fails if one of them is served (remove the
 * mark), if anything else is absent, or if anything not on the list is served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Entry {
  /** `v1` for the core group, else `group/version`. */
  gv: string;
  /** The resource, or `resource/subresource`. */
  name: string;
  /** For resources (not subresources): namespaced or cluster-wide. */
  namespaced?: boolean;
  /** Why it is not served yet; the issue section that brings it. */
  missing?: string;
}

const NS = true;
const CLUSTER = false;
const res = (gv: string, name: string, namespaced: boolean, missing?: string): Entry => ({ gv, name, namespaced, ...(missing ? { missing } : {}) });
const sub = (gv: string, name: string, missing?: string): Entry => ({ gv, name, ...(missing ? { missing } : {}) });

const NODE_AGENT = 'issue 15 §2 (needs a node agent)';
const EXTENSIONS = 'custom resources and API aggregation';

/** Kubernetes 1.25, default feature gates and runtime config. */
const KUBERNETES_1_25: Entry[] = [
  res('v1', 'bindings', NS),
  res('v1', 'componentstatuses', CLUSTER),
  res('v1', 'configmaps', NS),
  res('v1', 'endpoints', NS),
  res('v1', 'events', NS),
  res('v1', 'limitranges', NS),
  res('v1', 'namespaces', CLUSTER),
  sub('v1', 'namespaces/finalize'),
  sub('v1', 'namespaces/status'),
  res('v1', 'nodes', CLUSTER),
  sub('v1', 'nodes/proxy', NODE_AGENT),
  sub('v1', 'nodes/status'),
  res('v1', 'persistentvolumeclaims', NS),
  sub('v1', 'persistentvolumeclaims/status'),
  res('v1', 'persistentvolumes', CLUSTER),
  sub('v1', 'persistentvolumes/status'),
  res('v1', 'pods', NS),
  sub('v1', 'pods/attach', NODE_AGENT),
  sub('v1', 'pods/binding'),
  sub('v1', 'pods/ephemeralcontainers'),
  sub('v1', 'pods/eviction'),
  sub('v1', 'pods/exec', NODE_AGENT),
  sub('v1', 'pods/log', NODE_AGENT),
  sub('v1', 'pods/portforward', NODE_AGENT),
  sub('v1', 'pods/proxy', NODE_AGENT),
  sub('v1', 'pods/status'),
  res('v1', 'podtemplates', NS),
  res('v1', 'replicationcontrollers', NS),
  sub('v1', 'replicationcontrollers/scale'),
  sub('v1', 'replicationcontrollers/status'),
  res('v1', 'resourcequotas', NS),
  sub('v1', 'resourcequotas/status'),
  res('v1', 'secrets', NS),
  res('v1', 'serviceaccounts', NS),
  sub('v1', 'serviceaccounts/token'),
  res('v1', 'services', NS),
  sub('v1', 'services/proxy', NODE_AGENT),
  sub('v1', 'services/status'),

  res('admissionregistration.k8s.io/v1', 'mutatingwebhookconfigurations', CLUSTER),
  res('admissionregistration.k8s.io/v1', 'validatingwebhookconfigurations', CLUSTER),
  res('apiextensions.k8s.io/v1', 'customresourcedefinitions', CLUSTER),
  sub('apiextensions.k8s.io/v1', 'customresourcedefinitions/status'),
  res('apiregistration.k8s.io/v1', 'apiservices', CLUSTER, EXTENSIONS),
  sub('apiregistration.k8s.io/v1', 'apiservices/status', EXTENSIONS),
  res('apps/v1', 'controllerrevisions', NS),
  res('apps/v1', 'daemonsets', NS),
  sub('apps/v1', 'daemonsets/status'),
  res('apps/v1', 'deployments', NS),
  sub('apps/v1', 'deployments/scale'),
  sub('apps/v1', 'deployments/status'),
  res('apps/v1', 'replicasets', NS),
  sub('apps/v1', 'replicasets/scale'),
  sub('apps/v1', 'replicasets/status'),
  res('apps/v1', 'statefulsets', NS),
  sub('apps/v1', 'statefulsets/scale'),
  sub('apps/v1', 'statefulsets/status'),
  res('authentication.k8s.io/v1', 'tokenreviews', CLUSTER),
  res('authorization.k8s.io/v1', 'localsubjectaccessreviews', NS),
  res('authorization.k8s.io/v1', 'selfsubjectaccessreviews', CLUSTER),
  res('authorization.k8s.io/v1', 'selfsubjectrulesreviews', CLUSTER),
  res('authorization.k8s.io/v1', 'subjectaccessreviews', CLUSTER),
  res('autoscaling/v1', 'horizontalpodautoscalers', NS),
  sub('autoscaling/v1', 'horizontalpodautoscalers/status'),
  res('autoscaling/v2', 'horizontalpodautoscalers', NS),
  sub('autoscaling/v2', 'horizontalpodautoscalers/status'),
  res('autoscaling/v2beta2', 'horizontalpodautoscalers', NS),
  sub('autoscaling/v2beta2', 'horizontalpodautoscalers/status'),
  res('batch/v1', 'cronjobs', NS),
  sub('batch/v1', 'cronjobs/status'),
  res('batch/v1', 'jobs', NS),
  sub('batch/v1', 'jobs/status'),
  res('certificates.k8s.io/v1', 'certificatesigningrequests', CLUSTER),
  sub('certificates.k8s.io/v1', 'certificatesigningrequests/approval'),
  sub('certificates.k8s.io/v1', 'certificatesigningrequests/status'),
  res('coordination.k8s.io/v1', 'leases', NS),
  res('discovery.k8s.io/v1', 'endpointslices', NS),
  res('events.k8s.io/v1', 'events', NS),
  res('flowcontrol.apiserver.k8s.io/v1beta1', 'flowschemas', CLUSTER),
  sub('flowcontrol.apiserver.k8s.io/v1beta1', 'flowschemas/status'),
  res('flowcontrol.apiserver.k8s.io/v1beta1', 'prioritylevelconfigurations', CLUSTER),
  sub('flowcontrol.apiserver.k8s.io/v1beta1', 'prioritylevelconfigurations/status'),
  res('flowcontrol.apiserver.k8s.io/v1beta2', 'flowschemas', CLUSTER),
  sub('flowcontrol.apiserver.k8s.io/v1beta2', 'flowschemas/status'),
  res('flowcontrol.apiserver.k8s.io/v1beta2', 'prioritylevelconfigurations', CLUSTER),
  sub('flowcontrol.apiserver.k8s.io/v1beta2', 'prioritylevelconfigurations/status'),
  res('networking.k8s.io/v1', 'ingressclasses', CLUSTER),
  res('networking.k8s.io/v1', 'ingresses', NS),
  sub('networking.k8s.io/v1', 'ingresses/status'),
  res('networking.k8s.io/v1', 'networkpolicies', NS),
  res('node.k8s.io/v1', 'runtimeclasses', CLUSTER),
  res('policy/v1', 'poddisruptionbudgets', NS),
  sub('policy/v1', 'poddisruptionbudgets/status'),
  res('rbac.authorization.k8s.io/v1', 'clusterrolebindings', CLUSTER),
  res('rbac.authorization.k8s.io/v1', 'clusterroles', CLUSTER),
  res('rbac.authorization.k8s.io/v1', 'rolebindings', NS),
  res('rbac.authorization.k8s.io/v1', 'roles', NS),
  res('scheduling.k8s.io/v1', 'priorityclasses', CLUSTER),
  res('storage.k8s.io/v1', 'csidrivers', CLUSTER),
  res('storage.k8s.io/v1', 'csinodes', CLUSTER),
  res('storage.k8s.io/v1', 'csistoragecapacities', NS),
  res('storage.k8s.io/v1', 'storageclasses', CLUSTER),
  res('storage.k8s.io/v1', 'volumeattachments', CLUSTER),
  sub('storage.k8s.io/v1', 'volumeattachments/status'),
  res('storage.k8s.io/v1beta1', 'csistoragecapacities', NS),
];

const key = (e: { gv: string; name: string }): string => `${e.gv} ${e.name}`;

describe('served resources equal kube-apiserver 1.25 without extension APIs (k8s.io)', () => {
  let s: TestServer;
  let served: Map<string, { namespaced: boolean }>;
  beforeAll(async () => {
    // Over TLS, as the product serves: serviceaccounts/token needs the serving key (or a signing key) to sign with.
    s = await startTestServer({ apiDomain: 'k8s.io', tls: true });
    served = new Map();
    const collect = async (gv: string, path: string) => {
      for (const r of (await s.get(path)).body.resources as { name: string; namespaced: boolean }[]) served.set(key({ gv, name: r.name }), { namespaced: r.namespaced });
    };
    for (const v of (await s.get('/api')).body.versions as string[]) await collect(v, `/api/${v}`);
    for (const g of (await s.get('/apis')).body.groups as { versions: { groupVersion: string }[] }[]) {
      for (const v of g.versions) await collect(v.groupVersion, `/apis/${v.groupVersion}`);
    }
  });
  afterAll(() => s.close());

  it('serves nothing that kube-apiserver 1.25 does not', () => {
    const known = new Set(KUBERNETES_1_25.map(key));
    expect([...served.keys()].filter((k) => !known.has(k))).toEqual([]);
  });

  it('serves every resource of kube-apiserver 1.25 not marked missing, in its scope', () => {
    const absent = KUBERNETES_1_25.filter((e) => !e.missing && !served.has(key(e))).map(key);
    expect(absent).toEqual([]);
    const wrongScope = KUBERNETES_1_25.filter((e) => e.namespaced !== undefined && served.has(key(e)) && served.get(key(e))?.namespaced !== e.namespaced).map(key);
    expect(wrongScope).toEqual([]);
  });

  it('serves none of those marked missing (a served one must lose its mark)', () => {
    const missing = KUBERNETES_1_25.filter((e) => e.missing);
    console.log(`not served yet (${missing.length}):\n  ${missing.map((e) => `${key(e)} (${e.missing})`).join('\n  ')}`);
    expect(missing.filter((e) => served.has(key(e))).map(key)).toEqual([]);
  });
});
