/**
 * `@kubernetes/client-node` 1.4 (the official JavaScript client) against the real CLI server, in both
 * API domains: its typed APIs (whose paths carry Kubernetes' group names, so under orch.io only the
 * core and apps groups are reachable through them), patches of every type it offers, `Watch`, and an
 * informer keeping its cache in sync. The orch.io groups go through discovery: `KubernetesObjectApi`
 * resolves a kind to its resource by reading /apis/<group>/<version>, `CustomObjectsApi` takes the
 * group name. A second, in-process server with a tiny history and short watches drives the 410 path:
 * a watch from a compacted version ends with an ERROR event, and the informer lists again.
 */
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { ensureBuilt, startCli, type CliServer } from '../helpers/cli.js';

/** A KubeConfig built in code; client-node 1.x refuses plain http unless skipTLSVerify is set. */
/** The client configured from the kubeconfig the server hands out: HTTPS, its CA, the admin certificate. */
function kubeConfig(kubeconfigText: string): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(kubeconfigText);
  expect(kc.getCurrentCluster()?.server).toMatch(/^https:/);
  return kc;
}

const patchAs = (type: k8s.PatchStrategy) => k8s.setHeaderOptions('Content-Type', type);

/** The ApiException a call rejects with (client-node throws for every non-2xx answer). */
async function apiError(call: Promise<unknown>): Promise<{ code: number; body: any }> {
  try {
    await call;
  } catch (e) {
    if (e instanceof k8s.ApiException) return { code: e.code, body: typeof e.body === 'string' ? JSON.parse(e.body) : e.body };
    throw e;
  }
  throw new Error('the call succeeded; an error was expected');
}

/** Polls `check` until it returns a value other than undefined. */
async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Seen {
  type: string;
  name: string | undefined;
  resourceVersion: string | undefined;
  data?: Record<string, string> | undefined;
  kind?: string | undefined;
  apiVersion?: string | undefined;
  code?: number | undefined;
}

/** Opens a client-node Watch collecting every event; `done` resolves with what ended it. */
async function collectWatch(kc: k8s.KubeConfig, path: string, query: Record<string, string | boolean | number | undefined>) {
  const events: Seen[] = [];
  let finish!: (err: unknown) => void;
  const done = new Promise<unknown>((r) => (finish = r));
  const controller = await new k8s.Watch(kc).watch(
    path,
    query,
    (type, obj) => events.push({ type, name: obj?.metadata?.name, resourceVersion: obj?.metadata?.resourceVersion, data: obj?.data, kind: obj?.kind, apiVersion: obj?.apiVersion, code: obj?.code }),
    (err) => finish(err),
  );
  return { events, done, stop: () => controller.abort() };
}

const cmBody = (name: string, data: Record<string, string> = {}, labels: Record<string, string> = { suite: 'client-node' }): k8s.V1ConfigMap => ({
  metadata: { name, labels },
  data,
});

const deploymentBody = (name: string, replicas: number): k8s.V1Deployment => ({
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
  },
});

describe.each(['orch.io', 'k8s.io'])('@kubernetes/client-node against the CLI server (--api-domain=%s)', (domain) => {
  const k8sDomain = domain === 'k8s.io';
  const nameLabel = k8sDomain ? 'kubernetes.io/metadata.name' : 'orch.io/metadata.name';
  const systemNs = k8sDomain ? 'kube-system' : 'orch-system';
  const networking = `networking.${domain}`;
  const rbacGroup = `rbac.authorization.${domain}`;
  let server: CliServer;
  let kc: k8s.KubeConfig;
  let core: k8s.CoreV1Api;
  let apps: k8s.AppsV1Api;
  const ns = 'client-node';

  beforeAll(async () => {
    console.log(`client-node e2e (${domain}): ${ensureBuilt()}`);
    server = await startCli([`--api-domain=${domain}`], { tls: true });
    kc = kubeConfig(server.kubeconfig());
    core = kc.makeApiClient(k8s.CoreV1Api);
    apps = kc.makeApiClient(k8s.AppsV1Api);
    await core.createNamespace({ body: { metadata: { name: ns } } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('CoreV1Api: namespaces are created, listed and read, with the domain`s name label', async () => {
    const created = await core.createNamespace({ body: { metadata: { name: 'typed-ns' } } });
    expect(created.metadata?.labels).toEqual({ [nameLabel]: 'typed-ns' });
    expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date);
    const list = await core.listNamespace();
    expect(list.items.map((n) => n.metadata?.name)).toEqual(expect.arrayContaining(['default', systemNs, ns, 'typed-ns']));
    const read = await core.readNamespace({ name: 'typed-ns' });
    expect(read.status?.phase).toBe('Active');
    const labelled = await core.listNamespace({ labelSelector: `${nameLabel}=typed-ns` });
    expect(labelled.items.map((n) => n.metadata?.name)).toEqual(['typed-ns']);
    await core.deleteNamespace({ name: 'typed-ns' });
    const gone = await eventually(async () => {
      const e = await apiError(core.readNamespace({ name: 'typed-ns' })).catch(() => undefined);
      return e?.code === 404 ? e : undefined;
    }, 'the namespace to be finalized and removed');
    expect(gone.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  it('CoreV1Api: configmaps through create, list with selectors, replace, a conflict, and delete', async () => {
    await core.createNamespacedConfigMap({ namespace: ns, body: cmBody('cm-a', { k: 'a' }) });
    await core.createNamespacedConfigMap({ namespace: ns, body: cmBody('cm-b', { k: 'b' }, { suite: 'other' }) });
    const dup = await apiError(core.createNamespacedConfigMap({ namespace: ns, body: cmBody('cm-a') }));
    expect(dup.code).toBe(409);
    expect(dup.body).toMatchObject({ reason: 'AlreadyExists', details: { name: 'cm-a', kind: 'configmaps' } });

    const list = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'suite=client-node' });
    expect(list.items.map((c) => c.metadata?.name)).toEqual(['cm-a']);
    expect(list.metadata?.resourceVersion).toMatch(/^\d+$/);
    const byField = await core.listNamespacedConfigMap({ namespace: ns, fieldSelector: 'metadata.name=cm-b' });
    expect(byField.items.map((c) => c.metadata?.name)).toEqual(['cm-b']);
    const all = await core.listConfigMapForAllNamespaces({ labelSelector: 'suite' });
    expect(all.items.map((c) => `${c.metadata?.namespace}/${c.metadata?.name}`).sort()).toEqual([`${ns}/cm-a`, `${ns}/cm-b`]);
    const page = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'suite', limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.metadata?._continue).toBeTruthy();
    const rest = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'suite', limit: 1, _continue: page.metadata?._continue });
    expect(rest.items.map((c) => c.metadata?.name)).not.toEqual(page.items.map((c) => c.metadata?.name));

    const current = await core.readNamespacedConfigMap({ namespace: ns, name: 'cm-a' });
    const replaced = await core.replaceNamespacedConfigMap({ namespace: ns, name: 'cm-a', body: { ...current, data: { k: 'replaced' } } });
    expect(replaced.data).toEqual({ k: 'replaced' });
    expect(Number(replaced.metadata?.resourceVersion)).toBeGreaterThan(Number(current.metadata?.resourceVersion));
    const stale = await apiError(core.replaceNamespacedConfigMap({ namespace: ns, name: 'cm-a', body: { ...current, data: { k: 'stale' } } }));
    expect(stale.code).toBe(409);
    expect(stale.body.reason).toBe('Conflict');

    await core.deleteNamespacedConfigMap({ namespace: ns, name: 'cm-b' });
    expect((await apiError(core.readNamespacedConfigMap({ namespace: ns, name: 'cm-b' }))).code).toBe(404);
  });

  it('patches a configmap with each patch type client-node offers', async () => {
    await core.createNamespacedConfigMap({ namespace: ns, body: cmBody('patched', { base: '0' }) });
    const merge = await core.patchNamespacedConfigMap({ namespace: ns, name: 'patched', body: { data: { merge: '1' } } }, patchAs(k8s.PatchStrategy.MergePatch));
    expect(merge.data).toEqual({ base: '0', merge: '1' });
    const json = await core.patchNamespacedConfigMap(
      { namespace: ns, name: 'patched', body: [{ op: 'remove', path: '/data/base' }, { op: 'add', path: '/data/json', value: '2' }] },
      patchAs(k8s.PatchStrategy.JsonPatch),
    );
    expect(json.data).toEqual({ merge: '1', json: '2' });
    const strategic = await core.patchNamespacedConfigMap(
      { namespace: ns, name: 'patched', body: { metadata: { labels: { strategic: 'yes' } }, data: { strategic: '3' } } },
      patchAs(k8s.PatchStrategy.StrategicMergePatch),
    );
    expect(strategic.data).toEqual({ merge: '1', json: '2', strategic: '3' });
    expect(strategic.metadata?.labels).toEqual({ suite: 'client-node', strategic: 'yes' });
    const applied = await core.patchNamespacedConfigMap(
      { namespace: ns, name: 'patched', fieldManager: 'client-node-e2e', force: true, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'patched' }, data: { applied: '4' } } },
      patchAs(k8s.PatchStrategy.ServerSideApply),
    );
    expect(applied.data).toEqual({ merge: '1', json: '2', strategic: '3', applied: '4' });
    const entry = applied.metadata?.managedFields?.find((m) => m.manager === 'client-node-e2e');
    expect(entry).toMatchObject({ operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1' });
    expect(entry?.fieldsV1).toEqual({ 'f:data': { 'f:applied': {} } });

    // A JSON patch whose test fails is the client's mistake: 422, and nothing changes.
    const failed = await apiError(
      core.patchNamespacedConfigMap({ namespace: ns, name: 'patched', body: [{ op: 'test', path: '/data/merge', value: 'nope' }] }, patchAs(k8s.PatchStrategy.JsonPatch)),
    );
    expect(failed.code).toBe(422);
    expect((await core.readNamespacedConfigMap({ namespace: ns, name: 'patched' })).metadata?.resourceVersion).toBe(applied.metadata?.resourceVersion);
  });

  it('CoreV1Api: secrets, services and pods', async () => {
    const secret = await core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'creds' }, stringData: { password: 'hunter2' } } });
    expect(secret.type).toBe('Opaque');
    expect(secret.data).toEqual({ password: Buffer.from('hunter2').toString('base64') });
    expect(secret.stringData).toBeUndefined();

    const svc = await core.createNamespacedService({
      namespace: ns,
      body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] } },
    });
    expect(svc.spec?.type).toBe('ClusterIP');
    expect(svc.spec?.clusterIP).toMatch(/^10\.0\.0\.\d+$/);
    expect(svc.spec?.ports).toEqual([{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }]);
    const np = await core.createNamespacedService({
      namespace: ns,
      body: { metadata: { name: 'np' }, spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 81 }] } },
    });
    expect(np.spec?.ports?.[0]?.nodePort).toBeGreaterThanOrEqual(30000);

    const pod = await core.createNamespacedPod({
      namespace: ns,
      body: { metadata: { name: 'web-0', labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 8080 }] }] } },
    });
    expect(pod.spec?.containers[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' });
    expect(pod.spec?.restartPolicy).toBe('Always');
    const pods = await core.listNamespacedPod({ namespace: ns, labelSelector: 'app=web' });
    expect(pods.items.map((p) => p.metadata?.name)).toEqual(['web-0']);
    const status = await core.patchNamespacedPodStatus(
      { namespace: ns, name: 'web-0', body: { status: { phase: 'Running' } } },
      patchAs(k8s.PatchStrategy.MergePatch),
    );
    expect(status.status?.phase).toBe('Running');
    const invalid = await apiError(core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'bad' }, spec: { containers: [] } } }));
    expect(invalid.code).toBe(422);
    expect(invalid.body.reason).toBe('Invalid');
  });

  it('AppsV1Api: a deployment and its scale subresource, read, replaced and patched', async () => {
    const d = await apps.createNamespacedDeployment({ namespace: ns, body: deploymentBody('web', 1) });
    expect(d.spec?.strategy?.type).toBe('RollingUpdate');
    expect(d.metadata?.generation).toBe(1);
    const scale = await apps.readNamespacedDeploymentScale({ namespace: ns, name: 'web' });
    expect(scale).toMatchObject({ apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 1 } });
    const replaced = await apps.replaceNamespacedDeploymentScale({ namespace: ns, name: 'web', body: { ...scale, spec: { replicas: 3 } } });
    expect(replaced.spec?.replicas).toBe(3);
    const patched = await apps.patchNamespacedDeploymentScale({ namespace: ns, name: 'web', body: { spec: { replicas: 5 } } }, patchAs(k8s.PatchStrategy.MergePatch));
    expect(patched.spec?.replicas).toBe(5);
    const after = await apps.readNamespacedDeployment({ namespace: ns, name: 'web' });
    expect(after.spec?.replicas).toBe(5);
    expect(after.metadata?.generation).toBe(3);
    const strategic = await apps.patchNamespacedDeployment(
      { namespace: ns, name: 'web', body: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } } },
      patchAs(k8s.PatchStrategy.StrategicMergePatch),
    );
    expect(strategic.spec?.template.spec?.containers.map((c) => c.image)).toEqual(['nginx:1.28']);
    const list = await apps.listDeploymentForAllNamespaces();
    expect(list.items.map((x) => x.metadata?.name)).toContain('web');
  });

  it('Watch: ADDED, MODIFIED and DELETED arrive, and a watch resumes from a resourceVersion', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const start = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'suite=watched' });
    const w = await collectWatch(kc, path, { labelSelector: 'suite=watched', resourceVersion: start.metadata?.resourceVersion, allowWatchBookmarks: true });
    await core.createNamespacedConfigMap({ namespace: ns, body: cmBody('w1', { v: '1' }, { suite: 'watched' }) });
    await core.patchNamespacedConfigMap({ namespace: ns, name: 'w1', body: { data: { v: '2' } } }, patchAs(k8s.PatchStrategy.MergePatch));
    await core.deleteNamespacedConfigMap({ namespace: ns, name: 'w1' });
    const firstThree = await eventually(() => (w.events.filter((e) => e.type !== 'BOOKMARK').length >= 3 ? w.events.filter((e) => e.type !== 'BOOKMARK') : undefined), 'three watch events');
    expect(firstThree.map((e) => [e.type, e.name, e.data, e.kind])).toEqual([
      ['ADDED', 'w1', { v: '1' }, 'ConfigMap'],
      ['MODIFIED', 'w1', { v: '2' }, 'ConfigMap'],
      ['DELETED', 'w1', { v: '2' }, 'ConfigMap'],
    ]);
    w.stop();
    await w.done;

    // Writes while nobody watches; a watch from the last version seen delivers exactly them.
    const lastSeen = firstThree[2]?.resourceVersion;
    await core.createNamespacedConfigMap({ namespace: ns, body: cmBody('w2', { v: 'missed' }, { suite: 'watched' }) });
    await core.createNamespacedConfigMap({ namespace: ns, body: cmBody('w3', {}, { suite: 'elsewhere' }) });
    const resumed = await collectWatch(kc, path, { labelSelector: 'suite=watched', resourceVersion: lastSeen });
    await core.deleteNamespacedConfigMap({ namespace: ns, name: 'w2' });
    const replay = await eventually(() => (resumed.events.length >= 2 ? resumed.events : undefined), 'the resumed watch to replay');
    expect(replay.map((e) => [e.type, e.name])).toEqual([
      ['ADDED', 'w2'],
      ['DELETED', 'w2'],
    ]);
    expect(Number(replay[0]?.resourceVersion)).toBeGreaterThan(Number(lastSeen));
    resumed.stop();

    // A malformed selector is refused before the stream starts: the client sees the 400 status.
    const refused = await collectWatch(kc, path, { labelSelector: 'suite in ((' });
    expect(await refused.done).toMatchObject({ statusCode: 400 });
    expect(refused.events).toEqual([]);
  });

  it('an informer keeps its cache in sync through adds, updates and deletes', async () => {
    const infNs = 'informed';
    await core.createNamespace({ body: { metadata: { name: infNs } } });
    await core.createNamespacedConfigMap({ namespace: infNs, body: cmBody('before', { v: '0' }) });
    // Selected by the suite's label: the root CA publisher's ConfigMap arrives in the namespace too, when it will.
    const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${infNs}/configmaps`, () => core.listNamespacedConfigMap({ namespace: infNs, labelSelector: 'suite=client-node' }), 'suite=client-node');
    const log: string[] = [];
    const errors: unknown[] = [];
    informer.on('add', (o) => log.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => log.push(`update ${o.metadata?.name} ${JSON.stringify(o.data)}`));
    informer.on('delete', (o) => log.push(`delete ${o.metadata?.name}`));
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      expect(informer.list().map((o) => o.metadata?.name)).toEqual(['before']);
      await core.createNamespacedConfigMap({ namespace: infNs, body: cmBody('added', { v: '1' }) });
      await core.patchNamespacedConfigMap({ namespace: infNs, name: 'before', body: { data: { v: 'updated' } } }, patchAs(k8s.PatchStrategy.MergePatch));
      await core.deleteNamespacedConfigMap({ namespace: infNs, name: 'added' });
      await core.createNamespacedConfigMap({ namespace: infNs, body: cmBody('last', { v: '2' }) });
      await eventually(() => (informer.get('last', infNs) ? true : undefined), 'the informer to see the last write');
      expect(log).toEqual(['add before', 'add added', 'update before {"v":"updated"}', 'delete added', 'add last']);
      const server = await core.listNamespacedConfigMap({ namespace: infNs, labelSelector: 'suite=client-node' });
      const cached = informer.list(infNs);
      expect(cached.map((o) => [o.metadata?.name, o.metadata?.resourceVersion, o.data]).sort()).toEqual(
        server.items.map((o) => [o.metadata?.name, o.metadata?.resourceVersion, o.data]).sort(),
      );
      // makeInformer returns a ListWatch, whose resourceVersion is that of the last event it applied.
      expect((informer as k8s.ListWatch<k8s.V1ConfigMap>).latestResourceVersion()).toBe(informer.get('last', infNs)?.metadata?.resourceVersion);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });

  it('a label-selected informer across namespaces sees objects enter and leave its selection', async () => {
    await core.createNamespace({ body: { metadata: { name: 'selected' } } });
    const informer = k8s.makeInformer(kc, '/api/v1/configmaps', () => core.listConfigMapForAllNamespaces({ labelSelector: 'tier=front' }), 'tier=front');
    const log: string[] = [];
    informer.on('add', (o) => log.push(`add ${o.metadata?.namespace}/${o.metadata?.name}`));
    informer.on('update', (o) => log.push(`update ${o.metadata?.namespace}/${o.metadata?.name}`));
    informer.on('delete', (o) => log.push(`delete ${o.metadata?.namespace}/${o.metadata?.name}`));
    await informer.start();
    try {
      await core.createNamespacedConfigMap({ namespace: 'selected', body: cmBody('front', {}, { tier: 'front' }) });
      await core.createNamespacedConfigMap({ namespace: ns, body: cmBody('back', {}, { tier: 'back' }) });
      // Relabelled into the selection: the watch reports it as added; out of it: as deleted.
      await core.patchNamespacedConfigMap({ namespace: ns, name: 'back', body: { metadata: { labels: { tier: 'front' } } } }, patchAs(k8s.PatchStrategy.MergePatch));
      await core.patchNamespacedConfigMap({ namespace: 'selected', name: 'front', body: { metadata: { labels: { tier: 'back' } } } }, patchAs(k8s.PatchStrategy.MergePatch));
      await core.patchNamespacedConfigMap({ namespace: 'selected', name: 'front', body: { data: { unseen: 'yes' } } }, patchAs(k8s.PatchStrategy.MergePatch));
      await core.patchNamespacedConfigMap({ namespace: ns, name: 'back', body: { data: { seen: 'yes' } } }, patchAs(k8s.PatchStrategy.MergePatch));
      await eventually(() => (informer.get('back', ns)?.data?.seen ? true : undefined), 'the last selected write');
      expect(log).toEqual([`add selected/front`, `add ${ns}/back`, `delete selected/front`, `update ${ns}/back`]);
      expect(informer.list().map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`)).toEqual([`${ns}/back`]);
    } finally {
      await informer.stop();
    }
  });

  it(`KubernetesObjectApi resolves ${networking} and ${rbacGroup} kinds through discovery`, async () => {
    const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    const ingressClass = { apiVersion: `${networking}/v1`, kind: 'IngressClass', metadata: { name: 'objects-class' }, spec: { controller: 'example.com/e2e' } };
    const created = await objects.create(ingressClass);
    expect(created).toMatchObject({ apiVersion: `${networking}/v1`, kind: 'IngressClass', metadata: { name: 'objects-class', generation: 1 } });
    const read = await objects.read({ apiVersion: `${networking}/v1`, kind: 'IngressClass', metadata: { name: 'objects-class' } });
    expect((read as any).spec).toEqual({ controller: 'example.com/e2e' });
    const listed = await objects.list(`${networking}/v1`, 'IngressClass');
    expect(listed.items.map((i) => i.metadata?.name)).toContain('objects-class');
    const patched = await objects.patch(
      { apiVersion: `${networking}/v1`, kind: 'IngressClass', metadata: { name: 'objects-class', labels: { patched: 'yes' } } },
      undefined,
      undefined,
      'client-node-e2e',
      undefined,
      k8s.PatchStrategy.MergePatch,
    );
    expect(patched.metadata?.labels).toEqual({ patched: 'yes' });
    const applied = await objects.patch(
      { apiVersion: `${networking}/v1`, kind: 'IngressClass', metadata: { name: 'objects-class', annotations: { owner: 'applier' } }, spec: { controller: 'example.com/e2e' } } as k8s.KubernetesObject,
      undefined,
      undefined,
      'applier',
      true,
      k8s.PatchStrategy.ServerSideApply,
    );
    expect(applied.metadata?.annotations).toEqual({ owner: 'applier' });
    expect(applied.metadata?.managedFields?.find((m) => m.manager === 'applier')).toMatchObject({ operation: 'Apply', apiVersion: `${networking}/v1` });
    const replaced = await objects.replace({ ...applied, metadata: { ...applied.metadata, labels: { replaced: 'yes' } } });
    expect(replaced.metadata?.labels).toEqual({ replaced: 'yes' });
    expect(Number(replaced.metadata?.resourceVersion)).toBeGreaterThan(Number(applied.metadata?.resourceVersion));

    const role = await objects.create({
      apiVersion: `${rbacGroup}/v1`,
      kind: 'Role',
      metadata: { name: 'reader', namespace: ns },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    } as k8s.KubernetesObject);
    expect(role).toMatchObject({ apiVersion: `${rbacGroup}/v1`, kind: 'Role', metadata: { namespace: ns } });
    const roles = await objects.list(`${rbacGroup}/v1`, 'Role', ns);
    expect(roles.items.map((r) => r.metadata?.name)).toEqual(['reader']);
    const binding = await objects.create({
      apiVersion: `${rbacGroup}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'reader', namespace: ns },
      roleRef: { apiGroup: rbacGroup, kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'User', apiGroup: rbacGroup, name: 'jane' }],
    } as k8s.KubernetesObject);
    expect((binding as any).roleRef.apiGroup).toBe(rbacGroup);

    // Core kinds too: the resource comes from /api/v1.
    await objects.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'objects-cm', namespace: ns }, data: { via: 'objects' } } as k8s.KubernetesObject);
    const cm = await objects.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'objects-cm', namespace: ns } });
    expect(cm).toMatchObject({ kind: 'ConfigMap', data: { via: 'objects' } });

    const deleted = await objects.delete({ apiVersion: `${networking}/v1`, kind: 'IngressClass', metadata: { name: 'objects-class' } });
    expect(deleted).toMatchObject({ status: 'Success', details: { name: 'objects-class', group: networking } });
    const missing = await apiError(objects.read({ apiVersion: `${networking}/v1`, kind: 'IngressClass', metadata: { name: 'objects-class' } }));
    expect(missing.code).toBe(404);
    // A kind discovery does not know is refused by the client before any request.
    await expect(objects.list(`${networking}/v1`, 'NoSuchKind')).rejects.toThrow(/NoSuchKind/);
  });

  it(`CustomObjectsApi drives ${networking} ingresses by group name, and a Watch follows them`, async () => {
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const group = networking;
    const before = (await custom.listNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'ingresses' })) as any;
    const w = await collectWatch(kc, `/apis/${group}/v1/namespaces/${ns}/ingresses`, { resourceVersion: before.metadata.resourceVersion });
    const created = (await custom.createNamespacedCustomObject({
      group,
      version: 'v1',
      namespace: ns,
      plural: 'ingresses',
      body: { apiVersion: `${group}/v1`, kind: 'Ingress', metadata: { name: 'site' }, spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } } },
    })) as any;
    expect(created).toMatchObject({ apiVersion: `${group}/v1`, kind: 'Ingress', metadata: { name: 'site', namespace: ns, generation: 1 } });
    const list = (await custom.listNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'ingresses' })) as any;
    expect(list.kind).toBe('IngressList');
    expect(list.items.map((i: any) => i.metadata.name)).toEqual(['site']);
    const patched = (await custom.patchNamespacedCustomObject(
      { group, version: 'v1', namespace: ns, plural: 'ingresses', name: 'site', body: { metadata: { annotations: { note: 'merged' } } } },
      patchAs(k8s.PatchStrategy.MergePatch),
    )) as any;
    expect(patched.metadata.annotations).toEqual({ note: 'merged' });
    const status = (await custom.getNamespacedCustomObjectStatus({ group, version: 'v1', namespace: ns, plural: 'ingresses', name: 'site' })) as any;
    expect(status.metadata.name).toBe('site');
    await custom.deleteNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'ingresses', name: 'site' });
    expect((await apiError(custom.getNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'ingresses', name: 'site' }))).code).toBe(404);
    const events = await eventually(() => (w.events.length >= 3 ? w.events : undefined), 'the ingress watch events');
    expect(events.map((e) => [e.type, e.name, e.apiVersion, e.kind])).toEqual([
      ['ADDED', 'site', `${group}/v1`, 'Ingress'],
      ['MODIFIED', 'site', `${group}/v1`, 'Ingress'],
      ['DELETED', 'site', `${group}/v1`, 'Ingress'],
    ]);
    w.stop();
  });

  if (k8sDomain) {
    it('typed APIs of the k8s.io groups: RBAC, networking, discovery, events, admission registration', async () => {
      const rbac = kc.makeApiClient(k8s.RbacAuthorizationV1Api);
      const cr = await rbac.createClusterRole({ body: { metadata: { name: 'typed-viewer' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'watch', 'list'] }] } });
      expect(cr.rules?.[0]?.verbs).toEqual(['get', 'watch', 'list']);
      const crb = await rbac.createClusterRoleBinding({
        body: { metadata: { name: 'typed-viewer' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'typed-viewer' }, subjects: [{ kind: 'Group', name: 'viewers', apiGroup: 'rbac.authorization.k8s.io' }] },
      });
      expect(crb.subjects?.[0]?.name).toBe('viewers');
      const roles = await rbac.listClusterRole({ labelSelector: '', fieldSelector: 'metadata.name=typed-viewer' });
      expect(roles.items.map((r) => r.metadata?.name)).toEqual(['typed-viewer']);

      const net = kc.makeApiClient(k8s.NetworkingV1Api);
      const ic = await net.createIngressClass({ body: { metadata: { name: 'typed-class' }, spec: { controller: 'example.com/typed' } } });
      expect(ic.spec?.controller).toBe('example.com/typed');
      const ing = await net.createNamespacedIngress({
        namespace: ns,
        body: { metadata: { name: 'typed' }, spec: { ingressClassName: 'typed-class', rules: [{ host: 'example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] } },
      });
      expect(ing.spec?.rules?.[0]?.http?.paths[0]?.pathType).toBe('Prefix');
      const ingStatus = await net.replaceNamespacedIngressStatus({ namespace: ns, name: 'typed', body: { ...ing, status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } } } });
      expect(ingStatus.status?.loadBalancer?.ingress?.[0]?.ip).toBe('192.0.2.1');

      const disc = kc.makeApiClient(k8s.DiscoveryV1Api);
      const slice = await disc.createNamespacedEndpointSlice({
        namespace: ns,
        body: { metadata: { name: 'web-1', labels: { 'kubernetes.io/service-name': 'web' } }, addressType: 'IPv4', endpoints: [{ addresses: ['10.1.0.5'] }], ports: [{ name: 'http', port: 8080 }] },
      });
      expect(slice.ports?.[0]).toMatchObject({ name: 'http', port: 8080, protocol: 'TCP' });
      const slices = await disc.listNamespacedEndpointSlice({ namespace: ns, labelSelector: 'kubernetes.io/service-name=web' });
      expect(slices.items.map((s) => s.metadata?.name)).toEqual(['web-1']);

      const events = kc.makeApiClient(k8s.EventsV1Api);
      const ev = await events.createNamespacedEvent({
        namespace: ns,
        body: {
          metadata: { name: 'web.1' },
          eventTime: new Date('2025-01-02T03:04:05.000001Z'),
          reportingController: 'example.com/e2e',
          reportingInstance: 'e2e-1',
          action: 'Tested',
          reason: 'Testing',
          type: 'Normal',
          regarding: { kind: 'Pod', namespace: ns, name: 'web-0', apiVersion: 'v1' },
        },
      });
      expect(ev.reason).toBe('Testing');
      const coreEvents = await core.listNamespacedEvent({ namespace: ns });
      expect(coreEvents.items.map((e) => e.metadata?.name)).toContain('web.1');

      const admission = kc.makeApiClient(k8s.AdmissionregistrationV1Api);
      const hook = await admission.createValidatingWebhookConfiguration({
        body: {
          metadata: { name: 'typed-hook' },
          webhooks: [{ name: 'check.example.com', clientConfig: { url: 'https://hooks.example.com/check' }, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
        },
      });
      // Defaults as Kubernetes fills them in.
      expect(hook.webhooks?.[0]).toMatchObject({ failurePolicy: 'Fail', matchPolicy: 'Equivalent', timeoutSeconds: 10, namespaceSelector: {}, objectSelector: {} });

      const apiGroups = await kc.makeApiClient(k8s.ApisApi).getAPIVersions();
      expect(apiGroups.groups.map((g) => g.name)).toEqual(expect.arrayContaining(['apps', 'rbac.authorization.k8s.io', 'networking.k8s.io', 'discovery.k8s.io', 'events.k8s.io']));
    });
  } else {
    it('typed APIs of k8s.io groups find nothing under orch.io, whose discovery names the orch.io groups', async () => {
      const rbac = kc.makeApiClient(k8s.RbacAuthorizationV1Api);
      const missing = await apiError(rbac.listClusterRole());
      expect(missing.code).toBe(404);
      const apiGroups = await kc.makeApiClient(k8s.ApisApi).getAPIVersions();
      const names = apiGroups.groups.map((g) => g.name);
      expect(names).toEqual(expect.arrayContaining(['apps', 'rbac.authorization.orch.io', 'networking.orch.io', 'discovery.orch.io', 'events.orch.io']));
      expect(names.filter((n) => n.endsWith('k8s.io'))).toEqual([]);
      const resources = await kc.makeApiClient(k8s.CoreV1Api).getAPIResources();
      expect(resources.resources.map((r) => r.name)).toEqual(expect.arrayContaining(['namespaces', 'configmaps', 'secrets', 'services', 'pods']));
    });
  }
});

describe('@kubernetes/client-node: bookmarks, 410 Gone and the informer relisting', () => {
  let s: TestServer;
  let kc: k8s.KubeConfig;
  let core: k8s.CoreV1Api;
  const ns = 'expiring';

  beforeAll(async () => {
    // History of 200 ms and watches ending after 1-2 s: an informer that reconnects finds its version
    // compacted. Bookmarks every 100 ms so that a watch asking for them sees one promptly.
    s = await startTestServer({ watchHistoryMs: 200, minRequestTimeoutSeconds: 1, watchCache: { bookmarkIntervalMs: 100 }, tls: true });
    kc = kubeConfig(s.server.kubeconfig());
    core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: ns } } });
    await core.createNamespace({ body: { metadata: { name: 'busy' } } });
  });
  afterAll(() => s?.close());

  it('a watch with allowWatchBookmarks receives BOOKMARK events of the watched kind', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: ns });
    const w = await collectWatch(kc, `/api/v1/namespaces/${ns}/configmaps`, { resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: true });
    await core.createNamespacedConfigMap({ namespace: 'busy', body: cmBody('tick') });
    const bookmark = await eventually(() => w.events.find((e) => e.type === 'BOOKMARK'), 'a bookmark');
    expect(bookmark).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
    expect(Number(bookmark.resourceVersion)).toBeGreaterThanOrEqual(Number(list.metadata?.resourceVersion));
    w.stop();
  });

  it('a watch from a compacted version gets one ERROR event with 410 Expired, then the stream ends', async () => {
    const rv = (await core.listNamespacedConfigMap({ namespace: ns })).metadata?.resourceVersion;
    await core.createNamespacedConfigMap({ namespace: 'busy', body: cmBody('moves-history-on') });
    // The compactor passes rv within a few of its ticks; until it does the watch is served normally.
    const w = await eventually(async () => {
      await core.patchNamespacedConfigMap({ namespace: 'busy', name: 'moves-history-on', body: { data: { t: String(Date.now()) } } }, patchAs(k8s.PatchStrategy.MergePatch));
      const attempt = await collectWatch(kc, `/api/v1/namespaces/${ns}/configmaps`, { resourceVersion: rv });
      const ended = await Promise.race([attempt.done.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 300))]);
      if (ended && attempt.events.length > 0) return attempt;
      attempt.stop();
      return undefined;
    }, 'the history to be compacted past the listed version');
    expect(w.events).toHaveLength(1);
    expect(w.events[0]).toMatchObject({ type: 'ERROR', code: 410 });
  });

  it('an informer whose version was compacted while it reconnected lists again and stays in sync', async () => {
    await core.createNamespacedConfigMap({ namespace: ns, body: cmBody('first', { v: '1' }) });
    let lists = 0;
    const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${ns}/configmaps`, () => {
      lists++;
      return core.listNamespacedConfigMap({ namespace: ns });
    });
    const errors: unknown[] = [];
    const deleted: string[] = [];
    informer.on('error', (e) => errors.push(e));
    informer.on('delete', (o) => deleted.push(o.metadata?.name ?? ''));
    await informer.start();
    try {
      expect(lists).toBe(1);
      // Writes elsewhere move the history on; the informer's own watch sees nothing, and when the
      // server ends it (after 1-2 s) the informer resumes from a version that is gone.
      await eventually(async () => {
        await core.patchNamespacedConfigMap({ namespace: 'busy', name: 'moves-history-on', body: { data: { t: String(Date.now()) } } }, patchAs(k8s.PatchStrategy.MergePatch));
        return lists >= 2 ? true : undefined;
      }, 'the informer to list again after 410', 15_000);
      await core.createNamespacedConfigMap({ namespace: ns, body: cmBody('second', { v: '2' }) });
      await core.deleteNamespacedConfigMap({ namespace: ns, name: 'first' });
      await eventually(() => (informer.get('second', ns) && !informer.get('first', ns) ? true : undefined), 'the informer to follow writes after relisting');
      const server = await core.listNamespacedConfigMap({ namespace: ns });
      expect(informer.list(ns).map((o) => [o.metadata?.name, o.metadata?.resourceVersion])).toEqual(server.items.map((o) => [o.metadata?.name, o.metadata?.resourceVersion]));
      expect(deleted).toEqual(['first']);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });
});
