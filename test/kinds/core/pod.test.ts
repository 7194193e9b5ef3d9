/** Pod (core/v1): discovery, the full schema, Kubernetes' defaults, QoS class and field selectors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectStatus } from '../../rest/fixtures.js';
import { fullPodSpec } from './pod-fixtures.js';

const NS = 'pod-test';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const MERGE = 'application/merge-patch+json';

describe('Pod', () => {
  let s: TestServer;
  let n = 0;
  const create = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}, query = '') =>
    s.post(`${PODS}${query}`, { metadata: { name: `p-${++n}`, ...metadata }, spec });
  const created = async (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => {
    const r = await create(spec, metadata);
    expect(r.status, r.text).toBe(201);
    return r.body;
  };
  const one = (container: Record<string, unknown> = {}) => ({ containers: [{ name: 'app', image: 'nginx:1.25', ...container }] });

  beforeAll(async () => {
    // The schema's round trip alone: the plugins that fill priority, overhead and tolerations from
    // classes are tested under test/admission.
    s = await startTestServer({ admission: { disablePlugins: ['Priority', 'RuntimeClass', 'DefaultTolerationSeconds', 'LimitRanger'] } });
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
    // The ServiceAccount admission plugin refuses a pod whose account does not exist.
    for (const sa of ['runner', 'builder', 'new']) expect((await s.post(`/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: sa } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it('is served in v1 with short name po, category all and /status', async () => {
    const doc = (await s.get('/api/v1')).body;
    expect(doc.resources.find((r: any) => r.name === 'pods')).toMatchObject({ kind: 'Pod', namespaced: true, singularName: 'pod', shortNames: ['po'], categories: ['all'] });
    expect(doc.resources.find((r: any) => r.name === 'pods/status')).toMatchObject({ kind: 'Pod', verbs: ['get', 'patch', 'update'] });
  });

  it('knows every field of the Kubernetes 1.25 PodSpec (strict field validation accepts them all)', async () => {
    const r = await create(fullPodSpec(), { labels: { app: 'full' } }, '?fieldValidation=Strict');
    expect(r.status, r.text).toBe(201);
    expect(r.headers.warning).toBeUndefined();
    const spec = r.body.spec;
    // Values round-trip; defaults fill only what was left out.
    expect(spec.containers[0].ports).toEqual([
      { name: 'http', containerPort: 8080, protocol: 'TCP' },
      { containerPort: 9090, hostPort: 9090, hostIP: '127.0.0.1', protocol: 'UDP' },
    ]);
    expect(spec.containers[0].env[1].valueFrom.fieldRef).toEqual({ apiVersion: 'v1', fieldPath: 'metadata.name' });
    expect(spec.containers[0].readinessProbe).toEqual({ grpc: { port: 9090, service: '' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(spec.containers[0].livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X-Probe', value: '1' }] });
    expect(spec.topologySpreadConstraints[0].topologyKey).toBe('zone');
    expect(spec.volumes.find((v: any) => v.name === 'proj').projected).toEqual({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { audience: 'api', expirationSeconds: 3600, path: 'token' } },
        { configMap: { name: 'cm', items: [{ key: 'a', path: 'a.txt' }] } },
        { secret: { name: 'sec', optional: true } },
        { downwardAPI: { items: [{ path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } }] } },
      ],
    });
    expect(spec.volumes.find((v: any) => v.name === 'eph').ephemeral.volumeClaimTemplate.spec).toEqual({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      volumeMode: 'Filesystem',
    });
    expect(spec.os).toEqual({ name: 'linux' });
    expect(spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
  });

  describe('defaults', () => {
    it('fills the pod-level defaults', async () => {
      // Without the token volume the ServiceAccount plugin would mount (its own tests cover it).
      const p = await created({ ...one(), automountServiceAccountToken: false });
      expect(p.spec).toMatchObject({
        restartPolicy: 'Always',
        dnsPolicy: 'ClusterFirst',
        terminationGracePeriodSeconds: 30,
        schedulerName: 'default-scheduler',
        securityContext: {},
        enableServiceLinks: true,
      });
      expect(p.spec.containers[0]).toEqual({
        name: 'app',
        image: 'nginx:1.25',
        resources: {},
        imagePullPolicy: 'IfNotPresent',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      });
    });

    it.each([
      ['nginx', 'Always'],
      ['nginx:latest', 'Always'],
      ['registry.example.com:5000/team/nginx', 'Always'],
      ['nginx:1.25', 'IfNotPresent'],
      [`nginx@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
      [`nginx:latest@sha256:${'a'.repeat(64)}`, 'Always'],
    ])('pulls %s with policy %s', async (image, policy) => {
      expect((await created(one({ image }))).spec.containers[0].imagePullPolicy).toBe(policy);
    });

    it('keeps explicit values', async () => {
      const p = await created({ ...one({ imagePullPolicy: 'Never' }), restartPolicy: 'Never', dnsPolicy: 'Default', terminationGracePeriodSeconds: 0, enableServiceLinks: false, schedulerName: 'mine' });
      expect(p.spec).toMatchObject({ restartPolicy: 'Never', dnsPolicy: 'Default', terminationGracePeriodSeconds: 0, enableServiceLinks: false, schedulerName: 'mine' });
      expect(p.spec.containers[0].imagePullPolicy).toBe('Never');
    });

    it('defaults ports to TCP, probes and handlers, and volumes to emptyDir with file modes', async () => {
      const p = await created({
        automountServiceAccountToken: false,
        containers: [
          {
            name: 'app',
            image: 'img:1',
            ports: [{ containerPort: 80 }],
            startupProbe: { tcpSocket: { port: 80 } },
            lifecycle: { preStop: { httpGet: { port: 80 } } },
          },
        ],
        volumes: [{ name: 'scratch' }, { name: 'cfg', configMap: { name: 'cm' } }, { name: 'dapi', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } }, { name: 'host', hostPath: { path: '/var' } }],
      });
      const c = p.spec.containers[0];
      expect(c.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
      expect(c.startupProbe).toEqual({ tcpSocket: { port: 80 }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
      expect(c.lifecycle.preStop.httpGet).toEqual({ port: 80, path: '/', scheme: 'HTTP' });
      expect(p.spec.volumes).toEqual([
        { name: 'scratch', emptyDir: {} },
        { name: 'cfg', configMap: { name: 'cm', defaultMode: 420 } },
        { name: 'dapi', downwardAPI: { items: [{ path: 'n', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } }], defaultMode: 420 } },
        { name: 'host', hostPath: { path: '/var', type: '' } },
      ]);
    });

    it('copies limits into missing requests and prints quantities canonically', async () => {
      const p = await created(one({ resources: { limits: { cpu: '0.5', memory: '1024Mi' }, requests: { cpu: 0.25 } } }));
      expect(p.spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '250m', memory: '1Gi' } });
      const tiny = await created(one({ resources: { requests: { cpu: '0.0001' } } }));
      expect(tiny.spec.containers[0].resources.requests.cpu).toBe('1m');
    });

    it('answers 400 for text that is not a quantity', async () => {
      const st = expectStatus(await create(one({ resources: { limits: { cpu: 'lots' } } })), 400, 'BadRequest');
      expect(st.message).toContain("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    });

    it('makes container ports host ports on the host network', async () => {
      const p = await created({ hostNetwork: true, containers: [{ name: 'app', image: 'img:1', ports: [{ containerPort: 8080 }] }] });
      expect(p.spec.containers[0].ports).toEqual([{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }]);
    });

    it('reads the deprecated serviceAccount as serviceAccountName and writes both', async () => {
      const old = await created({ ...one(), serviceAccount: 'builder' });
      expect(old.spec).toMatchObject({ serviceAccountName: 'builder', serviceAccount: 'builder' });
      const both = await created({ ...one(), serviceAccountName: 'new', serviceAccount: 'old' });
      expect(both.spec).toMatchObject({ serviceAccountName: 'new', serviceAccount: 'new' });
    });
  });

  describe('status on create', () => {
    it('starts Pending with the QoS class and ignores a status sent', async () => {
      const best = await created({ ...one() }, {});
      expect(best.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
      const sent = await s.post(PODS, { metadata: { name: 'with-status' }, spec: one(), status: { phase: 'Running', podIP: '10.0.0.1' } });
      expect(sent.body.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
      const guaranteed = await created(one({ resources: { limits: { cpu: '1', memory: '1Gi' } } }));
      expect(guaranteed.status.qosClass).toBe('Guaranteed');
      const burstable = await created(one({ resources: { requests: { memory: '10Mi' } } }));
      expect(burstable.status.qosClass).toBe('Burstable');
    });
  });

  describe('field selectors', () => {
    it('selects on the spec and status fields Kubernetes offers', async () => {
      // A namespace of its own, so that other tests' pods do not match.
      const ns = 'pod-fields';
      const pods = `/api/v1/namespaces/${ns}/pods`;
      expect((await s.post('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
      expect((await s.post(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'robot' } })).status).toBe(201);
      const a = (await s.post(pods, { metadata: { name: 'selected' }, spec: { ...one(), nodeName: 'node-a', restartPolicy: 'Never', schedulerName: 'custom', serviceAccountName: 'robot' } })).body;
      expect((await s.post(pods, { metadata: { name: 'other' }, spec: one() })).status).toBe(201);
      await s.patch(`${pods}/${a.metadata.name}/status`, { status: { phase: 'Running', podIP: '10.1.2.3', nominatedNodeName: 'node-b' } }, MERGE);
      for (const sel of ['spec.nodeName=node-a', 'spec.restartPolicy=Never', 'spec.schedulerName=custom', 'spec.serviceAccountName=robot', 'status.phase=Running', 'status.podIP=10.1.2.3', 'status.nominatedNodeName=node-b', `metadata.name=${a.metadata.name}`]) {
        const r = await s.get(`${pods}?fieldSelector=${encodeURIComponent(sel)}`);
        expect(r.status, r.text).toBe(200);
        expect(r.body.items.map((i: any) => i.metadata.name), sel).toEqual([a.metadata.name]);
      }
      const unscheduled = await s.get(`${pods}?fieldSelector=${encodeURIComponent('spec.nodeName=')}`);
      expect(unscheduled.body.items.map((i: any) => i.metadata.name)).toEqual(['other']);
      const bad = expectStatus(await s.get(`${pods}?fieldSelector=spec.hostNetwork%3Dtrue`), 400, 'BadRequest');
      expect(bad.message).toContain('field label not supported: spec.hostNetwork');
    });
  });
});
