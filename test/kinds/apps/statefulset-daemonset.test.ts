/** StatefulSet and DaemonSet (apps/v1) over HTTP: defaults, validation in Kubernetes' words, immutable parts, /status and /scale. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE } from '../core/helpers.js';

const STS = '/apis/apps/v1/namespaces/default/statefulsets';
const DS = '/apis/apps/v1/namespaces/default/daemonsets';
const template = (app: string, extra: Record<string, unknown> = {}) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }], ...extra } });
const sts = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { serviceName: 'svc', selector: { matchLabels: { app: name } }, template: template(name), ...spec } });
const ds = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { selector: { matchLabels: { app: name } }, template: template(name), ...spec } });

describe('StatefulSet', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served with /status and /scale, short name sts, category all', async () => {
    const resources = (await s.get('/apis/apps/v1')).body.resources;
    expect(resources.find((r: any) => r.name === 'statefulsets')).toMatchObject({ kind: 'StatefulSet', shortNames: ['sts'], categories: ['all'] });
    expect(resources.map((r: any) => r.name)).toEqual(expect.arrayContaining(['statefulsets/status', 'statefulsets/scale', 'daemonsets', 'daemonsets/status']));
    expect(resources.map((r: any) => r.name)).not.toContain('daemonsets/scale');
  });

  it('fills defaults (claim templates as claims) and drops the alpha fields of 1.25', async () => {
    const made = await s.post(STS, sts('db', {
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
    }));
    expect(made.status, made.text).toBe(201);
    expect(made.body.spec).toMatchObject({ replicas: 1, podManagementPolicy: 'OrderedReady', revisionHistoryLimit: 10, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } } });
    expect(made.body.spec.persistentVolumeClaimRetentionPolicy).toBeUndefined();
    expect(made.body.spec.volumeClaimTemplates[0]).toMatchObject({ spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } });
    expect(made.body.status).toEqual({ replicas: 0, availableReplicas: 0 });
  });

  it('validates the spec as Kubernetes 1.25 does', async () => {
    expectCauses(await s.post(STS, sts('bad', { podManagementPolicy: 'Random', replicas: -1, updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } }, template: template('other', { restartPolicy: 'Never' }) })), [
      { field: 'spec.podManagementPolicy', message: 'Invalid value: "Random": must be \'OrderedReady\' or \'Parallel\'' },
      { field: 'spec.updateStrategy.rollingUpdate', message: 'Invalid value: {"partition":1}: only allowed for updateStrategy \'RollingUpdate\'' },
      { field: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' },
      { field: 'spec.template.metadata.labels', message: 'Invalid value: {"app":"other"}: `selector` does not match template `labels`' },
      { reason: 'FieldValueNotSupported', field: 'spec.template.spec.restartPolicy', message: 'Unsupported value: "Never": supported values: "Always"' },
    ]);
    expectCauses(await s.post(STS, sts('empty', { selector: {} })), [{ field: 'spec.selector', message: 'Invalid value: {}: empty selector is invalid for statefulset' }]);
  });

  it('forbids changing anything but replicas, template, updateStrategy and minReadySeconds', async () => {
    expect((await s.post(STS, sts('web'))).status).toBe(201);
    const ok = await s.patch(`${STS}/web`, { spec: { replicas: 3, minReadySeconds: 5, template: { spec: { containers: [{ name: 'c', image: 'busybox:1.37' }] } } } }, MERGE);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.metadata.generation).toBe(2);
    expectCauses(await s.patch(`${STS}/web`, { spec: { serviceName: 'other' } }, MERGE), [
      {
        reason: 'FieldValueForbidden',
        field: 'spec',
        message: "Forbidden: updates to statefulset spec for fields other than 'replicas', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      },
    ]);
  });

  it('scales through /scale and writes status through /status', async () => {
    expect((await s.post(STS, sts('scaled'))).status).toBe(201);
    const scale = await s.get(`${STS}/scaled/scale`);
    expect(scale.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 }, status: { replicas: 0, selector: 'app=scaled' } });
    const put = await s.put(`${STS}/scaled/scale`, { ...scale.body, spec: { replicas: 4 } });
    expect(put.status, put.text).toBe(200);
    expect((await s.get(`${STS}/scaled`)).body.spec.replicas).toBe(4);
    const status = await s.patch(`${STS}/scaled/status`, { status: { replicas: 2, readyReplicas: 2, availableReplicas: 1, collisionCount: 2 } }, MERGE);
    expect(status.status, status.text).toBe(200);
    expectCauses(await s.patch(`${STS}/scaled/status`, { status: { readyReplicas: 3, availableReplicas: 3, collisionCount: 1 } }, MERGE), [
      { field: 'status.readyReplicas', message: 'Invalid value: 3: cannot be greater than status.replicas' },
      { field: 'status.availableReplicas', message: 'Invalid value: 3: cannot be greater than status.replicas' },
      { field: 'status.collisionCount', message: 'Invalid value: 1: cannot be decremented' },
    ]);
  });
});

describe('DaemonSet', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('fills defaults: a rolling update by one unavailable node, no surge', async () => {
    const made = await s.post(DS, ds('agent'));
    expect(made.status, made.text).toBe(201);
    expect(made.body.spec).toMatchObject({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10 });
    expect(made.body.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    expect(made.body.metadata.generation).toBe(1);
  });

  it('validates the update strategy and template as Kubernetes 1.25 does', async () => {
    expectCauses(await s.post(DS, ds('both', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 1 } } })), [
      { field: 'spec.updateStrategy.rollingUpdate.maxSurge', message: 'Invalid value: 1: may not be set when maxUnavailable is non-zero' },
    ]);
    expectCauses(await s.post(DS, ds('neither', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } } })), [
      { reason: 'FieldValueRequired', field: 'spec.updateStrategy.rollingUpdate.maxUnavailable', message: 'Required value: cannot be 0 when maxSurge is 0' },
    ]);
    expectCauses(await s.post(DS, ds('too-much', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%' } } })), [
      { field: 'spec.updateStrategy.rollingUpdate.maxUnavailable', message: 'Invalid value: "150%": must not be greater than 100%' },
    ]);
    expectCauses(await s.post(DS, ds('deadline', { template: template('deadline', { activeDeadlineSeconds: 5 }) })), [
      { field: 'spec.template.spec.activeDeadlineSeconds', message: 'Invalid value: 5: activeDeadlineSeconds in DaemonSet is not Supported' },
    ]);
    expectCauses(await s.post(DS, ds('no-image', { template: { metadata: { labels: { app: 'no-image' } }, spec: { containers: [{ name: 'c' }] } } })), [
      { reason: 'FieldValueRequired', field: 'spec.template.spec.containers[0].image' },
    ]);
  });

  it('keeps the selector immutable and validates status counts', async () => {
    expect((await s.post(DS, ds('fixed'))).status).toBe(201);
    expectCauses(await s.patch(`${DS}/fixed`, { spec: { selector: { matchLabels: { app: 'fixed', tier: 'x' } }, template: { metadata: { labels: { tier: 'x' } } } } }, MERGE), [
      { field: 'spec.selector', message: 'Invalid value: {"matchLabels":{"app":"fixed","tier":"x"}}: field is immutable' },
    ]);
    expectCauses(await s.patch(`${DS}/fixed/status`, { status: { numberReady: -1 } }, MERGE), [{ field: 'status.numberReady', message: 'Invalid value: -1: must be greater than or equal to 0' }]);
  });
});
