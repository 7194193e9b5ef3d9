/**
 * `@kubernetes/client-node` against custom resources (k8s.io, HTTPS): the CRD created through
 * ApiextensionsV1Api, its objects through CustomObjectsApi (create, list, merge patch, status,
 * scale, apply, delete), and an informer over them keeping its cache in sync.
 */
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { cronTabCrd } from './fixtures.js';

async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const group = 'stable.example.com';
const version = 'v1';
const plural = 'crontabs';
const namespace = 'default';

describe('client-node with a CustomResourceDefinition', () => {
  let s: TestServer;
  let kc: k8s.KubeConfig;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io', tls: true });
    kc = new k8s.KubeConfig();
    kc.loadFromString(s.server.kubeconfig());
  });
  afterAll(() => s.close());

  it('creates the CRD and drives its objects with CustomObjectsApi and an informer', async () => {
    const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);
    // Posted as JSON: client-node's model would drop the x-kubernetes-* keys of a plain object.
    const crd = JSON.parse(JSON.stringify(cronTabCrd('x-kubernetes-')).replaceAll('apiextensions.orch.io', 'apiextensions.k8s.io')) as Record<string, unknown>;
    expect((await s.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    await eventually(async () => {
      const got = await ext.readCustomResourceDefinition({ name: 'crontabs.stable.example.com' });
      return got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? got : undefined;
    }, 'Established');
    // client-node reads the CRD back into its model, the int-or-string marker included.
    const read = await ext.readCustomResourceDefinition({ name: 'crontabs.stable.example.com' });
    expect(read.spec.versions[0]?.schema?.openAPIV3Schema?.properties?.spec?.properties?.size?.x_kubernetes_int_or_string).toBe(true);
    expect(read.status?.acceptedNames?.kind).toBe('CronTab');

    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const informer = k8s.makeInformer(kc, `/apis/${group}/${version}/namespaces/${namespace}/${plural}`, () =>
      custom.listNamespacedCustomObject({ group, version, namespace, plural }) as Promise<k8s.KubernetesListObject<k8s.KubernetesObject>>,
    );
    const log: string[] = [];
    informer.on('add', (o) => log.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => log.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => log.push(`delete ${o.metadata?.name}`));
    await informer.start();
    try {
      const created = (await custom.createNamespacedCustomObject({
        group, version, namespace, plural,
        body: { apiVersion: `${group}/${version}`, kind: 'CronTab', metadata: { name: 'nightly' }, spec: { cronSpec: '0 3 * * *', image: 'backup:1' } },
      })) as any;
      expect(created.spec).toEqual({ cronSpec: '0 3 * * *', image: 'backup:1', replicas: 1 });
      const list = (await custom.listNamespacedCustomObject({ group, version, namespace, plural })) as any;
      expect(list.kind).toBe('CronTabList');
      await custom.patchNamespacedCustomObject(
        { group, version, namespace, plural, name: 'nightly', body: { spec: { image: 'backup:2' } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      );
      const status = (await custom.patchNamespacedCustomObjectStatus(
        { group, version, namespace, plural, name: 'nightly', body: { status: { replicas: 1 } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      )) as any;
      expect(status.status).toEqual({ replicas: 1 });
      const scale = (await custom.getNamespacedCustomObjectScale({ group, version, namespace, plural, name: 'nightly' })) as any;
      expect(scale).toMatchObject({ kind: 'Scale', spec: { replicas: 1 }, status: { replicas: 1 } });
      const applied = (await custom.patchNamespacedCustomObject(
        { group, version, namespace, plural, name: 'applied', fieldManager: 'tests', body: { apiVersion: `${group}/${version}`, kind: 'CronTab', metadata: { name: 'applied' }, spec: { cronSpec: '* * * * *' } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply),
      )) as any;
      expect(applied.metadata.managedFields[0]).toMatchObject({ manager: 'tests', operation: 'Apply' });
      await custom.deleteNamespacedCustomObject({ group, version, namespace, plural, name: 'applied' });
      await eventually(() => (log.includes('delete applied') ? true : undefined), 'the informer to see the delete');
      expect(log).toEqual(['add nightly', 'update nightly', 'update nightly', 'add applied', 'delete applied']);
      expect(informer.list(namespace).map((o) => o.metadata?.name)).toEqual(['nightly']);
    } finally {
      await informer.stop();
    }
  });
});
