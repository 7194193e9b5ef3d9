/** Pod updates: the spec fields Kubernetes lets change, and the /status subresource. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectStatus } from '../../rest/fixtures.js';

const NS = 'pod-update';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

describe('Pod updates', () => {
  let s: TestServer;
  let n = 0;
  const make = async (spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => {
    const name = `u-${++n}`;
    const r = await s.post(PODS, { metadata: { name, ...metadata }, spec: { containers: [{ name: 'app', image: 'img:1' }], initContainers: [{ name: 'init', image: 'init:1' }], ...spec } });
    expect(r.status, r.text).toBe(201);
    return { path: `${PODS}/${name}`, pod: r.body };
  };

  beforeAll(async () => {
    // The update rules alone: DefaultTolerationSeconds would add its two tolerations to every write.
    s = await startTestServer({ admission: { disablePlugins: ['DefaultTolerationSeconds'] } });
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  });
  afterAll(() => s.close());

  describe('spec', () => {
    it('lets container and init container images change', async () => {
      const { path } = await make();
      const r = await s.patch(path, [
        { op: 'replace', path: '/spec/containers/0/image', value: 'img:2' },
        { op: 'replace', path: '/spec/initContainers/0/image', value: 'init:2' },
      ], JSON_PATCH);
      expect(r.status, r.text).toBe(200);
      expect(r.body.spec.containers[0].image).toBe('img:2');
      expect(r.body.spec.initContainers[0].image).toBe('init:2');
    });

    it('refuses an empty image', async () => {
      const { path } = await make();
      const st = expectStatus(await s.patch(path, [{ op: 'replace', path: '/spec/containers/0/image', value: '' }], JSON_PATCH), 422, 'Invalid');
      expect(st.details.causes).toContainEqual({ reason: 'FieldValueRequired', field: 'spec.containers[0].image', message: 'Required value' });
    });

    it('refuses any other spec change, saying which fields may change', async () => {
      const { path } = await make();
      const st = expectStatus(await s.patch(path, { spec: { restartPolicy: 'Never' } }, MERGE), 422, 'Invalid');
      expect(st.details.causes).toHaveLength(1);
      expect(st.details.causes[0]).toMatchObject({ reason: 'FieldValueForbidden', field: 'spec' });
      expect(st.details.causes[0].message).toMatch(
        /^Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`, `spec.initContainers\[\*\].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` \(only additions to existing tolerations\) or `spec.terminationGracePeriodSeconds` \(allow it to be set to 1 if it was previously negative\)\n/,
      );
      expect(st.details.causes[0].message).toContain('restartPolicy');
      expect((await s.get(path)).body.spec.restartPolicy).toBe('Always');
    });

    it('refuses adding or removing containers', async () => {
      const { path, pod } = await make();
      const more = { ...pod, spec: { ...pod.spec, containers: [...pod.spec.containers, { name: 'two', image: 'img:1' }] } };
      const st = expectStatus(await s.put(path, more), 422, 'Invalid');
      expect(st.details.causes).toEqual([{ reason: 'FieldValueForbidden', field: 'spec.containers', message: 'Forbidden: pod updates may not add or remove containers' }]);
    });

    it('lets activeDeadlineSeconds be set, then only lowered, never removed', async () => {
      const { path } = await make();
      expect((await s.patch(path, { spec: { activeDeadlineSeconds: 100 } }, MERGE)).status).toBe(200);
      expect((await s.patch(path, { spec: { activeDeadlineSeconds: 50 } }, MERGE)).body.spec.activeDeadlineSeconds).toBe(50);
      const up = expectStatus(await s.patch(path, { spec: { activeDeadlineSeconds: 60 } }, MERGE), 422, 'Invalid');
      expect(up.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.activeDeadlineSeconds', message: 'Invalid value: 60: must be less than or equal to previous value' }]);
      const removed = expectStatus(await s.patch(path, { spec: { activeDeadlineSeconds: null } }, MERGE), 422, 'Invalid');
      expect(removed.details.causes).toContainEqual({ reason: 'FieldValueInvalid', field: 'spec.activeDeadlineSeconds', message: 'Invalid value: null: must not update from a positive integer to nil value' });
    });

    it('lets tolerations be added, and their tolerationSeconds change, but not removed', async () => {
      const t1 = { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 };
      const { path } = await make({ tolerations: [t1] });
      const added = await s.patch(path, { spec: { tolerations: [{ ...t1, tolerationSeconds: 30 }, { key: 'b', operator: 'Exists' }] } }, MERGE);
      expect(added.status, added.text).toBe(200);
      expect(added.body.spec.tolerations).toHaveLength(2);
      const st = expectStatus(await s.patch(path, { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } }, MERGE), 422, 'Invalid');
      expect(st.details.causes).toContainEqual({ reason: 'FieldValueForbidden', field: 'spec.tolerations', message: 'Forbidden: existing toleration can not be modified except its tolerationSeconds' });
    });

    it('lets metadata change freely and keeps status as stored', async () => {
      const { path } = await make();
      const r = await s.patch(path, { metadata: { labels: { x: 'y' } }, status: { phase: 'Failed' } }, MERGE);
      expect(r.status, r.text).toBe(200);
      expect(r.body.metadata.labels).toEqual({ x: 'y' });
      expect(r.body.status.phase).toBe('Pending');
    });
  });

  describe('status subresource', () => {
    it('writes status, not spec, and keeps podIP and podIPs in step', async () => {
      const { path } = await make();
      const r = await s.patch(`${path}/status`, { spec: { nodeName: 'elsewhere' }, status: { phase: 'Running', hostIP: '10.0.0.2', podIP: '10.1.0.5', startTime: '2024-05-01T10:00:00+02:00' } }, MERGE);
      expect(r.status, r.text).toBe(200);
      expect(r.body.spec.nodeName).toBeUndefined();
      expect(r.body.status).toMatchObject({ phase: 'Running', hostIP: '10.0.0.2', podIP: '10.1.0.5', podIPs: [{ ip: '10.1.0.5' }], startTime: '2024-05-01T08:00:00Z' });
      const dual = await s.patch(`${path}/status`, { status: { podIP: null, podIPs: [{ ip: '10.1.0.6' }, { ip: 'fd00::6' }] } }, MERGE);
      expect(dual.body.status).toMatchObject({ podIP: '10.1.0.6', podIPs: [{ ip: '10.1.0.6' }, { ip: 'fd00::6' }] });
    });

    it('stores conditions and container statuses', async () => {
      const { path } = await make();
      const status = {
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }],
        containerStatuses: [
          {
            name: 'app',
            ready: true,
            restartCount: 1,
            image: 'img:1',
            imageID: 'docker-pullable://img@sha256:abc',
            containerID: 'containerd://1',
            started: true,
            state: { running: { startedAt: '2024-01-01T00:00:00Z' } },
            lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: '2024-01-01T00:00:00Z', finishedAt: '2024-01-01T00:00:01Z' } },
          },
        ],
        qosClass: 'BestEffort',
      };
      const r = await s.patch(`${path}/status`, { status }, MERGE);
      expect(r.status, r.text).toBe(200);
      expect(r.body.status.containerStatuses).toEqual(status.containerStatuses);
      // lastProbeTime is a Go struct, never omitted: it prints as null when unset, as in Kubernetes.
      expect(r.body.status.conditions).toEqual([{ ...status.conditions[0], lastProbeTime: null }]);
    });

    it('refuses bad pod IPs and custom condition types that are not qualified names', async () => {
      const { path } = await make();
      const st = expectStatus(await s.patch(`${path}/status`, { status: { podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }, { ip: 'bogus' }], conditions: [{ type: 'my condition', status: 'True' }] } }, MERGE), 422, 'Invalid');
      expect(st.details.causes.map((c: any) => c.field)).toEqual(['metadata.conditions[0].Type', 'status.podIPs[2]', 'status.podIPs']);
    });

    it('never moves a terminated container back to running when the pod does not restart', async () => {
      const { path } = await make({ restartPolicy: 'Never' });
      const done = { name: 'app', ready: false, restartCount: 0, image: 'img:1', imageID: '', state: { terminated: { exitCode: 0 } } };
      expect((await s.patch(`${path}/status`, { status: { containerStatuses: [done] } }, MERGE)).status).toBe(200);
      const st = expectStatus(
        await s.patch(`${path}/status`, { status: { containerStatuses: [{ ...done, state: { running: {} } }] } }, MERGE),
        422,
        'Invalid',
      );
      expect(st.details.causes).toEqual([{ reason: 'FieldValueForbidden', field: 'status.containerStatuses[0].state', message: 'Forbidden: may not be transitioned to non-terminated state' }]);
    });

    it('keeps owner references out of status writes', async () => {
      // A live owner, so that the garbage collector leaves the pod alone.
      const cm = (await s.post(`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'owner' } })).body;
      const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: cm.metadata.uid, controller: true };
      const { path } = await make({}, { ownerReferences: [owner] });
      const r = await s.patch(`${path}/status`, { metadata: { ownerReferences: null }, status: { phase: 'Running' } }, MERGE);
      expect(r.status, r.text).toBe(200);
      expect(r.body.metadata.ownerReferences).toEqual([owner]);
    });
  });
});
