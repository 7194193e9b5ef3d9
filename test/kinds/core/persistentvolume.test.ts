import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, invalidCauses, MERGE } from './helpers.js';

const PVS = '/api/v1/persistentvolumes';
const ACCESS_MSG = 'supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"';

describe('PersistentVolume', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const pv = (name: string, spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
    metadata: { name, ...((extra.metadata as object) ?? {}) },
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/tmp/${name}` }, ...spec },
    ...(extra.status ? { status: extra.status } : {}),
  });
  const without = (spec: Record<string, unknown>, key: string) => {
    const out = { ...spec };
    delete out[key];
    return out;
  };

  it('is cluster-scoped with short name pv and a status subresource', async () => {
    const r = await s.get('/api/v1');
    expect(r.body.resources.find((x: any) => x.name === 'persistentvolumes')).toMatchObject({ namespaced: false, shortNames: ['pv'] });
    expect(r.body.resources.find((x: any) => x.name === 'persistentvolumes/status')).toBeTruthy();
  });

  it('defaults reclaim policy, volume mode and host path type, and starts Pending whatever status is sent', async () => {
    const r = await s.post(PVS, pv('defaults', {}, { status: { phase: 'Bound', message: 'no' } }));
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec).toMatchObject({ persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem', hostPath: { path: '/tmp/defaults', type: '' } });
    expect(r.body.status).toEqual({ phase: 'Pending' });
  });

  it('stores capacity in canonical form and refuses what is no quantity', async () => {
    const r = await s.post(PVS, pv('canonical', { capacity: { storage: '1024Mi' } }));
    expect(r.body.spec.capacity).toEqual({ storage: '1Gi' });
    const bad = await s.post(PVS, pv('bad-quantity', { capacity: { storage: 'lots' } }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/quantities must match the regular expression/);
  });

  it('defaults the sources it knows defaults for', async () => {
    const rbd = await s.post(PVS, pv('rbd', { hostPath: undefined, rbd: { monitors: ['m:6789'], image: 'img' } }));
    expect(rbd.status, rbd.text).toBe(201);
    expect(rbd.body.spec.rbd).toMatchObject({ pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' });
    const azure = await s.post(PVS, pv('azure', { hostPath: undefined, azureDisk: { diskName: 'd', diskURI: 'https://a.blob.core.windows.net/c/d.vhd' } }));
    expect(azure.status, azure.text).toBe(201);
    expect(azure.body.spec.azureDisk).toMatchObject({ cachingMode: 'ReadWrite', kind: 'Shared', fsType: 'ext4', readOnly: false });
  });

  it('needs access modes, and only known ones', async () => {
    expectCauses(await s.post(PVS, pv('no-modes', { accessModes: [] })), [{ field: 'spec.accessModes', reason: 'FieldValueRequired' }]);
    expectCauses(await s.post(PVS, pv('rwop', { accessModes: ['ReadWriteOncePod'] })), [
      { field: 'spec.accessModes', reason: 'FieldValueNotSupported', message: `Unsupported value: "ReadWriteOncePod": ${ACCESS_MSG}` },
    ]);
  });

  it('needs a positive storage capacity and nothing else', async () => {
    const none = invalidCauses(await s.post(PVS, pv('no-capacity', { capacity: {} })));
    expect(none.map((c) => [c.field, c.reason])).toEqual([
      ['spec.capacity', 'FieldValueRequired'],
      ['spec.capacity', 'FieldValueNotSupported'],
    ]);
    expectCauses(await s.post(PVS, pv('extra-capacity', { capacity: { storage: '1Gi', cpu: '1' } })), [{ field: 'spec.capacity', reason: 'FieldValueNotSupported' }]);
    expectCauses(await s.post(PVS, pv('zero', { capacity: { storage: '0' } })), [
      { field: 'spec.capacity[storage]', reason: 'FieldValueInvalid', message: 'Invalid value: "0": must be greater than zero' },
    ]);
    const negative = invalidCauses(await s.post(PVS, pv('negative', { capacity: { storage: '-1Gi' } })));
    expect(negative.map((c) => c.message)).toEqual(['Invalid value: -1073741824: must be a valid resource quantity', 'Invalid value: "-1Gi": must be greater than zero']);
  });

  it('needs exactly one volume source', async () => {
    expectCauses(await s.post(PVS, pv('no-source', { hostPath: undefined })), [{ field: 'spec', reason: 'FieldValueRequired', message: 'Required value: must specify a volume type' }]);
    expectCauses(await s.post(PVS, pv('two-sources', { nfs: { server: 'nfs.example', path: '/x' } })), [
      { field: 'spec.nfs', reason: 'FieldValueForbidden', message: 'Forbidden: may not specify more than 1 volume type' },
    ]);
  });

  it('checks reclaim policy, volume mode and storage class', async () => {
    expectCauses(await s.post(PVS, pv('policy', { persistentVolumeReclaimPolicy: 'Keep' })), [
      { field: 'spec.persistentVolumeReclaimPolicy', reason: 'FieldValueNotSupported', message: 'Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"' },
    ]);
    expectCauses(await s.post(PVS, pv('mode', { volumeMode: 'Raw' })), [{ field: 'spec.volumeMode', reason: 'FieldValueNotSupported' }]);
    expectCauses(await s.post(PVS, pv('class', { storageClassName: 'Fast_SSD' })), [{ field: 'spec.storageClassName', reason: 'FieldValueInvalid' }]);
    expectCauses(await s.post(PVS, pv('recycle-root', { hostPath: { path: '//' }, persistentVolumeReclaimPolicy: 'Recycle' })), [
      { field: 'spec.persistentVolumeReclaimPolicy', reason: 'FieldValueForbidden', message: "Forbidden: may not be 'recycle' for a hostPath mount of '/'" },
    ]);
  });

  describe('node affinity', () => {
    const affinity = (expr: Record<string, unknown>) => ({ required: { nodeSelectorTerms: [{ matchExpressions: [expr] }] } });

    it('is required for a local volume', async () => {
      const local = { hostPath: undefined, local: { path: '/mnt/disk' } };
      expectCauses(await s.post(PVS, pv('local', local)), [{ field: 'spec.nodeAffinity', reason: 'FieldValueRequired', message: 'Required value: Local volume requires node affinity' }]);
      const ok = await s.post(PVS, pv('local-ok', { ...local, nodeAffinity: affinity({ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }) }));
      expect(ok.status, ok.text).toBe(201);
    });

    it('follows the node selector rules', async () => {
      expectCauses(await s.post(PVS, pv('aff-op', { nodeAffinity: affinity({ key: 'k', operator: 'Near' }) })), [
        { field: 'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator', reason: 'FieldValueInvalid', message: 'Invalid value: "Near": not a valid selector operator' },
      ]);
      expectCauses(await s.post(PVS, pv('aff-values', { nodeAffinity: affinity({ key: 'k', operator: 'In' }) })), [
        { field: 'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values', reason: 'FieldValueRequired' },
      ]);
      expectCauses(await s.post(PVS, pv('aff-exists', { nodeAffinity: affinity({ key: 'k', operator: 'Exists', values: ['x'] }) })), [
        { field: 'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values', reason: 'FieldValueForbidden' },
      ]);
      expectCauses(await s.post(PVS, pv('aff-empty', { nodeAffinity: { required: { nodeSelectorTerms: [] } } })), [
        { field: 'spec.nodeAffinity.required.nodeSelectorTerms', reason: 'FieldValueRequired', message: 'Required value: must have at least one node selector term' },
      ]);
      expectCauses(await s.post(PVS, pv('aff-none', { nodeAffinity: {} })), [
        { field: 'spec.nodeAffinity.required', reason: 'FieldValueRequired', message: 'Required value: must specify required node constraints' },
      ]);
      const fields = { required: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['a', 'b'] }] }] } };
      expect(invalidCauses(await s.post(PVS, pv('aff-fields', { nodeAffinity: fields }))).map((c) => c.field)).toEqual([
        'spec.nodeAffinity.required.nodeSelectorTerms[0].matchFields[0].values',
        'spec.nodeAffinity.required.nodeSelectorTerms[0].matchFields[0].key',
      ]);
    });
  });

  it('checks each source by its own rules', async () => {
    const src = (name: string, source: Record<string, unknown>) => s.post(PVS, pv(name, { hostPath: undefined, ...source }));
    expectCauses(await src('src-nfs', { nfs: { server: 'a', path: 'relative' } }), [{ field: 'spec.nfs.path', message: 'Invalid value: "relative": must be an absolute path' }]);
    expectCauses(await src('src-host', { hostPath: { path: '/a/../b' } }), [{ field: 'spec.hostPath.path', message: `Invalid value: "/a/../b": must not contain '..'` }]);
    expectCauses(await src('src-host-type', { hostPath: { path: '/a', type: 'Fifo' } }), [{ field: 'spec.hostPath.type', reason: 'FieldValueNotSupported' }]);
    expectCauses(await src('src-gce', { gcePersistentDisk: { pdName: '', partition: 300 } }), [
      { field: 'spec.persistentDisk.pdName', reason: 'FieldValueRequired' },
      { field: 'spec.persistentDisk.partition', message: 'Invalid value: 300: must be between 1 and 255, inclusive' },
    ]);
    expectCauses(await src('src-iscsi', { iscsi: { targetPortal: '1.2.3.4:3260', iqn: 'iqn.bad', lun: 300 } }), [
      { field: 'spec.iscsi.iqn', message: 'Invalid value: "iqn.bad": must be valid format' },
      { field: 'spec.iscsi.lun', message: 'Invalid value: 300: must be between 0 and 255, inclusive' },
    ]);
    expect((await src('src-iscsi-ok', { iscsi: { targetPortal: '1.2.3.4:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0 } })).body.spec.iscsi.iscsiInterface).toBe('default');
    expectCauses(await src('src-csi', { csi: { driver: 'Bad_Driver', volumeHandle: 'h', nodePublishSecretRef: { name: 's' } } }), [
      { field: 'spec.csi.driver', reason: 'FieldValueInvalid' },
      { field: 'spec.csi.nodePublishSecretRef.namespace', reason: 'FieldValueRequired' },
    ]);
    expectCauses(await src('src-fc', { fc: { targetWWNs: ['500a0982991b8dc5'] } }), [{ field: 'spec.fc.lun', message: 'Required value: lun is required if targetWWNs is specified' }]);
    expectCauses(await src('src-flocker', { flocker: {} }), [{ field: 'spec.flocker', message: 'Required value: one of datasetName and datasetUUID is required' }]);
    expectCauses(await src('src-quobyte', { quobyte: { registry: 'nohost', volume: 'v' } }), [{ field: 'spec.quobyte.registry', reason: 'FieldValueInvalid' }]);
    expectCauses(await src('src-flex', { flexVolume: { driver: 'd', options: { 'orch.io/x': 'y' } } }), [{ field: 'spec.flexVolume.options[orch.io/x]', reason: 'FieldValueInvalid' }]);
  });

  it('refuses the mount-options annotation for sources without mount options', async () => {
    const annotation = { metadata: { annotations: { 'volume.beta.orch.io/mount-options': 'ro' } } };
    expectCauses(await s.post(PVS, pv('mount-host', {}, annotation)), [
      { field: 'metadata.annotations.volume.beta.orch.io/mount-options', reason: 'FieldValueForbidden', message: 'Forbidden: may not specify mount options for this volume type' },
    ]);
    const nfs = await s.post(PVS, pv('mount-nfs', { hostPath: undefined, nfs: { server: 'a', path: '/x' } }, annotation));
    expect(nfs.status, nfs.text).toBe(201);
  });

  describe('updates', () => {
    beforeAll(async () => {
      expect((await s.post(PVS, pv('upd'))).status).toBe(201);
    });

    it('never change the volume source', async () => {
      const [cause] = invalidCauses(await s.patch(`${PVS}/upd`, { spec: { hostPath: { path: '/elsewhere' } } }, MERGE));
      expect(cause).toMatchObject({ field: 'spec.persistentvolumesource', reason: 'FieldValueForbidden' });
      expect(cause?.message).toMatch(/^Forbidden: spec.persistentvolumesource is immutable after creation\n/);
    });

    it('never change the volume mode', async () => {
      expectCauses(await s.patch(`${PVS}/upd`, { spec: { volumeMode: 'Block' } }, MERGE), [{ field: 'volumeMode', message: 'Invalid value: "Block": field is immutable' }]);
    });

    it('may set node affinity once, then not change it', async () => {
      const aff = (host: string) => ({ required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [host] }] }] } });
      expect((await s.patch(`${PVS}/upd`, { spec: { nodeAffinity: aff('n1') } }, MERGE)).status).toBe(200);
      expectCauses(await s.patch(`${PVS}/upd`, { spec: { nodeAffinity: aff('n2') } }, MERGE), [{ field: 'nodeAffinity', reason: 'FieldValueInvalid' }]);
    });

    it('may change capacity, class, claim reference and reclaim policy', async () => {
      const r = await s.patch(
        `${PVS}/upd`,
        { spec: { capacity: { storage: '2Gi' }, storageClassName: 'slow', persistentVolumeReclaimPolicy: 'Delete', claimRef: { namespace: 'default', name: 'c' } } },
        MERGE,
      );
      expect(r.status, r.text).toBe(200);
      expect(r.body.spec).toMatchObject({ capacity: { storage: '2Gi' }, storageClassName: 'slow', claimRef: { name: 'c' } });
    });

    it('may add a controller-expand secret to a CSI volume, and no other CSI change', async () => {
      const csi = { driver: 'csi.example.com', volumeHandle: 'h1' };
      expect((await s.post(PVS, pv('upd-csi', { hostPath: undefined, csi }))).status).toBe(201);
      const add = await s.patch(`${PVS}/upd-csi`, { spec: { csi: { controllerExpandSecretRef: { name: 'exp', namespace: 'default' } } } }, MERGE);
      expect(add.status, add.text).toBe(200);
      expectCauses(await s.patch(`${PVS}/upd-csi`, { spec: { csi: { volumeHandle: 'h2' } } }, MERGE), [{ field: 'spec.persistentvolumesource' }]);
    });

    it('drop the alpha node-expand secret unless already set', async () => {
      const r = await s.post(PVS, pv('csi-node-expand', { hostPath: undefined, csi: { driver: 'csi.example.com', volumeHandle: 'h', nodeExpandSecretRef: { name: 'x', namespace: 'y' } } }));
      expect(r.status, r.text).toBe(201);
      expect(r.body.spec.csi.nodeExpandSecretRef).toBeUndefined();
    });
  });

  it('writes status only through /status, and spec never there', async () => {
    expect((await s.post(PVS, pv('status'))).status).toBe(201);
    const main = await s.patch(`${PVS}/status`, { status: { phase: 'Bound' } }, MERGE);
    expect(main.body.status.phase).toBe('Pending');
    const st = await s.patch(`${PVS}/status/status`, { spec: { storageClassName: 'x' }, status: { phase: 'Available', reason: 'Ready' } }, MERGE);
    expect(st.status, st.text).toBe(200);
    expect(st.body.status).toEqual({ phase: 'Available', reason: 'Ready' });
    expect(st.body.spec.storageClassName).toBeUndefined();
  });

  it('answers a delete with the deleted volume', async () => {
    expect((await s.post(PVS, pv('gone'))).status).toBe(201);
    const r = await s.del(`${PVS}/gone`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'PersistentVolume', metadata: { name: 'gone' } });
  });

  it('validates the whole spec, not only what is given', async () => {
    const r = await s.post(PVS, { metadata: { name: 'empty' }, spec: without(pv('x').spec, 'hostPath') });
    expect(invalidCauses(r).map((c) => c.field)).toEqual(['spec']);
  });
});
