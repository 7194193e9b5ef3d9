/** ReplicationController and PodTemplate (core/v1) over HTTP: selector and label defaults, template rules, /status, /scale, generation, their columns. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE } from './helpers.js';

const RCS = '/api/v1/namespaces/default/replicationcontrollers';
const PTS = '/api/v1/namespaces/default/podtemplates';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';
const template = (labels: Record<string, string> = { app: 'web' }, spec: Record<string, unknown> = {}) => ({ metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }], ...spec } });

describe('ReplicationController and PodTemplate', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('are served in core/v1: replicationcontrollers (rc, all, /scale, /status) and podtemplates', async () => {
    const resources = (await s.get('/api/v1')).body.resources;
    expect(resources.find((r: any) => r.name === 'replicationcontrollers')).toMatchObject({ kind: 'ReplicationController', shortNames: ['rc'], categories: ['all'] });
    expect(resources.find((r: any) => r.name === 'replicationcontrollers/scale')).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    expect(resources.find((r: any) => r.name === 'replicationcontrollers/status')).toBeDefined();
    expect(resources.find((r: any) => r.name === 'podtemplates')).toMatchObject({ kind: 'PodTemplate', namespaced: true });
  });

  it('RC: takes its selector and labels from the template, one replica, a zero status, and prints its row', async () => {
    const made = await s.post(RCS, { metadata: { name: 'web' }, spec: { template: template() }, status: { replicas: 4 } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.metadata.labels).toEqual({ app: 'web' });
    expect(made.body.metadata.generation).toBe(1);
    expect(made.body.spec).toMatchObject({ replicas: 1, selector: { app: 'web' } });
    expect(made.body.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
    expect(made.body.status).toEqual({ replicas: 0 });
    const table = await s.get(`${RCS}/web`, { accept: TABLE });
    expect(table.body.rows[0].cells.slice(0, 4)).toEqual(['web', 1, 0, 0]);
    expect(table.body.rows[0].cells.slice(5)).toEqual(['web', 'nginx:1.25', 'app=web']);
  });

  it('RC: selector, template and restart policy checked', async () => {
    expectCauses(await s.post(RCS, { metadata: { name: 'mismatch' }, spec: { selector: { app: 'other' }, template: template({ app: 'web' }, { restartPolicy: 'Never', activeDeadlineSeconds: 5 }) } }), [
      { field: 'spec.template.metadata.labels', message: 'Invalid value: {"app":"web"}: `selector` does not match template `labels`' },
      { reason: 'FieldValueNotSupported', field: 'spec.template.spec.restartPolicy', message: 'Unsupported value: "Never": supported values: "Always"' },
      { reason: 'FieldValueForbidden', field: 'spec.template.spec.activeDeadlineSeconds', message: 'Forbidden: activeDeadlineSeconds in ReplicationController is not Supported' },
    ]);
    expectCauses(await s.post(RCS, { metadata: { name: 'empty' }, spec: { replicas: -1 } }), [
      { reason: 'FieldValueRequired', field: 'spec.selector', message: 'Required value' },
      { field: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' },
      { reason: 'FieldValueRequired', field: 'spec.template', message: 'Required value' },
    ]);
  });

  it('RC: /scale reads and writes the replicas with the selector as a query; /status checks its counts', async () => {
    expect((await s.post(RCS, { metadata: { name: 'scaled' }, spec: { template: template({ app: 'scaled', tier: 'a' }) } })).status).toBe(201);
    const scale = await s.get(`${RCS}/scaled/scale`);
    expect(scale.status, scale.text).toBe(200);
    expect(scale.body).toMatchObject({ apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 1 }, status: { replicas: 0, selector: 'app=scaled,tier=a' } });
    const scaled = await s.patch(`${RCS}/scaled/scale`, { spec: { replicas: 3 } }, MERGE);
    expect(scaled.status, scaled.text).toBe(200);
    const after = await s.get(`${RCS}/scaled`);
    expect(after.body.spec.replicas).toBe(3);
    expect(after.body.metadata.generation).toBe(2);
    const status = await s.patch(`${RCS}/scaled/status`, { status: { replicas: 3, readyReplicas: 2, availableReplicas: 2, fullyLabeledReplicas: 3 } }, MERGE);
    expect(status.status, status.text).toBe(200);
    expectCauses(await s.patch(`${RCS}/scaled/status`, { status: { replicas: 1, readyReplicas: 2, availableReplicas: 2, fullyLabeledReplicas: 1 } }, MERGE), [
      { field: 'status.readyReplicas', message: 'Invalid value: 2: cannot be greater than status.replicas' },
      { field: 'status.availableReplicas', message: 'Invalid value: 2: cannot be greater than status.replicas' },
    ]);
  });

  it('PodTemplate: defaults, template rules, generation, its columns', async () => {
    const made = await s.post(PTS, { metadata: { name: 'tpl' }, template: template({ app: 'tpl' }) });
    expect(made.status, made.text).toBe(201);
    expect(made.body.metadata.generation).toBe(1);
    expect(made.body.template.spec).toMatchObject({ restartPolicy: 'Always', schedulerName: 'default-scheduler' });
    const row = (await s.get(`${PTS}/tpl`, { accept: TABLE })).body;
    expect(row.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Containers', 'Images', 'Pod Labels']);
    expect(row.rows[0].cells).toEqual(['tpl', 'web', 'nginx:1.25', 'app=tpl']);
    const changed = await s.patch(`${PTS}/tpl`, { template: { metadata: { labels: { app: 'tpl2' } } } }, MERGE);
    expect(changed.body.metadata.generation).toBe(2);
    expectCauses(await s.post(PTS, { metadata: { name: 'bad' }, template: { spec: { containers: [] } } }), [{ reason: 'FieldValueRequired', field: 'template.spec.containers', message: 'Required value' }]);
  });
});
