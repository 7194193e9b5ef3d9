import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, invalidCauses, MERGE } from './helpers.js';

const PVCS = '/api/v1/namespaces/default/persistentvolumeclaims';

describe('PersistentVolumeClaim', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const pvc = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
    metadata: { name, ...metadata },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  });
  const create = async (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => {
    const r = await s.post(PVCS, pvc(name, spec, metadata));
    expect(r.status, r.text).toBe(201);
    return r.body;
  };

  it('is namespaced with short name pvc and a status subresource', async () => {
    const r = await s.get('/api/v1');
    expect(r.body.resources.find((x: any) => x.name === 'persistentvolumeclaims')).toMatchObject({ namespaced: true, shortNames: ['pvc'] });
    expect(r.body.resources.find((x: any) => x.name === 'persistentvolumeclaims/status')).toBeTruthy();
  });

  it('defaults the volume mode and starts Pending whatever status is sent', async () => {
    const r = await s.post(PVCS, { ...pvc('defaults'), status: { phase: 'Bound', capacity: { storage: '5Gi' } } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.volumeMode).toBe('Filesystem');
    expect(r.body.status).toEqual({ phase: 'Pending' });
  });

  it('needs at least one known access mode', async () => {
    expectCauses(await s.post(PVCS, pvc('no-modes', { accessModes: [] })), [
      { field: 'spec.accessModes', reason: 'FieldValueRequired', message: 'Required value: at least 1 access mode is required' },
    ]);
    expectCauses(await s.post(PVCS, pvc('bad-mode', { accessModes: ['ReadWriteSometimes'] })), [{ field: 'spec.accessModes', reason: 'FieldValueNotSupported' }]);
  });

  it('needs a positive storage request, named resources[storage] as Kubernetes does', async () => {
    expectCauses(await s.post(PVCS, pvc('no-storage', { resources: { requests: { cpu: '1' } } })), [{ field: 'spec.resources[storage]', reason: 'FieldValueRequired' }]);
    expectCauses(await s.post(PVCS, pvc('zero-storage', { resources: { requests: { storage: '0' } } })), [
      { field: 'spec.resources[storage]', message: 'Invalid value: "0": must be greater than zero' },
    ]);
    const bad = await s.post(PVCS, pvc('nan-storage', { resources: { requests: { storage: 'big' } } }));
    expect(bad.status).toBe(400);
  });

  it('checks the selector, class, volume mode and data sources', async () => {
    expectCauses(await s.post(PVCS, pvc('selector', { selector: { matchExpressions: [{ key: 'a', operator: 'Has' }] } })), [
      { field: 'spec.selector.matchExpressions[0].operator', message: 'Invalid value: "Has": not a valid selector operator' },
    ]);
    expectCauses(await s.post(PVCS, pvc('class', { storageClassName: 'Not/A/Class' })), [{ field: 'spec.storageClassName', reason: 'FieldValueInvalid' }]);
    expectCauses(await s.post(PVCS, pvc('mode', { volumeMode: 'Raw' })), [{ field: 'spec.volumeMode', reason: 'FieldValueNotSupported' }]);
    expectCauses(await s.post(PVCS, pvc('ds-name', { dataSource: { kind: 'PersistentVolumeClaim', name: '' } })), [
      { field: 'spec.dataSource.name', reason: 'FieldValueRequired' },
      { field: 'spec.dataSourceRef.name', reason: 'FieldValueRequired' },
    ]);
    expectCauses(
      await s.post(PVCS, pvc('ds-mismatch', { dataSource: { kind: 'PersistentVolumeClaim', name: 'a' }, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' } })),
      [{ field: 'spec', message: 'Invalid value: "spec.dataSource": must match dataSourceRef' }],
    );
    expectCauses(await s.post(PVCS, pvc('ds-core-kind', { dataSourceRef: { kind: 'ConfigMap', name: 'x' } })), [
      { field: 'spec.dataSource', reason: 'FieldValueInvalid' },
      { field: 'spec.dataSourceRef', reason: 'FieldValueInvalid' },
    ]);
  });

  it('mirrors dataSource and dataSourceRef, dropping a dataSource that is neither a claim nor a snapshot', async () => {
    const claim = await create('ds-claim', { dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } });
    expect(claim.spec.dataSourceRef).toEqual({ kind: 'PersistentVolumeClaim', name: 'src' });
    const snapshot = await create('ds-snap', { dataSourceRef: { apiGroup: 'snapshot.storage.orch.io', kind: 'VolumeSnapshot', name: 'snap' } });
    expect(snapshot.spec.dataSource).toEqual({ apiGroup: 'snapshot.storage.orch.io', kind: 'VolumeSnapshot', name: 'snap' });
    const populator = await create('ds-populator', { dataSource: { apiGroup: 'example.com', kind: 'Thing', name: 't' } });
    expect(populator.spec.dataSource).toBeUndefined();
    expect(populator.spec.dataSourceRef).toBeUndefined();
    const viaRef = await create('ds-populator-ref', { dataSourceRef: { apiGroup: 'example.com', kind: 'Thing', name: 't' } });
    expect(viaRef.spec.dataSource).toEqual({ apiGroup: 'example.com', kind: 'Thing', name: 't' });
  });

  describe('updates', () => {
    it('keep the spec, except that volumeName may be set once', async () => {
      await create('imm');
      const [cause] = invalidCauses(await s.patch(`${PVCS}/imm`, { spec: { accessModes: ['ReadWriteMany'] } }, MERGE));
      expect(cause).toMatchObject({ field: 'spec', reason: 'FieldValueForbidden' });
      expect(cause?.message).toMatch(/^Forbidden: spec is immutable after creation except resources.requests for bound claims\n/);
      expect((await s.patch(`${PVCS}/imm`, { spec: { volumeName: 'pv-1' } }, MERGE)).status).toBe(200);
      expectCauses(await s.patch(`${PVCS}/imm`, { spec: { volumeName: 'pv-2' } }, MERGE), [{ field: 'spec', reason: 'FieldValueForbidden' }]);
      expectCauses(await s.patch(`${PVCS}/imm`, { spec: { volumeMode: 'Block' } }, MERGE), [{ field: 'spec' }, { field: 'volumeMode', message: 'Invalid value: "Block": field is immutable' }]);
    });

    it('let a bound claim grow its storage request, never shrink it', async () => {
      // PersistentVolumeClaimResize lets a claim grow only through a class that allows it.
      const sc = await s.post('/apis/storage.orch.io/v1/storageclasses', { metadata: { name: 'expandable' }, provisioner: 'example.com/p', allowVolumeExpansion: true });
      expect(sc.status, sc.text).toBe(201);
      await create('grow', { storageClassName: 'expandable' });
      // Not bound yet: the request is part of the fixed spec.
      expectCauses(await s.patch(`${PVCS}/grow`, { spec: { resources: { requests: { storage: '2Gi' } } } }, MERGE), [{ field: 'spec', reason: 'FieldValueForbidden' }]);
      expect((await s.patch(`${PVCS}/grow/status`, { status: { phase: 'Bound', capacity: { storage: '1Gi' } } }, MERGE)).status).toBe(200);
      const grown = await s.patch(`${PVCS}/grow`, { spec: { resources: { requests: { storage: '2Gi' } } } }, MERGE);
      expect(grown.status, grown.text).toBe(200);
      expect(grown.body.spec.resources.requests.storage).toBe('2Gi');
      expectCauses(await s.patch(`${PVCS}/grow`, { spec: { resources: { requests: { storage: '1536Mi' } } } }, MERGE), [
        { field: 'spec.resources.requests.storage', reason: 'FieldValueForbidden', message: 'Forbidden: field can not be less than previous value' },
      ]);
      // Only storage may change, even when bound.
      expectCauses(await s.patch(`${PVCS}/grow`, { spec: { resources: { requests: { storage: '2Gi', cpu: '1' } } } }, MERGE), [{ field: 'spec' }]);
    });

    it('allow the class to move from the beta annotation into storageClassName', async () => {
      const key = 'volume.beta.orch.io/storage-class';
      await create('upgrade', {}, { annotations: { [key]: 'gold' } });
      expectCauses(await s.patch(`${PVCS}/upgrade`, { spec: { storageClassName: 'silver' } }, MERGE), [{ field: 'spec' }]);
      const r = await s.patch(`${PVCS}/upgrade`, { spec: { storageClassName: 'gold' } }, MERGE);
      expect(r.status, r.text).toBe(200);
      expectCauses(await s.patch(`${PVCS}/upgrade`, { metadata: { annotations: { [key]: 'bronze' } } }, MERGE), [
        { field: `metadata.annotations.${key}`, message: 'Invalid value: "bronze": field is immutable' },
      ]);
    });
  });

  describe('status', () => {
    it('is written through /status only, which keeps the spec', async () => {
      await create('st');
      const main = await s.patch(`${PVCS}/st`, { status: { phase: 'Bound' } }, MERGE);
      expect(main.body.status.phase).toBe('Pending');
      const st = await s.patch(`${PVCS}/st/status`, { spec: { volumeName: 'sneaky' }, status: { phase: 'Bound', capacity: { storage: '1024Mi' }, accessModes: ['ReadWriteOnce'] } }, MERGE);
      expect(st.status, st.text).toBe(200);
      expect(st.body.status).toMatchObject({ phase: 'Bound', capacity: { storage: '1Gi' } });
      expect(st.body.spec.volumeName).toBeUndefined();
    });

    it('drops the alpha expansion-recovery fields and refuses negative capacity', async () => {
      await create('st-alpha');
      const r = await s.patch(`${PVCS}/st-alpha/status`, { status: { allocatedResources: { storage: '1Gi' }, resizeStatus: 'ControllerExpansionInProgress' } }, MERGE);
      expect(r.status, r.text).toBe(200);
      expect(r.body.status.allocatedResources).toBeUndefined();
      expect(r.body.status.resizeStatus).toBeUndefined();
      expectCauses(await s.patch(`${PVCS}/st-alpha/status`, { status: { capacity: { storage: '-1Gi' } } }, MERGE), [
        { field: 'status.capacity[storage]', message: 'Invalid value: -1073741824: must be a valid resource quantity' },
      ]);
    });
  });

  it('answers a delete with the deleted claim', async () => {
    await create('gone');
    const r = await s.del(`${PVCS}/gone`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'PersistentVolumeClaim', metadata: { name: 'gone' } });
  });
});
