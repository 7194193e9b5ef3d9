/**
 * Markers Kubernetes 1.25 puts on single fields rather than on types, seen through apply and
 * OpenAPI: PersistentVolumeSpec.claimRef is a granular ObjectReference (atomic elsewhere), a
 * RawExtension (ControllerRevision.data) is one atomic value, Ingress' ServiceBackendPort is
 * granular, and flow-control conditions publish no required fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const APPLY = 'application/apply-patch+yaml';
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

function fieldsOf(body: any, manager: string): unknown {
  return body.metadata.managedFields.find((e: any) => e.manager === manager)?.fieldsV1;
}

describe('per-field markers under apply', () => {
  it('merges a persistent volume claimRef field by field, so two managers share it', async () => {
    const pv = (claimRef: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'granular-claimref' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv' }, claimRef },
    });
    const first = await s.patch('/api/v1/persistentvolumes/granular-claimref?fieldManager=binder', pv({ namespace: 'default', name: 'claim' }), APPLY);
    expect(first.status, first.text).toBe(201);
    // Granular: the applier owns claimRef's fields (atomic would read `'f:claimRef': {}`).
    expect((fieldsOf(first.body, 'binder') as any)['f:spec']['f:claimRef']).toEqual({ 'f:name': {}, 'f:namespace': {} });

    const second = await s.patch('/api/v1/persistentvolumes/granular-claimref?fieldManager=reserver', { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'granular-claimref' }, spec: { claimRef: { uid: 'u-1' } } }, APPLY);
    expect(second.status, second.text).toBe(200);
    expect(second.body.spec.claimRef).toEqual({ namespace: 'default', name: 'claim', uid: 'u-1' });
  });

  it('keeps a ControllerRevision data value atomic: one owner of the whole value', async () => {
    const r = await s.patch(
      '/apis/apps/v1/namespaces/default/controllerrevisions/atomic-data?fieldManager=ctl',
      { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'atomic-data' }, revision: 1, data: { spec: { replicas: 2 } } },
      APPLY,
    );
    expect(r.status, r.text).toBe(201);
    expect(fieldsOf(r.body, 'ctl')).toEqual({ 'f:data': {}, 'f:revision': {} });
  });
});

describe('per-field markers in OpenAPI', () => {
  it('marks claimRef granular beside its atomic ObjectReference type', async () => {
    const schemas = (await s.get('/openapi/v3/api/v1')).body.components.schemas;
    expect(schemas['io.orch.api.core.v1.ObjectReference']['x-orch-map-type']).toBe('atomic');
    expect(schemas['io.orch.api.core.v1.PersistentVolumeSpec'].properties.claimRef['x-orch-map-type']).toBe('granular');
  });

  it('leaves ServiceBackendPort granular and flow-control conditions without required fields', async () => {
    const networking = (await s.get('/openapi/v3/apis/networking.orch.io/v1')).body.components.schemas;
    expect(networking['io.orch.api.networking.v1.ServiceBackendPort']).not.toHaveProperty('x-orch-map-type');
    const flow = (await s.get('/openapi/v3/apis/flowcontrol.apiserver.orch.io/v1beta2')).body.components.schemas;
    expect(flow['io.orch.api.flowcontrol.v1beta2.FlowSchemaCondition']).not.toHaveProperty('required');
    expect(flow['io.orch.api.flowcontrol.v1beta2.PriorityLevelConfigurationCondition']).not.toHaveProperty('required');
  });
});
