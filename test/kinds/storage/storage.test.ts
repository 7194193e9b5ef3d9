/**
 * The storage.orch.io kinds over HTTP: StorageClass, CSIDriver, CSINode, VolumeAttachment (/status)
 * and CSIStorageCapacity (v1, and v1beta1 deprecated): defaults, validation and immutable fields
 * in Kubernetes' words, and their kubectl columns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE, warningsOf } from '../core/helpers.js';

const G = '/apis/storage.orch.io/v1';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';

describe('storage.orch.io', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('serves the five kinds in v1 (sc the only short name) and CSIStorageCapacity alone in v1beta1', async () => {
    const v1 = (await s.get(G)).body.resources.map((r: any) => [r.name, r.namespaced, r.shortNames ?? []]);
    expect(v1).toEqual([
      ['csidrivers', false, []],
      ['csinodes', false, []],
      ['csistoragecapacities', true, []],
      ['storageclasses', false, ['sc']],
      ['volumeattachments', false, []],
      ['volumeattachments/status', false, []],
    ]);
    expect((await s.get('/apis/storage.orch.io/v1beta1')).body.resources.map((r: any) => r.name)).toEqual(['csistoragecapacities']);
    expect((await s.get('/apis/storage.orch.io')).body.preferredVersion.version).toBe('v1');
  });

  it('StorageClass: defaults, the provisioner and binding mode checked, four fields fixed, the (default) marker', async () => {
    const made = await s.post(`${G}/storageclasses`, { metadata: { name: 'fast', annotations: { 'storageclass.orch.io/is-default-class': 'true' } }, provisioner: 'example.com/ssd' });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    expect(made.body.allowVolumeExpansion).toBeUndefined();
    const row = (await s.get(`${G}/storageclasses/fast`, { accept: TABLE })).body.rows[0].cells;
    expect(row.slice(0, 5)).toEqual(['fast (default)', 'example.com/ssd', 'Delete', 'Immediate', false]);
    expectCauses(await s.post(`${G}/storageclasses`, { metadata: { name: 'bad' }, provisioner: '', reclaimPolicy: 'Recycle', volumeBindingMode: 'Later', allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: [] }] }] }), [
      { reason: 'FieldValueRequired', field: 'provisioner', message: 'Required value' },
      { reason: 'FieldValueNotSupported', field: 'reclaimPolicy', message: 'Unsupported value: "Recycle": supported values: "Delete", "Retain"' },
      { reason: 'FieldValueNotSupported', field: 'volumeBindingMode', message: 'Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"' },
      { reason: 'FieldValueRequired', field: 'allowedTopologies[0].matchLabelExpressions[0].values', message: 'Required value' },
    ]);
    expectCauses(await s.patch(`${G}/storageclasses/fast`, { provisioner: 'example.com/hdd', parameters: { a: 'b' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }, MERGE), [
      { reason: 'FieldValueForbidden', field: 'parameters', message: 'Forbidden: updates to parameters are forbidden.' },
      { reason: 'FieldValueForbidden', field: 'provisioner', message: 'Forbidden: updates to provisioner are forbidden.' },
      { reason: 'FieldValueForbidden', field: 'reclaimPolicy', message: 'Forbidden: updates to reclaimPolicy are forbidden.' },
      { field: 'volumeBindingMode', message: 'Invalid value: "WaitForFirstConsumer": field is immutable' },
    ]);
    expect((await s.patch(`${G}/storageclasses/fast`, { allowVolumeExpansion: true, mountOptions: ['ro'] }, MERGE)).status).toBe(200);
  });

  it('CSIDriver: defaults, token requests checked, four fields fixed, its columns; seLinuxMount (alpha) dropped', async () => {
    const made = await s.post(`${G}/csidrivers`, { metadata: { name: 'hostpath.csi.example.com' }, spec: { seLinuxMount: true } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.spec).toEqual({
      attachRequired: true,
      podInfoOnMount: false,
      volumeLifecycleModes: ['Persistent'],
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      requiresRepublish: false,
    });
    const row = (await s.get(`${G}/csidrivers/hostpath.csi.example.com`, { accept: TABLE })).body.rows[0].cells;
    expect(row.slice(0, 7)).toEqual(['hostpath.csi.example.com', true, false, false, '<unset>', false, 'Persistent']);
    expectCauses(await s.post(`${G}/csidrivers`, { metadata: { name: 'tokens.example.com' }, spec: { fsGroupPolicy: 'Sometimes', volumeLifecycleModes: ['Forever'], tokenRequests: [{ audience: 'a', expirationSeconds: 60 }, { audience: 'a' }] } }), [
      { reason: 'FieldValueNotSupported', field: 'spec.fsGroupPolicy', message: 'Unsupported value: "Sometimes": supported values: "File", "None", "ReadWriteOnceWithFSType"' },
      { field: 'spec.tokenRequests[0].expirationSeconds', message: 'Invalid value: 60: may not specify a duration less than 10 minutes' },
      { reason: 'FieldValueDuplicate', field: 'spec.tokenRequests[1].audience', message: 'Duplicate value: "a"' },
      { reason: 'FieldValueNotSupported', field: 'spec.volumeLifecycleModes', message: 'Unsupported value: "Forever": supported values: "Persistent", "Ephemeral"' },
    ]);
    expectCauses(await s.patch(`${G}/csidrivers/hostpath.csi.example.com`, { spec: { attachRequired: false, podInfoOnMount: true } }, MERGE), [
      { field: 'spec.attachedRequired', message: 'Invalid value: false: field is immutable' },
      { field: 'spec.podInfoOnMount', message: 'Invalid value: true: field is immutable' },
    ]);
    const tokens = await s.patch(`${G}/csidrivers/hostpath.csi.example.com`, { spec: { tokenRequests: [{ audience: 'vault' }], requiresRepublish: true } }, MERGE);
    expect(tokens.status, tokens.text).toBe(200);
  });

  it('CSINode: driver entries checked, and fixed once registered', async () => {
    const made = await s.post(`${G}/csinodes`, { metadata: { name: 'node-1' }, spec: { drivers: [{ name: 'a.example.com', nodeID: 'n1' }] } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.spec.drivers[0]).toEqual({ name: 'a.example.com', nodeID: 'n1', topologyKeys: null });
    expect((await s.get(`${G}/csinodes/node-1`, { accept: TABLE })).body.rows[0].cells.slice(0, 2)).toEqual(['node-1', 1]);
    expectCauses(await s.post(`${G}/csinodes`, { metadata: { name: 'node-2' }, spec: { drivers: [{ name: 'b.example.com', nodeID: '', allocatable: { count: -1 }, topologyKeys: ['zone', 'zone'] }, { name: 'b.example.com', nodeID: 'x' }] } }), [
      { reason: 'FieldValueRequired', field: 'spec.drivers[0].nodeID', message: 'Required value' },
      { field: 'spec.drivers[0].allocatable.count', message: 'Invalid value: -1: must be greater than or equal to 0' },
      { reason: 'FieldValueDuplicate', field: 'spec.drivers[0]', message: 'Duplicate value: "zone"' },
      { reason: 'FieldValueDuplicate', field: 'spec.drivers[1].name', message: 'Duplicate value: "b.example.com"' },
    ]);
    const changed = await s.patch(`${G}/csinodes/node-1`, { spec: { drivers: [{ name: 'a.example.com', nodeID: 'n2' }] } }, 'application/strategic-merge-patch+json');
    expect(changed.status).toBe(422);
    expect(changed.body.details.causes[0]).toMatchObject({ field: 'CSINodeDriver', reason: 'FieldValueInvalid' });
    const added = await s.patch(`${G}/csinodes/node-1`, { spec: { drivers: [{ name: 'c.example.com', nodeID: 'n1' }] } }, 'application/strategic-merge-patch+json');
    expect(added.status, added.text).toBe(200);
    expect(added.body.spec.drivers.map((d: any) => d.name)).toEqual(['c.example.com', 'a.example.com']);
  });

  it('VolumeAttachment: an empty status on create, one source, a fixed spec, and /status', async () => {
    const va = { metadata: { name: 'va-1' }, spec: { attacher: 'a.example.com', source: { persistentVolumeName: 'pv-1' }, nodeName: 'node-1' }, status: { attached: true } };
    const made = await s.post(`${G}/volumeattachments`, va);
    expect(made.status, made.text).toBe(201);
    expect(made.body.status).toEqual({ attached: false });
    expectCauses(await s.post(`${G}/volumeattachments`, { metadata: { name: 'va-2' }, spec: { attacher: 'Not_A_Driver', source: {}, nodeName: 'node-1' } }), [
      { reason: 'FieldValueRequired', field: 'spec.source', message: 'Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName' },
      {
        field: 'spec.attacher',
        message: "Invalid value: \"Not_A_Driver\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      },
    ]);
    expectCauses(await s.patch(`${G}/volumeattachments/va-1`, { spec: { nodeName: 'node-2' } }, MERGE), [{ field: 'spec', reason: 'FieldValueInvalid' }]);
    const status = await s.patch(`${G}/volumeattachments/va-1/status`, { status: { attached: true, attachmentMetadata: { device: '/dev/sdb' } } }, MERGE);
    expect(status.status, status.text).toBe(200);
    expect(status.body.status).toEqual({ attached: true, attachmentMetadata: { device: '/dev/sdb' } });
    const row = (await s.get(`${G}/volumeattachments/va-1`, { accept: TABLE })).body.rows[0].cells;
    expect(row.slice(0, 5)).toEqual(['va-1', 'a.example.com', 'pv-1', 'node-1', true]);
  });

  it('CSIStorageCapacity: checked, class and topology fixed; v1beta1 serves the same objects with a warning', async () => {
    const caps = `${G}/namespaces/default/csistoragecapacities`;
    const made = await s.post(caps, { metadata: { name: 'cap-1' }, storageClassName: 'fast', capacity: '10Gi' });
    expect(made.status, made.text).toBe(201);
    expect((await s.get(`${caps}/cap-1`, { accept: TABLE })).body.rows[0].cells).toEqual(['cap-1', 'fast', '10Gi']);
    expectCauses(await s.post(caps, { metadata: { name: 'cap-2' }, storageClassName: 'Fast!', capacity: '-1Gi' }), [
      { field: 'storageClassName', reason: 'FieldValueInvalid' },
      { field: 'capacity', message: 'Invalid value: "-1Gi": must be greater than or equal to 0' },
    ]);
    expectCauses(await s.patch(`${caps}/cap-1`, { storageClassName: 'slow' }, MERGE), [{ field: 'storageClassName', message: 'Invalid value: "slow": field is immutable' }]);
    const beta = await s.get('/apis/storage.orch.io/v1beta1/namespaces/default/csistoragecapacities/cap-1');
    expect(beta.status).toBe(200);
    expect(beta.body).toMatchObject({ apiVersion: 'storage.orch.io/v1beta1', kind: 'CSIStorageCapacity', storageClassName: 'fast', capacity: '10Gi' });
    expect(warningsOf(beta)).toEqual(['storage.orch.io/v1beta1 CSIStorageCapacity is deprecated in v1.24+, unavailable in v1.27+; use storage.orch.io/v1 CSIStorageCapacity']);
    const metrics = await s.get('/metrics');
    expect(metrics.text.split('\n')).toContain(
      'apiserver_requested_deprecated_apis{group="storage.orch.io",version="v1beta1",resource="csistoragecapacities",subresource="",removed_release="1.27"} 1',
    );
  });
});
