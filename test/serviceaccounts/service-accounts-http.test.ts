/**
 * Service accounts over real HTTPS: the serviceaccount controller's `default` in every namespace,
 * the root CA ConfigMap in every namespace, the ServiceAccount admission plugin's five steps on pod
 * create (default account, refusal of a missing one, the bound token volume in every container,
 * imagePullSecrets), the token controller removing token Secrets with their account, and the
 * protection controllers releasing claims and volumes nothing uses.
 */
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../reads/fixtures.js';
import { expectStatus } from '../rest/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const MOUNT = '/var/run/secrets/orch.io/serviceaccount';

describe('service accounts (orch.io)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ tls: true, controllerManager: { controllers: ['*'] } });
  });
  afterAll(() => s?.close());

  const makeNamespace = async (name: string): Promise<void> => {
    const r = await s.post('/api/v1/namespaces', { metadata: { name } });
    expect(r.status, r.text).toBe(201);
  };
  const get = async (path: string): Promise<any> => {
    const r = await s.get(path);
    return r.status === 200 ? r.body : undefined;
  };

  it('gives every namespace a default account and the root CA ConfigMap, and puts them back', async () => {
    await makeNamespace('team-a');
    for (const ns of ['default', 'orch-system', 'orch-public', 'team-a']) {
      await eventually(() => get(`/api/v1/namespaces/${ns}/serviceaccounts/default`), `default in ${ns}`);
      const cm = await eventually(() => get(`/api/v1/namespaces/${ns}/configmaps/orch-root-ca.crt`), `root CA in ${ns}`);
      expect(Object.keys(cm.data)).toEqual(['ca.crt']);
      expect(cm.data['ca.crt']).toBe(s.tls?.ca);
      expect(cm.metadata.annotations['orch.io/description']).toMatch(/^Contains a CA bundle that can be used to verify the API server/);
    }
    // The published CA is the one the server's certificate chains to.
    const ca = new X509Certificate(s.tls?.ca as string);
    expect(ca.ca).toBe(true);

    const sa = await get('/api/v1/namespaces/team-a/serviceaccounts/default');
    expect((await s.del('/api/v1/namespaces/team-a/serviceaccounts/default')).status).toBe(200);
    const back = await eventually(async () => {
      const now = await get('/api/v1/namespaces/team-a/serviceaccounts/default');
      return now && now.metadata.uid !== sa.metadata.uid ? now : undefined;
    }, 'default made again');
    expect(back.metadata.name).toBe('default');

    const edited = await s.patch('/api/v1/namespaces/team-a/configmaps/orch-root-ca.crt', { data: { 'ca.crt': 'tampered', extra: 'x' } }, 'application/merge-patch+json');
    expect(edited.status, edited.text).toBe(200);
    await eventually(async () => {
      const cm = await get('/api/v1/namespaces/team-a/configmaps/orch-root-ca.crt');
      return cm && cm.data['ca.crt'] === s.tls?.ca && !cm.data.extra ? cm : undefined;
    }, 'root CA restored');
    expect((await s.del('/api/v1/namespaces/team-a/configmaps/orch-root-ca.crt')).status).toBe(200);
    await eventually(() => get('/api/v1/namespaces/team-a/configmaps/orch-root-ca.crt'), 'root CA made again');
  });

  it('mounts the bound token volume in a pod created the instant its namespace is', async () => {
    await makeNamespace('team-b');
    // No wait: admission waits for the controller's default account, as Kubernetes' retries do.
    const r = await s.post('/api/v1/namespaces/team-b/pods', {
      metadata: { name: 'web' },
      spec: { initContainers: [{ name: 'init', image: 'busybox' }], containers: [{ name: 'app', image: 'nginx' }, { name: 'side', image: 'envoy' }] },
    });
    expect(r.status, r.text).toBe(201);
    const spec = r.body.spec;
    expect(spec.serviceAccountName).toBe('default');
    expect(spec.serviceAccount).toBe('default');
    const volume = spec.volumes.find((v: any) => v.name.startsWith('api-access-'));
    expect(volume.name).toMatch(/^api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volume.projected).toEqual({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'orch-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
    for (const c of [...spec.initContainers, ...spec.containers]) {
      expect(c.volumeMounts, c.name).toEqual([{ name: volume.name, readOnly: true, mountPath: MOUNT }]);
    }
    // Stored as answered.
    expect((await s.get('/api/v1/namespaces/team-b/pods/web')).body.spec.volumes).toEqual(spec.volumes);
  });

  it("refuses a pod whose account does not exist, in Kubernetes' words, and stores nothing", async () => {
    const r = await s.post('/api/v1/namespaces/default/pods', { metadata: { name: 'orphan' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'app', image: 'nginx' }] } });
    const st = expectStatus(r, 403, 'Forbidden');
    expect(st.message).toBe('pods "orphan" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found');
    expect((await s.get('/api/v1/namespaces/default/pods/orphan')).status).toBe(404);
    // A missing namespace is NamespaceLifecycle's to refuse, with its own reason.
    expectStatus(await s.post('/api/v1/namespaces/nowhere/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } }), 404, 'NotFound');
  });

  it("copies the account's imagePullSecrets and follows document 3's automount rule", async () => {
    const sas = '/api/v1/namespaces/default/serviceaccounts';
    expect((await s.post(sas, { metadata: { name: 'builder' }, imagePullSecrets: [{ name: 'registry' }] })).status).toBe(201);
    expect((await s.post(sas, { metadata: { name: 'quiet' }, automountServiceAccountToken: false })).status).toBe(201);
    const pods = '/api/v1/namespaces/default/pods';
    const built = await s.post(pods, { metadata: { name: 'built' }, spec: { serviceAccountName: 'builder', containers: [{ name: 'app', image: 'nginx' }] } });
    expect(built.status, built.text).toBe(201);
    expect(built.body.spec.imagePullSecrets).toEqual([{ name: 'registry' }]);
    // Under orch.io a `false` on the account holds even when the pod says true (document 3).
    const quiet = await s.post(pods, { metadata: { name: 'quiet' }, spec: { serviceAccountName: 'quiet', automountServiceAccountToken: true, containers: [{ name: 'app', image: 'nginx' }] } });
    expect(quiet.status, quiet.text).toBe(201);
    expect(quiet.body.spec.volumes).toBeUndefined();
    expect(quiet.body.spec.containers[0].volumeMounts).toBeUndefined();
    const own = await s.post(pods, { metadata: { name: 'own' }, spec: { automountServiceAccountToken: false, containers: [{ name: 'app', image: 'nginx' }] } });
    expect(own.body.spec.volumes).toBeUndefined();
  });

  it('deletes token Secrets with their account', async () => {
    const ns = '/api/v1/namespaces/default';
    expect((await s.post(`${ns}/serviceaccounts`, { metadata: { name: 'ci' } })).status).toBe(201);
    const secret = await s.post(`${ns}/secrets`, { metadata: { name: 'ci-token', annotations: { 'orch.io/service-account.name': 'ci' } }, type: 'orch.io/service-account-token' });
    expect(secret.status, secret.text).toBe(201);
    await eventually(async () => ((await get(`${ns}/secrets/ci-token`))?.data?.token ? true : undefined), 'the token filled in');
    expect((await s.del(`${ns}/serviceaccounts/ci`)).status).toBe(200);
    await eventually(async () => ((await s.get(`${ns}/secrets/ci-token`)).status === 404 ? true : undefined), 'the token Secret deleted');
  });

  it('releases a claim once no scheduled pod uses it, and a volume once no claim is bound', async () => {
    const ns = '/api/v1/namespaces/default';
    const claim = { metadata: { name: 'data', finalizers: ['orch.io/pvc-protection'] }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    expect((await s.post(`${ns}/persistentvolumeclaims`, claim)).status).toBe(201);
    const pod = await s.post(`${ns}/pods`, { metadata: { name: 'db' }, spec: { nodeName: 'node-1', containers: [{ name: 'db', image: 'postgres' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] } });
    expect(pod.status, pod.text).toBe(201);
    const deleting = await s.del(`${ns}/persistentvolumeclaims/data`);
    expect(deleting.status, deleting.text).toBe(200);
    expect(deleting.body.metadata.deletionTimestamp).toBeDefined();
    // Still in use: the claim stays, finalizer and all (read again after the controller had its look).
    await new Promise((r) => setTimeout(r, 200));
    expect((await get(`${ns}/persistentvolumeclaims/data`)).metadata.finalizers).toEqual(['orch.io/pvc-protection']);
    expect((await s.request('DELETE', `${ns}/pods/db`, { body: { gracePeriodSeconds: 0 } })).status).toBe(200);
    await eventually(async () => ((await s.get(`${ns}/persistentvolumeclaims/data`)).status === 404 ? true : undefined), 'the claim released and gone');

    const pv = { metadata: { name: 'vol-1', finalizers: ['orch.io/pv-protection'] }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } };
    expect((await s.post('/api/v1/persistentvolumes', pv)).status).toBe(201);
    const bound = await s.patch('/api/v1/persistentvolumes/vol-1/status', { status: { phase: 'Bound' } }, 'application/merge-patch+json');
    expect(bound.status, bound.text).toBe(200);
    expect((await s.del('/api/v1/persistentvolumes/vol-1')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect((await get('/api/v1/persistentvolumes/vol-1')).metadata.finalizers).toEqual(['orch.io/pv-protection']);
    expect((await s.patch('/api/v1/persistentvolumes/vol-1/status', { status: { phase: 'Released' } }, 'application/merge-patch+json')).status).toBe(200);
    await eventually(async () => ((await s.get('/api/v1/persistentvolumes/vol-1')).status === 404 ? true : undefined), 'the volume released and gone');
  });
});

describe('service accounts (k8s.io)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ tls: true, apiDomain: 'k8s.io', controllerManager: { controllers: ['*'] } });
  });
  afterAll(() => s?.close());

  it("uses Kubernetes' names, and lets the pod's own automount setting win", async () => {
    await eventually(async () => ((await s.get('/api/v1/namespaces/kube-system/configmaps/kube-root-ca.crt')).status === 200 ? true : undefined), 'kube-root-ca.crt');
    const cm = (await s.get('/api/v1/namespaces/kube-system/configmaps/kube-root-ca.crt')).body;
    expect(cm.metadata.annotations['kubernetes.io/description']).toMatch(/verify the kube-apiserver/);
    expect((await s.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'quiet' }, automountServiceAccountToken: false })).status).toBe(201);
    const pods = '/api/v1/namespaces/default/pods';
    const wins = await s.post(pods, { metadata: { name: 'wins' }, spec: { serviceAccountName: 'quiet', automountServiceAccountToken: true, containers: [{ name: 'app', image: 'nginx' }] } });
    expect(wins.status, wins.text).toBe(201);
    expect(wins.body.spec.volumes[0].name).toMatch(/^kube-api-access-[a-z0-9]{5}$/);
    expect(wins.body.spec.volumes[0].projected.sources[1].configMap.name).toBe('kube-root-ca.crt');
    expect(wins.body.spec.containers[0].volumeMounts).toEqual([{ name: wins.body.spec.volumes[0].name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    const follows = await s.post(pods, { metadata: { name: 'follows' }, spec: { serviceAccountName: 'quiet', containers: [{ name: 'app', image: 'nginx' }] } });
    expect(follows.body.spec.volumes).toBeUndefined();
  });
});
