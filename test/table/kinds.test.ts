/**
 * Every built-in kind answers a Table with the columns kubectl users know (Kubernetes 1.25), wide
 * columns at priority 1, and a row made from its fixture. A kind added without an entry here fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinResources } from '../../src/apis/index.js';
import { createApiNames } from '../../src/machinery/api-names.js';
import type { ResourceDefinition } from '../../src/registry/define-resource.js';
import { defaultTable } from '../../src/registry/table.js';
import { startTestServer, TEST_SERVER_CONTROLLERS, type TestServer } from '../helpers/server.js';

const names = createApiNames();
const definitions: ResourceDefinition[] = builtinResources.map((f) => f(names, { names }));
const TABLE = `application/json;as=Table;g=${names.metaGroup};v=v1`;

interface Expectation {
  /** Every column in order; `*` marks the wide (priority 1) ones. */
  columns: string[];
  /** Representative cells of the fixture's row, by column name. */
  cells: Record<string, unknown>;
}

const eventCells = { Type: 'Normal', Reason: 'Tested', Object: 'pod/fixture', Message: 'a fixture event', Source: 'fixture-controller, fixture-1', Count: 1 };
const eventColumns = ['Last Seen', 'Type', 'Reason', 'Object', '*Subobject', '*Source', 'Message', '*First Seen', '*Count', '*Name'];
const bindingColumns = ['Name', 'Role', 'Age', '*Users', '*Groups', '*ServiceAccounts'];
const defaultColumns = ['Name', 'Created At'];
const flowSchema: Expectation = {
  columns: ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL'],
  cells: { PriorityLevel: 'global-default', MatchingPrecedence: 1000, DistinguisherMethod: '<none>' },
};
const priorityLevel: Expectation = {
  columns: ['Name', 'Type', 'AssuredConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age'],
  cells: { Type: 'Limited', AssuredConcurrencyShares: 30, Queues: 64, HandSize: 8, QueueLengthLimit: 50 },
};

const EXPECTED: Record<string, Expectation> = {
  'core/v1/Namespace': { columns: ['Name', 'Status', 'Age'], cells: { Status: 'Active' } },
  'core/v1/ConfigMap': { columns: ['Name', 'Data', 'Age'], cells: { Data: 2 } },
  'core/v1/Secret': { columns: ['Name', 'Type', 'Data', 'Age'], cells: { Type: 'Opaque', Data: 1 } },
  'core/v1/Service': {
    columns: ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', '*Selector'],
    cells: { Type: 'ClusterIP', 'External-IP': '<none>', 'Port(s)': '80/TCP', Selector: 'app=web' },
  },
  'core/v1/Event': { columns: eventColumns, cells: eventCells },
  'events/v1/Event': { columns: eventColumns, cells: eventCells },
  'core/v1/Node': {
    columns: ['Name', 'Status', 'Roles', 'Age', 'Version', '*Internal-IP', '*External-IP', '*OS-Image', '*Kernel-Version', '*Container-Runtime'],
    cells: { Status: 'Unknown', Roles: '<none>', 'Internal-IP': '<none>', 'OS-Image': '<unknown>' },
  },
  'core/v1/PersistentVolume': {
    columns: ['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'Reason', 'Age', '*VolumeMode'],
    cells: { Capacity: '1Gi', 'Access Modes': 'RWO', Claim: '', VolumeMode: 'Filesystem' },
  },
  'core/v1/PersistentVolumeClaim': {
    columns: ['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'Age', '*VolumeMode'],
    cells: { Volume: '', Capacity: '', VolumeMode: 'Filesystem' },
  },
  'core/v1/ServiceAccount': { columns: ['Name', 'Secrets', 'Age'], cells: { Secrets: 0 } },
  'core/v1/Pod': {
    columns: ['Name', 'Ready', 'Status', 'Restarts', 'Age', '*IP', '*Node', '*Nominated Node', '*Readiness Gates'],
    cells: { Ready: '0/1', Status: 'Pending', Restarts: '0', IP: '<none>', Node: '<none>', 'Nominated Node': '<none>', 'Readiness Gates': '<none>' },
  },
  'apps/v1/ControllerRevision': { columns: ['Name', 'Controller', 'Revision', 'Age'], cells: { Controller: '<none>', Revision: 1 } },
  'apps/v1/Deployment': {
    columns: ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', '*Containers', '*Images', '*Selector'],
    cells: { Ready: '0/1', 'Up-to-date': 0, Available: 0, Containers: 'web', Images: 'nginx:1.25', Selector: 'app=web' },
  },
  'apps/v1/ReplicaSet': {
    columns: ['Name', 'Desired', 'Current', 'Ready', 'Age', '*Containers', '*Images', '*Selector'],
    cells: { Desired: 1, Current: 0, Ready: 0, Images: 'nginx:1.25', Selector: 'app=web' },
  },
  'apps/v1/StatefulSet': { columns: ['Name', 'Ready', 'Age', '*Containers', '*Images'], cells: { Ready: '0/1', Containers: 'db', Images: 'postgres:16' } },
  'apps/v1/DaemonSet': {
    columns: ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', '*Containers', '*Images', '*Selector'],
    cells: { Desired: 0, Current: 0, Ready: 0, 'Up-to-date': 0, Available: 0, 'Node Selector': 'example.com/role=edge', Containers: 'agent', Selector: 'app=agent' },
  },
  'networking/v1/IngressClass': { columns: ['Name', 'Controller', 'Parameters', 'Age'], cells: { Controller: 'example.com/ingress-controller', Parameters: '<none>' } },
  'networking/v1/Ingress': { columns: ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age'], cells: { Class: '<none>', Hosts: '*', Address: '', Ports: '80' } },
  'rbac.authorization/v1/ClusterRoleBinding': { columns: bindingColumns, cells: { Role: 'ClusterRole/view', Users: '', Groups: 'readers' } },
  'rbac.authorization/v1/RoleBinding': { columns: bindingColumns, cells: { Role: 'Role/reader', Groups: '' } },
  'rbac.authorization/v1/ClusterRole': { columns: defaultColumns, cells: {} },
  'rbac.authorization/v1/Role': { columns: defaultColumns, cells: {} },
  'apiextensions/v1/CustomResourceDefinition': { columns: defaultColumns, cells: {} },
  'discovery/v1/EndpointSlice': { columns: ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'], cells: { AddressType: 'IPv4', Ports: '80', Endpoints: '10.1.2.3' } },
  'flowcontrol.apiserver/v1beta2/FlowSchema': flowSchema,
  'flowcontrol.apiserver/v1beta1/FlowSchema': flowSchema,
  'flowcontrol.apiserver/v1beta2/PriorityLevelConfiguration': priorityLevel,
  'flowcontrol.apiserver/v1beta1/PriorityLevelConfiguration': priorityLevel,
  'certificates/v1/CertificateSigningRequest': {
    columns: ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition'],
    cells: { SignerName: 'example.com/fixture-signer', RequestedDuration: '<none>', Condition: 'Pending' },
  },
  'admissionregistration/v1/MutatingWebhookConfiguration': { columns: ['Name', 'Webhooks', 'Age'], cells: { Webhooks: 1 } },
  'admissionregistration/v1/ValidatingWebhookConfiguration': { columns: ['Name', 'Webhooks', 'Age'], cells: { Webhooks: 1 } },
  'core/v1/Endpoints': { columns: ['Name', 'Endpoints', 'Age'], cells: { Endpoints: '10.1.2.3:80' } },
  'batch/v1/Job': {
    columns: ['Name', 'Completions', 'Duration', 'Age', '*Containers', '*Images', '*Selector'],
    cells: { Completions: '0/1', Duration: '', Containers: 'pi', Images: 'perl:5.34' },
  },
  'batch/v1/CronJob': {
    columns: ['Name', 'Schedule', 'Suspend', 'Active', 'Last Schedule', 'Age', '*Containers', '*Images', '*Selector'],
    cells: { Schedule: '*/5 * * * *', Suspend: 'False', Active: 0, 'Last Schedule': '<none>', Containers: 'hello', Images: 'busybox:1.36', Selector: '<none>' },
  },
  'coordination/v1/Lease': { columns: ['Name', 'Holder', 'Age'], cells: { Holder: 'node-1' } },
  'policy/v1/PodDisruptionBudget': {
    columns: ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'],
    cells: { 'Min Available': '1', 'Max Unavailable': 'N/A', 'Allowed Disruptions': 0 },
  },
  'scheduling/v1/PriorityClass': { columns: ['Name', 'Value', 'Global-Default', 'Age'], cells: { Value: 1000, 'Global-Default': false } },
  'networking/v1/NetworkPolicy': { columns: ['Name', 'Pod-Selector', 'Age'], cells: { 'Pod-Selector': 'app=db' } },
  'storage/v1/StorageClass': {
    columns: ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age'],
    cells: { Provisioner: 'example.com/fast', ReclaimPolicy: 'Delete', VolumeBindingMode: 'Immediate', AllowVolumeExpansion: true },
  },
  'storage/v1/CSIDriver': {
    columns: ['Name', 'AttachRequired', 'PodInfoOnMount', 'StorageCapacity', 'TokenRequests', 'RequiresRepublish', 'Modes', 'Age'],
    cells: { AttachRequired: false, PodInfoOnMount: false, StorageCapacity: false, TokenRequests: 'vault', RequiresRepublish: false, Modes: 'Persistent' },
  },
  'storage/v1/CSINode': { columns: ['Name', 'Drivers', 'Age'], cells: { Drivers: 1 } },
  'storage/v1/VolumeAttachment': { columns: ['Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age'], cells: { Attacher: 'example.csi.io', PV: 'pv-1', Node: 'node-1', Attached: false } },
  'storage/v1/CSIStorageCapacity': { columns: ['Name', 'StorageClassName', 'Capacity'], cells: { StorageClassName: 'fast', Capacity: '100Gi' } },
  'storage/v1beta1/CSIStorageCapacity': { columns: ['Name', 'StorageClassName', 'Capacity'], cells: { StorageClassName: 'fast', Capacity: '100Gi' } },
  'core/v1/LimitRange': { columns: defaultColumns, cells: {} },
  'core/v1/ResourceQuota': { columns: ['Name', 'Age', 'Request', 'Limit'], cells: { Request: '', Limit: '' } },
  'core/v1/PodTemplate': { columns: ['Name', 'Containers', 'Images', 'Pod Labels'], cells: { Containers: 'web', Images: 'nginx:1.25', 'Pod Labels': 'app=web' } },
  'core/v1/ReplicationController': {
    columns: ['Name', 'Desired', 'Current', 'Ready', 'Age', '*Containers', '*Images', '*Selector'],
    cells: { Desired: 1, Current: 0, Ready: 0, Containers: 'web', Images: 'nginx:1.25', Selector: 'app=legacy' },
  },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    columns: ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
    cells: { Reference: 'Deployment/web', Targets: '<unknown>/60%', MinPods: '1', MaxPods: 5, Replicas: 0 },
  },
  'autoscaling/v1/HorizontalPodAutoscaler': {
    columns: ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
    cells: { Reference: 'Deployment/web', Targets: '<unknown>/60%', MinPods: '1', MaxPods: 5, Replicas: 0 },
  },
  'autoscaling/v2beta2/HorizontalPodAutoscaler': {
    columns: ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
    cells: { Reference: 'Deployment/web', Targets: '<unknown>/60%', MinPods: '1', MaxPods: 5, Replicas: 0 },
  },
  'node/v1/RuntimeClass': { columns: ['Name', 'Handler', 'Age'], cells: { Handler: 'runc' } },
  // Never stored, so never listed or got: a create answers it as an object (the rows test skips it).
  'core/v1/Binding': { columns: defaultColumns, cells: {} },
  // Computed at each read (test/kinds/core/componentstatus.test.ts checks its rows).
  'core/v1/ComponentStatus': { columns: ['Name', 'Status', 'Message', 'Error'], cells: {} },
  'authentication/v1/TokenReview': { columns: defaultColumns, cells: {} },
  'authorization/v1/SubjectAccessReview': { columns: defaultColumns, cells: {} },
  'authorization/v1/LocalSubjectAccessReview': { columns: defaultColumns, cells: {} },
  'authorization/v1/SelfSubjectAccessReview': { columns: defaultColumns, cells: {} },
  'authorization/v1/SelfSubjectRulesReview': { columns: defaultColumns, cells: {} },
};

function keyOf(def: ResourceDefinition): string {
  const suffix = `.${names.domain}`;
  const base = !def.group ? 'core' : def.group.endsWith(suffix) ? def.group.slice(0, -suffix.length) : def.group;
  return `${base}/${def.version}/${def.kind}`;
}

function collection(def: ResourceDefinition, ns: string): string {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  return def.namespaced ? `${base}/namespaces/${ns}/${def.resource}` : `${base}/${def.resource}`;
}

describe('every kind has its table expectations', () => {
  it.each(definitions.map((d) => [keyOf(d), d] as const))('%s', (key) => {
    expect(EXPECTED[key], `add ${key} to EXPECTED`).toBeDefined();
  });

  it.each(definitions.map((d) => [keyOf(d), d] as const))('%s: cells of a bare object (a bookmark) do not throw', (_key, def) => {
    const table = def.table ?? defaultTable;
    const cells = table.cells({ metadata: {} }, { names, now: new Date() });
    expect(cells).toHaveLength(table.columns.length);
  });
});

describe('Table of each kind, from its fixture', () => {
  let s: TestServer;
  const ns = 'tables';
  beforeAll(async () => {
    // The quota controller fills a ResourceQuota's status right after its create; this suite expects the fixture as created.
    s = await startTestServer({ controllerManager: { controllers: [...TEST_SERVER_CONTROLLERS, '-resourcequota'] } });
    expect((await s.post('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  });
  afterAll(() => s.close());

  it.each(definitions.filter((d) => d.kind !== 'Namespace' && !d.review && !d.computed).map((d) => [keyOf(d), d] as const).concat(definitions.filter((d) => d.kind === 'Namespace').map((d) => [keyOf(d), d] as const)))(
    '%s',
    async (key, def) => {
      const expected = EXPECTED[key] as Expectation;
      const raw = def.kind === 'Namespace' ? ns : `t-${keyOf(def).split('/')[0]}-${def.version}-${def.singular}`.replace(/[^a-z0-9-]/g, '-').slice(0, 63);
      const name = def.fixtureName?.(raw) ?? raw;
      if (def.kind !== 'Namespace') {
        const fixture = (def.fixture as (n?: string) => Record<string, unknown>)(name);
        const made = await s.post(collection(def, ns), { ...fixture, metadata: { ...((fixture.metadata as object) ?? {}), name } });
        expect(made.status, made.text).toBe(201);
      }
      const one = await s.get(`${collection(def, ns)}/${name}`, { accept: TABLE });
      expect(one.status, one.text).toBe(200);
      expect(one.headers['content-type']).toBe('application/json');
      expect(one.body.kind).toBe('Table');
      expect(one.body.apiVersion).toBe(`${names.metaGroup}/v1`);
      const columns = one.body.columnDefinitions.map((c: any) => (c.priority === 1 ? `*${c.name}` : c.name));
      expect(columns).toEqual(expected.columns);
      for (const c of one.body.columnDefinitions) {
        expect(Object.keys(c).sort()).toEqual(['description', 'format', 'name', 'priority', 'type']);
        expect(c.description).not.toBe('');
      }
      expect(one.body.rows).toHaveLength(1);
      const row = one.body.rows[0];
      expect(row.cells).toHaveLength(columns.length);
      const cell = (column: string): unknown => row.cells[one.body.columnDefinitions.findIndex((c: any) => c.name === column)];
      const nameCol = one.body.columnDefinitions.find((c: any) => c.format === 'name' || c.name === 'Name');
      expect(row.cells[one.body.columnDefinitions.indexOf(nameCol)]).toBe(name);
      if (columns.includes('Age')) expect(cell('Age')).toMatch(/^\d+s$/);
      if (columns.includes('Created At')) expect(cell('Created At')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      for (const [column, value] of Object.entries(expected.cells)) expect(cell(column), column).toEqual(value);
      expect(row.object.kind).toBe('PartialObjectMetadata');
      expect(row.object.metadata.name).toBe(name);
      expect(one.body.metadata.resourceVersion).toBe(row.object.metadata.resourceVersion);

      const list = await s.get(`${collection(def, ns)}?fieldSelector=metadata.name=${name}`, { accept: TABLE });
      expect(list.status, list.text).toBe(200);
      expect(list.body.rows.map((r: any) => r.cells[one.body.columnDefinitions.indexOf(nameCol)])).toEqual([name]);
    },
  );
});
