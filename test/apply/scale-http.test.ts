/**
 * Field management through the subresources of the built-in Deployment and ReplicaSet over HTTP:
 * /scale as Kubernetes' scale handler keeps it (entries with subresource "scale" on the parent,
 * in the parent's terms, conflicts both ways, no managedFields on the Scale), and /status
 * recording its subresource for every write type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectStatus } from '../rest/fixtures.js';

const NS = 'scale-fields';
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const REPLICAS = { 'f:spec': { 'f:replicas': {} } };

type Entry = Record<string, any>;

const workload = (kind: 'Deployment' | 'ReplicaSet', name: string, replicas?: number) => ({
  apiVersion: 'apps/v1',
  kind,
  metadata: { name },
  spec: {
    ...(replicas === undefined ? {} : { replicas }),
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } },
  },
});
const scale = (name: string, replicas: number) => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace: NS }, spec: { replicas } });

/** Entries as [manager, operation, apiVersion, subresource, fieldsV1], sorted by manager then operation. */
const entries = (obj: any): [string, string, string, string, unknown][] =>
  ((obj.metadata.managedFields ?? []) as Entry[])
    .map((e): [string, string, string, string, unknown] => [e.manager, e.operation, e.apiVersion, e.subresource ?? '', e.fieldsV1])
    .sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? -1 : 1));
const entryOf = (obj: any, manager: string): Entry | undefined => (obj.metadata.managedFields as Entry[]).find((e) => e.manager === manager);

describe('field management through /scale and /status', () => {
  let s: TestServer;
  const path = (resource: string, name = '', sub = '') => `/apis/apps/v1/namespaces/${NS}/${resource}${name ? `/${name}` : ''}${sub ? `/${sub}` : ''}`;

  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  });
  afterAll(() => s.close());

  for (const [kind, resource] of [['Deployment', 'deployments'], ['ReplicaSet', 'replicasets']] as const) {
    it(`${kind}: apply to /scale conflicts with the applier of spec.replicas, force takes it, and entries land on the ${kind} (Kubernetes' scale test)`, async () => {
      const name = `${resource}-1`;
      const applied = await s.patch(`${path(resource, name)}?fieldManager=apply_test`, workload(kind, name, 1), APPLY);
      expect(applied.status, applied.text).toBe(201);

      // A merge patch of /scale: an Update entry with subresource scale owning spec.replicas, at apps/v1, without a time.
      const merged = await s.patch(`${path(resource, name, 'scale')}?fieldManager=scale_test`, { spec: { replicas: 5 } }, MERGE);
      expect(merged.status, merged.text).toBe(200);
      expect(merged.body).toMatchObject({ apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 5 } });
      expect(merged.body.metadata.managedFields).toBeUndefined();
      let parent = (await s.get(path(resource, name))).body;
      expect(parent.spec.replicas).toBe(5);
      const scaleEntry = entryOf(parent, 'scale_test');
      expect(scaleEntry).toEqual({ manager: 'scale_test', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: REPLICAS, subresource: 'scale' });
      expect((entryOf(parent, 'apply_test')?.fieldsV1 as any)['f:spec']['f:replicas']).toBeUndefined();

      // Re-applying the original object conflicts with the scaler, then force takes replicas back.
      const conflict = expectStatus(await s.patch(`${path(resource, name)}?fieldManager=apply_test`, workload(kind, name, 1), APPLY), 409, 'Conflict');
      expect(conflict.message).toBe('Apply failed with 1 conflict: conflict with "scale_test" with subresource "scale" using apps/v1: .spec.replicas');
      expect((await s.patch(`${path(resource, name)}?fieldManager=apply_test&force=true`, workload(kind, name, 1), APPLY)).status).toBe(200);
      parent = (await s.get(path(resource, name))).body;
      expect(parent.spec.replicas).toBe(1);
      expect(entryOf(parent, 'scale_test')).toBeUndefined();

      // Apply to /scale with another value conflicts with the main-resource applier.
      const scaleConflict = expectStatus(await s.patch(`${path(resource, name, 'scale')}?fieldManager=apply_scale`, scale(name, 17), APPLY), 409, 'Conflict');
      expect(scaleConflict.message).toBe('Apply failed with 1 conflict: conflict with "apply_test": .spec.replicas');
      expect(scaleConflict.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "apply_test"', field: '.spec.replicas' }]);
      expect((await s.get(path(resource, name))).body.spec.replicas).toBe(1);

      const forced = await s.patch(`${path(resource, name, 'scale')}?fieldManager=apply_scale&force=true`, scale(name, 17), APPLY);
      expect(forced.status, forced.text).toBe(200);
      expect(forced.body).toMatchObject({ kind: 'Scale', spec: { replicas: 17 } });
      parent = (await s.get(path(resource, name))).body;
      expect(parent.spec.replicas).toBe(17);
      expect(entryOf(parent, 'apply_scale')).toEqual({ manager: 'apply_scale', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: REPLICAS, subresource: 'scale' });
      expect((entryOf(parent, 'apply_test')?.fieldsV1 as any)['f:spec']['f:replicas']).toBeUndefined();

      // PUT of the Scale replaces the owner; an apply of the same value then shares it.
      const put = await s.put(`${path(resource, name, 'scale')}?fieldManager=replace_test`, scale(name, 7));
      expect(put.status, put.text).toBe(200);
      expect((await s.patch(`${path(resource, name, 'scale')}?fieldManager=co_owning_test`, scale(name, 7), APPLY)).status).toBe(200);
      parent = (await s.get(path(resource, name))).body;
      const owners = (parent.metadata.managedFields as Entry[]).filter((e) => (e.fieldsV1 as any)['f:spec']?.['f:replicas']).map((e) => e.manager).sort();
      expect(owners).toEqual(['co_owning_test', 'replace_test']);

      // Scaling again makes that manager the only owner.
      expect((await s.patch(`${path(resource, name, 'scale')}?fieldManager=scale_test`, { spec: { replicas: 5 } }, MERGE)).status).toBe(200);
      parent = (await s.get(path(resource, name))).body;
      expect(entries(parent).filter((e) => (e[4] as any)['f:spec']?.['f:replicas'])).toEqual([['scale_test', 'Update', 'apps/v1', 'scale', REPLICAS]]);
    });
  }

  it('GET /scale shows no managedFields, as Kubernetes builds the Scale without them', async () => {
    await s.patch(`${path('deployments', 'get-scale')}?fieldManager=owner`, workload('Deployment', 'get-scale', 2), APPLY);
    await s.patch(`${path('deployments', 'get-scale', 'scale')}?fieldManager=hpa`, { spec: { replicas: 3 } }, MERGE);
    const got = await s.get(path('deployments', 'get-scale', 'scale'));
    expect(got.status).toBe(200);
    expect(Object.keys(got.body.metadata).sort()).toEqual(['creationTimestamp', 'name', 'namespace', 'resourceVersion', 'uid']);
    expect(got.body.spec).toEqual({ replicas: 3 });
  });

  it('a /scale patch changing only the Scale status records nothing on the parent (Kubernetes: TestScaleUpdateOnlyStatus)', async () => {
    await s.patch(`${path('deployments', 'status-only')}?fieldManager=apply_test`, workload('Deployment', 'status-only', 1), APPLY);
    const before = (await s.get(path('deployments', 'status-only'))).body;
    const r = await s.patch(`${path('deployments', 'status-only', 'scale')}?fieldManager=scale_test`, { status: { replicas: 42 } }, MERGE);
    expect(r.status, r.text).toBe(200);
    const after = (await s.get(path('deployments', 'status-only'))).body;
    expect(after.spec.replicas).toBe(1);
    expect(entries(after)).toEqual(entries(before));
  });

  it('JSON, strategic merge patches and PUT of /scale each record an Update entry with subresource scale', async () => {
    await s.patch(`${path('deployments', 'each-type')}?fieldManager=owner`, workload('Deployment', 'each-type', 1), APPLY);
    const writes: [string, () => Promise<any>][] = [
      ['json', () => s.patch(`${path('deployments', 'each-type', 'scale')}?fieldManager=json`, [{ op: 'replace', path: '/spec/replicas', value: 2 }], JSON_PATCH)],
      ['smp', () => s.patch(`${path('deployments', 'each-type', 'scale')}?fieldManager=smp`, { spec: { replicas: 3 } }, STRATEGIC)],
      ['put', () => s.put(`${path('deployments', 'each-type', 'scale')}?fieldManager=put`, scale('each-type', 4))],
    ];
    for (const [manager, write] of writes) {
      const r = await write();
      expect(r.status, r.text).toBe(200);
      const parent = (await s.get(path('deployments', 'each-type'))).body;
      expect(entries(parent).filter((e) => (e[4] as any)['f:spec']?.['f:replicas'])).toEqual([[manager, 'Update', 'apps/v1', 'scale', REPLICAS]]);
    }
  });

  it('apply to /scale: fieldManager required, dry run changes nothing, a missing parent is 404', async () => {
    await s.patch(`${path('deployments', 'apply-edges')}?fieldManager=owner`, workload('Deployment', 'apply-edges', 1), APPLY);
    const missingManager = expectStatus(await s.patch(path('deployments', 'apply-edges', 'scale'), scale('apply-edges', 1), APPLY), 422, 'Invalid');
    expect(missingManager.details.causes).toEqual([{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }]);
    const before = (await s.get(path('deployments', 'apply-edges'))).body;
    const dry = await s.patch(`${path('deployments', 'apply-edges', 'scale')}?fieldManager=x&force=true&dryRun=All`, scale('apply-edges', 9), APPLY);
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.spec.replicas).toBe(9);
    expect((await s.get(path('deployments', 'apply-edges'))).body).toEqual(before);
    const missing = expectStatus(await s.patch(`${path('deployments', 'nothing-here', 'scale')}?fieldManager=x`, scale('nothing-here', 1), APPLY), 404, 'NotFound');
    expect(missing.message).toBe('deployments.apps "nothing-here" not found');
  });

  it('/status records subresource status for apply, every patch type and PUT', async () => {
    const name = 'status-writes';
    await s.patch(`${path('deployments', name)}?fieldManager=owner`, workload('Deployment', name, 1), APPLY);
    const writes: [string, string, (rv: string) => Promise<any>, Record<string, unknown>][] = [
      ['applier', 'Apply', () => s.patch(`${path('deployments', name, 'status')}?fieldManager=applier`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, status: { replicas: 1 } }, APPLY), { 'f:status': { 'f:replicas': {} } }],
      ['merger', 'Update', () => s.patch(`${path('deployments', name, 'status')}?fieldManager=merger`, { status: { readyReplicas: 1 } }, MERGE), { 'f:status': { 'f:readyReplicas': {} } }],
      ['jsoner', 'Update', () => s.patch(`${path('deployments', name, 'status')}?fieldManager=jsoner`, [{ op: 'add', path: '/status/availableReplicas', value: 1 }], JSON_PATCH), { 'f:status': { 'f:availableReplicas': {} } }],
      ['smper', 'Update', () => s.patch(`${path('deployments', name, 'status')}?fieldManager=smper`, { status: { updatedReplicas: 1 } }, STRATEGIC), { 'f:status': { 'f:updatedReplicas': {} } }],
      [
        'putter',
        'Update',
        async () => {
          const cur = (await s.get(path('deployments', name))).body;
          return s.put(`${path('deployments', name, 'status')}?fieldManager=putter`, { ...cur, status: { ...cur.status, observedGeneration: 1 } });
        },
        { 'f:status': { 'f:observedGeneration': {} } },
      ],
    ];
    for (const [manager, operation, write, fields] of writes) {
      const r = await write('');
      expect(r.status, `${manager}: ${r.text}`).toBe(200);
      const parent = (await s.get(path('deployments', name))).body;
      const e = entryOf(parent, manager);
      expect(e, manager).toMatchObject({ manager, operation, apiVersion: 'apps/v1', subresource: 'status', fieldsV1: fields });
      expect(typeof e?.time, manager).toBe('string');
    }
  });
});
