/**
 * The core kinds of this change through a real kubectl under `--api-domain=k8s.io`: short names,
 * apply with client-side validation against our OpenAPI, field selectors on events, and events/v1.
 * Skips, saying why, when kubectl is not installed.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBECTL, kubectlRuns, withKubectlServer } from '../../helpers/kubectl.js';

const available = await kubectlRuns(DEFAULT_KUBECTL);

describe.skipIf(!available)('kubectl with nodes, volumes, claims, service accounts and events (k8s.io)', () => {
  const { kubectl, manifest } = withKubectlServer('kubectl-core-', { apiDomain: 'k8s.io' });

  it('applies a volume, a claim and a service account, and lists them by short name', async () => {
    const file = manifest(
      'storage.yaml',
      `apiVersion: v1
kind: PersistentVolume
metadata:
  name: data
spec:
  capacity:
    storage: 2048Mi
  accessModes: [ReadWriteOnce]
  hostPath:
    path: /srv/data
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: default
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: builder
  namespace: default
`,
    );
    const applied = await kubectl('apply', '-f', file);
    expect(applied.code, applied.stderr).toBe(0);
    const pv = await kubectl('get', 'pv', 'data', '-o', 'jsonpath={.spec.capacity.storage} {.spec.persistentVolumeReclaimPolicy} {.status.phase}');
    expect(pv.stdout).toBe('2Gi Retain Pending');
    const pvc = await kubectl('get', 'pvc', 'data', '-o', 'jsonpath={.spec.volumeMode} {.status.phase}');
    expect(pvc.stdout).toBe('Filesystem Pending');
    const sa = await kubectl('get', 'sa', '-o', 'name');
    expect(sa.stdout).toContain('serviceaccount/builder');
  });

  it('refuses an invalid volume with the server message', async () => {
    const file = manifest('bad.yaml', `apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: bad\nspec:\n  capacity:\n    storage: 1Gi\n  accessModes: [ReadWriteOnce]\n`);
    const r = await kubectl('create', '-f', file);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec: Required value: must specify a volume type');
  });

  it('registers a node and lists it with `no`', async () => {
    const file = manifest('node.yaml', `apiVersion: v1\nkind: Node\nmetadata:\n  name: worker-1\nspec:\n  podCIDR: 10.244.1.0/24\n`);
    expect((await kubectl('create', '-f', file)).code).toBe(0);
    const r = await kubectl('get', 'no', 'worker-1', '-o', 'jsonpath={.spec.podCIDRs[0]}');
    expect(r.stdout).toBe('10.244.1.0/24');
  });

  it('creates an events/v1 event and finds it as a core event by field selector', async () => {
    const file = manifest(
      'event.yaml',
      `apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: data.1
  namespace: default
eventTime: "2024-05-06T07:08:09.000001Z"
regarding:
  kind: PersistentVolumeClaim
  namespace: default
  name: data
reportingController: example.com/binder
reportingInstance: binder-0
action: Binding
reason: WaitForFirstConsumer
note: waiting for a consumer
type: Normal
`,
    );
    const created = await kubectl('create', '-f', file);
    expect(created.code, created.stderr).toBe(0);
    const got = await kubectl('get', 'ev', '--field-selector', 'involvedObject.name=data,reason=WaitForFirstConsumer', '-o', 'jsonpath={.items[*].message}');
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toBe('waiting for a consumer');
    const v1 = await kubectl('get', 'events.v1.events.k8s.io', 'data.1', '-o', 'jsonpath={.note} {.regarding.kind}');
    expect(v1.stdout).toBe('waiting for a consumer PersistentVolumeClaim');
  });
});
