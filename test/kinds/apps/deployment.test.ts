/** Deployment (apps/v1): document 2's fields, defaults, rules and limits, /status, /scale and generation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectStatus } from '../../rest/fixtures.js';

const NS = 'deploy-test';
const DEPLOY = `/apis/apps/v1/namespaces/${NS}/deployments`;
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

const template = (labels: Record<string, string> = { app: 'web' }, spec: Record<string, unknown> = {}) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'web', image: 'nginx:1.25' }], ...spec },
});
const spec = (extra: Record<string, unknown> = {}) => ({ selector: { matchLabels: { app: 'web' } }, template: template(), ...extra });

describe('Deployment', () => {
  let s: TestServer;
  let n = 0;
  const name = (): string => `d-${++n}`;
  const create = (body: Record<string, unknown>, metadata: Record<string, unknown> = {}) => s.post(DEPLOY, { metadata: { name: name(), ...metadata }, spec: body });
  const created = async (body: Record<string, unknown> = spec(), metadata: Record<string, unknown> = {}) => {
    const r = await create(body, metadata);
    expect(r.status, r.text).toBe(201);
    return r.body;
  };
  const causes = async (body: Record<string, unknown>) => expectStatus(await create(body), 422, 'Invalid').details.causes as { field: string; message: string; reason: string }[];

  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it('is served in apps/v1 with short name deploy, category all, /status and /scale', async () => {
    const doc = (await s.get('/apis/apps/v1')).body;
    expect(doc.resources.find((r: any) => r.name === 'deployments')).toMatchObject({ kind: 'Deployment', namespaced: true, shortNames: ['deploy'], categories: ['all'] });
    expect(doc.resources.find((r: any) => r.name === 'deployments/status')).toMatchObject({ verbs: ['get', 'patch', 'update'] });
    expect(doc.resources.find((r: any) => r.name === 'deployments/scale')).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
    const all = (await s.get('/apis')).body.groups.find((g: any) => g.name === 'apps');
    expect(all.preferredVersion.groupVersion).toBe('apps/v1');
  });

  describe('defaults', () => {
    it('fills replicas 1, RollingUpdate 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600 and the pod template defaults', async () => {
      const d = await created();
      expect(d.spec).toMatchObject({
        replicas: 1,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      });
      expect(d.spec.minReadySeconds).toBeUndefined();
      expect(d.spec.paused).toBeUndefined();
      expect(d.spec.template.spec).toMatchObject({
        restartPolicy: 'Always',
        dnsPolicy: 'ClusterFirst',
        terminationGracePeriodSeconds: 30,
        schedulerName: 'default-scheduler',
        securityContext: {},
      });
      expect(d.spec.template.spec.containers[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' });
      // Defaults that only a Pod gets stay out of templates.
      expect(d.spec.template.spec.enableServiceLinks).toBeUndefined();
      expect(d.status).toEqual({});
    });

    it('keeps an explicit zero for replicas and revisionHistoryLimit, and explicit strategy values', async () => {
      const d = await created(spec({ replicas: 0, revisionHistoryLimit: 0, minReadySeconds: 5, strategy: { rollingUpdate: { maxSurge: 3 } } }));
      expect(d.spec.replicas).toBe(0);
      expect(d.spec.revisionHistoryLimit).toBe(0);
      expect(d.spec.minReadySeconds).toBe(5);
      expect(d.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: '25%' } });
    });

    it('gives a Recreate strategy no rollingUpdate', async () => {
      const d = await created(spec({ strategy: { type: 'Recreate' } }));
      expect(d.spec.strategy).toEqual({ type: 'Recreate' });
    });
  });

  describe('rules', () => {
    it('requires a selector', async () => {
      const c = await causes({ template: template() });
      expect(c).toContainEqual({ reason: 'FieldValueRequired', field: 'spec.selector', message: 'Required value' });
    });

    it('requires the selector to match the template labels', async () => {
      const c = await causes(spec({ template: template({ app: 'other' }) }));
      expect(c).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.template.metadata.labels', message: 'Invalid value: {"app":"other"}: `selector` does not match template `labels`' }]);
      // matchExpressions count too.
      const ok = await create({ selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] }, template: template() });
      expect(ok.status, ok.text).toBe(201);
    });

    it('refuses an empty or malformed selector', async () => {
      const empty = await causes(spec({ selector: {} }));
      expect(empty).toEqual([expect.objectContaining({ field: 'spec.selector', message: expect.stringContaining('empty selector is invalid for deployment') })]);
      const bad = await causes(spec({ selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }));
      expect(bad.map((e) => e.field)).toEqual(['spec.selector.matchExpressions[0].values', 'spec.selector']);
    });

    it('refuses negative replicas, minReadySeconds and revisionHistoryLimit', async () => {
      const c = await causes(spec({ replicas: -1, minReadySeconds: -2, revisionHistoryLimit: -3 }));
      expect(c).toEqual([
        { reason: 'FieldValueInvalid', field: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' },
        { reason: 'FieldValueInvalid', field: 'spec.minReadySeconds', message: 'Invalid value: -2: must be greater than or equal to 0' },
        { reason: 'FieldValueInvalid', field: 'spec.revisionHistoryLimit', message: 'Invalid value: -3: must be greater than or equal to 0' },
      ]);
    });

    it('requires progressDeadlineSeconds to exceed minReadySeconds', async () => {
      const c = await causes(spec({ minReadySeconds: 30, progressDeadlineSeconds: 30 }));
      expect(c).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.progressDeadlineSeconds', message: 'Invalid value: 30: must be greater than minReadySeconds' }]);
      await created(spec({ minReadySeconds: 30, progressDeadlineSeconds: 31 }));
    });

    it('does not allow maxSurge and maxUnavailable to be both zero, as numbers or percentages', async () => {
      for (const ru of [
        { maxSurge: 0, maxUnavailable: 0 },
        { maxSurge: '0%', maxUnavailable: 0 },
        { maxSurge: 0, maxUnavailable: '0%' },
      ]) {
        const c = await causes(spec({ strategy: { type: 'RollingUpdate', rollingUpdate: ru } }));
        expect(c).toEqual([expect.objectContaining({ field: 'spec.strategy.rollingUpdate.maxUnavailable', message: expect.stringContaining('may not be 0 when `maxSurge` is 0') })]);
      }
      await created(spec({ strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } }));
      await created(spec({ strategy: { rollingUpdate: { maxSurge: '1%', maxUnavailable: 0 } } }));
    });

    it('checks the percent syntax and caps maxUnavailable at 100%', async () => {
      const c = await causes(spec({ strategy: { rollingUpdate: { maxSurge: 'lots', maxUnavailable: '101%' } } }));
      expect(c).toEqual([
        {
          reason: 'FieldValueInvalid',
          field: 'spec.strategy.rollingUpdate.maxSurge',
          message: `Invalid value: "lots": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
        },
        { reason: 'FieldValueInvalid', field: 'spec.strategy.rollingUpdate.maxUnavailable', message: 'Invalid value: "101%": must not be greater than 100%' },
      ]);
      const neg = await causes(spec({ strategy: { rollingUpdate: { maxSurge: -1 } } }));
      expect(neg).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.strategy.rollingUpdate.maxSurge', message: 'Invalid value: -1: must be greater than or equal to 0' }]);
      // A surge above 100% is allowed.
      await created(spec({ strategy: { rollingUpdate: { maxSurge: '200%', maxUnavailable: '100%' } } }));
    });

    it('allows rollingUpdate only with the RollingUpdate type', async () => {
      const c = await causes(spec({ strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } }));
      expect(c).toEqual([{ reason: 'FieldValueForbidden', field: 'spec.strategy.rollingUpdate', message: "Forbidden: may not be specified when strategy `type` is 'Recreate'" }]);
      const other = await causes(spec({ strategy: { type: 'BlueGreen' } }));
      expect(other).toEqual([expect.objectContaining({ reason: 'FieldValueNotSupported', field: 'spec.strategy', message: expect.stringContaining('supported values: "Recreate", "RollingUpdate"') })]);
    });

    it('requires restartPolicy Always and no activeDeadlineSeconds in the template', async () => {
      const c = await causes(spec({ template: template({ app: 'web' }, { restartPolicy: 'OnFailure', activeDeadlineSeconds: 10 }) }));
      expect(c).toEqual([
        { reason: 'FieldValueNotSupported', field: 'spec.template.spec.restartPolicy', message: 'Unsupported value: "OnFailure": supported values: "Always"' },
        { reason: 'FieldValueInvalid', field: 'spec.template.spec.activeDeadlineSeconds', message: 'Invalid value: 10: activeDeadlineSeconds in ReplicaSet is not Supported' },
      ]);
    });

    it('validates the pod template as a pod spec', async () => {
      const c = await causes(spec({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web' }] } } }));
      expect(c).toEqual([{ reason: 'FieldValueRequired', field: 'spec.template.spec.containers[0].image', message: 'Required value' }]);
      const none = await causes(spec({ template: { metadata: { labels: { app: 'web' } }, spec: {} } }));
      expect(none).toContainEqual({ reason: 'FieldValueRequired', field: 'spec.template.spec.containers', message: 'Required value' });
    });

    it('requires read-only GCE disks with more than one replica', async () => {
      const vol = { name: 'disk', gcePersistentDisk: { pdName: 'pd' } };
      const c = await causes(spec({ replicas: 2, template: template({ app: 'web' }, { volumes: [vol] }) }));
      expect(c).toEqual([expect.objectContaining({ field: 'spec.template.spec.volumes[0].gcePersistentDisk.readOnly' })]);
      await created(spec({ replicas: 1, template: template({ app: 'web' }, { volumes: [vol] }) }));
    });

    it('keeps the selector immutable', async () => {
      const d = await created();
      const moved = { ...d, spec: { ...d.spec, selector: { matchLabels: { app: 'web', tier: 'x' } }, template: template({ app: 'web', tier: 'x' }) } };
      const st = expectStatus(await s.put(`${DEPLOY}/${d.metadata.name}`, moved), 422, 'Invalid');
      expect(st.details.causes).toEqual([expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec.selector', message: expect.stringContaining('field is immutable') })]);
    });

    it('carries the retainKeys patch strategy on spec.strategy in its OpenAPI', async () => {
      const doc = (await s.get('/openapi/v3/apis/apps/v1')).body;
      const deploymentSpec = Object.entries<any>(doc.components.schemas).find(([k]) => k.endsWith('apps.v1.DeploymentSpec'))?.[1];
      expect(deploymentSpec.properties.strategy['x-orch-patch-strategy']).toBe('retainKeys');
      expect(deploymentSpec.required).toEqual(['selector', 'template']);
    });
  });

  describe('generation', () => {
    it('starts at 1 and grows with spec and annotation changes, not with labels or status', async () => {
      const d = await created();
      const path = `${DEPLOY}/${d.metadata.name}`;
      expect(d.metadata.generation).toBe(1);
      const labelled = await s.patch(path, { metadata: { labels: { team: 'a' } } }, MERGE);
      expect(labelled.body.metadata.generation).toBe(1);
      const annotated = await s.patch(path, { metadata: { annotations: { note: 'x' } } }, MERGE);
      expect(annotated.body.metadata.generation).toBe(2);
      const scaled = await s.patch(path, { spec: { replicas: 3 } }, MERGE);
      expect(scaled.body.metadata.generation).toBe(3);
      const status = await s.patch(`${path}/status`, { status: { observedGeneration: 3, replicas: 3 } }, MERGE);
      expect(status.status, status.text).toBe(200);
      expect(status.body.metadata.generation).toBe(3);
      const same = await s.patch(path, { spec: { replicas: 3 } }, MERGE);
      expect(same.body.metadata.generation).toBe(3);
    });
  });

  describe('status subresource', () => {
    it('keeps status out of main-endpoint writes and spec and labels out of status writes', async () => {
      const d = await created(spec(), { labels: { a: '1' } });
      const path = `${DEPLOY}/${d.metadata.name}`;
      const viaMain = await s.patch(path, { status: { replicas: 5 } }, MERGE);
      expect(viaMain.status).toBe(200);
      expect(viaMain.body.status).toEqual({});
      const viaStatus = await s.patch(`${path}/status`, { spec: { replicas: 9 }, metadata: { labels: { a: '2' } }, status: { replicas: 2, readyReplicas: 1, availableReplicas: 1 } }, MERGE);
      expect(viaStatus.status, viaStatus.text).toBe(200);
      expect(viaStatus.body.spec.replicas).toBe(1);
      expect(viaStatus.body.metadata.labels).toEqual({ a: '1' });
      expect(viaStatus.body.status).toMatchObject({ replicas: 2, readyReplicas: 1, availableReplicas: 1 });
      expect((await s.get(`${path}/status`)).body.status.replicas).toBe(2);
    });

    it('checks the counts: none negative, none above replicas, available not above ready', async () => {
      const d = await created();
      const st = expectStatus(await s.patch(`${DEPLOY}/${d.metadata.name}/status`, { status: { replicas: 1, updatedReplicas: 2, readyReplicas: 1, availableReplicas: 2, unavailableReplicas: -1 } }, MERGE), 422, 'Invalid');
      expect(st.details.causes).toEqual([
        { reason: 'FieldValueInvalid', field: 'status.unavailableReplicas', message: 'Invalid value: -1: must be greater than or equal to 0' },
        { reason: 'FieldValueInvalid', field: 'status.updatedReplicas', message: 'Invalid value: 2: cannot be greater than status.replicas' },
        { reason: 'FieldValueInvalid', field: 'status.availableReplicas', message: 'Invalid value: 2: cannot be greater than status.replicas' },
        { reason: 'FieldValueInvalid', field: 'status.availableReplicas', message: 'Invalid value: 2: cannot be greater than readyReplicas' },
      ]);
    });

    it('never lets collisionCount go down', async () => {
      const d = await created();
      const path = `${DEPLOY}/${d.metadata.name}/status`;
      expect((await s.patch(path, { status: { collisionCount: 2 } }, MERGE)).status).toBe(200);
      const st = expectStatus(await s.patch(path, { status: { collisionCount: 1 } }, MERGE), 422, 'Invalid');
      expect(st.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'status.collisionCount', message: 'Invalid value: 1: cannot be decremented' }]);
    });

    it('stores conditions with their fields', async () => {
      const d = await created();
      const cond = { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: 'ok', lastUpdateTime: '2024-01-01T00:00:00Z', lastTransitionTime: '2024-01-01T00:00:00Z' };
      const r = await s.patch(`${DEPLOY}/${d.metadata.name}/status`, { status: { conditions: [cond], observedGeneration: 1 } }, MERGE);
      expect(r.status, r.text).toBe(200);
      expect(r.body.status.conditions).toEqual([cond]);
    });
  });

  describe('scale subresource', () => {
    it('reads as an autoscaling/v1 Scale with the selector as a string', async () => {
      const d = await created(spec({ replicas: 2, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['b', 'a'] }] } }));
      const r = await s.get(`${DEPLOY}/${d.metadata.name}/scale`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: { name: d.metadata.name, namespace: NS, uid: d.metadata.uid, resourceVersion: d.metadata.resourceVersion, creationTimestamp: d.metadata.creationTimestamp },
        spec: { replicas: 2 },
        status: { replicas: 0, selector: 'app=web,tier notin (a,b)' },
      });
    });

    it('updates and patches spec.replicas, growing the generation', async () => {
      const d = await created();
      const path = `${DEPLOY}/${d.metadata.name}`;
      const scale = (await s.get(`${path}/scale`)).body;
      const put = await s.put(`${path}/scale`, { ...scale, spec: { replicas: 4 } });
      expect(put.status, put.text).toBe(200);
      expect(put.body.spec.replicas).toBe(4);
      expect((await s.get(path)).body).toMatchObject({ spec: { replicas: 4 }, metadata: { generation: 2 } });
      const patched = await s.patch(`${path}/scale`, { spec: { replicas: 0 } }, MERGE);
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body.spec).toEqual({});
      expect((await s.get(path)).body.spec.replicas).toBe(0);
      const jp = await s.patch(`${path}/scale`, [{ op: 'add', path: '/spec/replicas', value: 2 }], JSON_PATCH);
      expect(jp.body.spec.replicas).toBe(2);
    });

    it('refuses negative replicas as an invalid Scale, and a stale resourceVersion as a conflict', async () => {
      const d = await created();
      const path = `${DEPLOY}/${d.metadata.name}/scale`;
      const scale = (await s.get(path)).body;
      const st = expectStatus(await s.put(path, { ...scale, spec: { replicas: -1 } }), 422, 'Invalid');
      expect(st.details).toMatchObject({ group: 'autoscaling', kind: 'Scale', causes: [{ field: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' }] });
      await s.patch(`${DEPLOY}/${d.metadata.name}`, { metadata: { labels: { bump: 'x' } } }, MERGE);
      expectStatus(await s.put(path, { ...scale, spec: { replicas: 3 } }), 409, 'Conflict');
      expect((await s.get(`${DEPLOY}/${d.metadata.name}`)).body.spec.replicas).toBe(1);
    });
  });

  it('supports only metadata field selectors', async () => {
    const d = await created();
    const r = await s.get(`${DEPLOY}?fieldSelector=metadata.name%3D${d.metadata.name}`);
    expect(r.body.items.map((i: any) => i.metadata.name)).toEqual([d.metadata.name]);
    expectStatus(await s.get(`${DEPLOY}?fieldSelector=spec.replicas%3D1`), 400, 'BadRequest');
  });
});
