/**
 * The codec against an independent reading of Kubernetes' field numbers: .proto files typed in by
 * hand from Kubernetes' published definitions (test/protobuf/proto), read and written by protobufjs.
 * Our bytes must decode there to the same JSON, and protobufjs' bytes must decode here. A wrong or
 * missing number in a schema shows up as a field lost or misplaced on one side.
 *
 * To check another kind: add its messages to a .proto file there and a row to CASES.
 */
import { describe, expect, it } from 'vitest';
import { ConfigMapSchema } from '../../src/apis/core/v1/configmap.js';
import { NamespaceSchema } from '../../src/apis/core/v1/namespace.js';
import { SecretSchema } from '../../src/apis/core/v1/secret.js';
import {
  LocalObjectReference,
  NodeSelector,
  ObjectReference,
  ResourceRequirements,
  SecretReference,
  Taint,
  Toleration,
  TypedLocalObjectReference,
} from '../../src/apis/core/v1/types/index.js';
import { listSchemaFor } from '../../src/endpoints/list-schema.js';
import {
  decodeMessage,
  decodeProtobufObject,
  decodeWatchEvent,
  encodeMessage,
  encodeProtobufObject,
  encodeWatchEvent,
} from '../../src/schema/protobuf/index.js';
import { decodeObject, DeleteOptions, LabelSelector, ListMeta, ObjectMeta, Status, t, type StructSchema } from '../../src/schema/index.js';
import { decodeKube, decodeKubeEnvelope, encodeKube, encodeKubeEnvelope, typeOf } from './kube-proto.js';
import { sampleOf } from './samples.js';

type Obj = Record<string, any>;

/**
 * core/v1 Probe, built here to check `t.inline` (a Go struct embedded without a name) against
 * Kubernetes' numbers. Replace it with the Probe of src/apis/core/v1 once that kind's types exist.
 */
const ProbeHandler = t.struct('core.v1.ProbeHandler', {
  exec: t.field(1, t.struct('core.v1.ExecAction', { command: t.field(1, t.list(t.string())) }), { pointer: true }),
  httpGet: t.field(2, t.struct('core.v1.HTTPGetAction', {
    path: t.field(1, t.string()),
    port: t.required(2, t.intOrString()),
    host: t.field(3, t.string()),
    scheme: t.field(4, t.string()),
    httpHeaders: t.field(5, t.list(t.struct('core.v1.HTTPHeader', { name: t.required(1, t.string(), { always: true }), value: t.required(2, t.string(), { always: true }) }))),
  }), { pointer: true }),
  tcpSocket: t.field(3, t.struct('core.v1.TCPSocketAction', { port: t.required(1, t.intOrString()), host: t.field(2, t.string()) }), { pointer: true }),
  grpc: t.field(4, t.struct('core.v1.GRPCAction', { port: t.required(1, t.int32(), { always: true }), service: t.field(2, t.string(), { pointer: true }) }), { pointer: true }),
});
const ProbeForTest = t.struct('core.v1.Probe', {
  ...t.inline(1, 'handler', ProbeHandler),
  initialDelaySeconds: t.field(2, t.int32()),
  timeoutSeconds: t.field(3, t.int32()),
  periodSeconds: t.field(4, t.int32()),
  successThreshold: t.field(5, t.int32()),
  failureThreshold: t.field(6, t.int32()),
  terminationGracePeriodSeconds: t.field(7, t.int64(), { pointer: true }),
});

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const CORE = 'k8s.io.api.core.v1';

const metadata = {
  name: 'cm-1',
  generateName: 'cm-',
  namespace: 'default',
  selfLink: '',
  uid: '9c8e5a2b-1f0d-4c3b-a2e1-d0c9b8a7f6e5',
  resourceVersion: '42',
  generation: 7,
  creationTimestamp: '2023-11-14T22:13:20Z',
  deletionTimestamp: '2023-11-14T22:14:20Z',
  deletionGracePeriodSeconds: 30,
  labels: { app: 'web', tier: '' },
  annotations: { 'example.com/note': 'hello' },
  ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'owner-uid', controller: true, blockOwnerDeletion: true }],
  finalizers: ['example.com/cleanup', 'orphan'],
  managedFields: [
    { manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1', time: '2023-11-14T22:13:20Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } }, subresource: '' },
    { manager: 'controller', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', subresource: 'status' },
  ],
};

interface Case {
  label: string;
  schema: StructSchema;
  /** The message's full name in test/protobuf/proto. */
  type: string;
  /** For kinds: the envelope's apiVersion and kind, checked too. */
  kind?: { apiVersion: string; kind: string };
  samples: Obj[];
}

const CASES: Case[] = [
  {
    label: 'ConfigMap',
    schema: ConfigMapSchema,
    type: `${CORE}.ConfigMap`,
    kind: { apiVersion: 'v1', kind: 'ConfigMap' },
    samples: [
      { metadata, data: { a: '1', b: '', 'ünï': 'cödé' }, binaryData: { bin: Buffer.from([0, 1, 2, 255]).toString('base64'), empty: '' }, immutable: false },
      { metadata: { name: 'bare' } },
    ],
  },
  {
    label: 'Secret',
    schema: SecretSchema,
    type: `${CORE}.Secret`,
    kind: { apiVersion: 'v1', kind: 'Secret' },
    samples: [
      { metadata, data: { password: Buffer.from('s3cr3t').toString('base64') }, stringData: { user: 'admin' }, type: 'kubernetes.io/basic-auth', immutable: true },
      { metadata: { name: 'opaque' }, type: 'Opaque' },
    ],
  },
  {
    label: 'Namespace',
    schema: NamespaceSchema,
    type: `${CORE}.Namespace`,
    kind: { apiVersion: 'v1', kind: 'Namespace' },
    samples: [
      {
        metadata: { name: 'team-a', creationTimestamp: '2024-02-29T00:00:00Z' },
        spec: { finalizers: ['kubernetes'] },
        status: {
          phase: 'Terminating',
          conditions: [{ type: 'NamespaceDeletionContentFailure', status: 'False', lastTransitionTime: '2024-02-29T00:00:01Z', reason: 'ContentDeleted', message: 'All content successfully deleted' }],
        },
      },
    ],
  },
  { label: 'ConfigMapList', schema: listSchemaFor({ kind: 'ConfigMap', resource: 'configmaps', schema: ConfigMapSchema }), type: `${CORE}.ConfigMapList`, kind: { apiVersion: 'v1', kind: 'ConfigMapList' }, samples: [{ metadata: { resourceVersion: '9', continue: 'c', remainingItemCount: 3 }, items: [{ metadata: { name: 'a' }, data: { k: 'v' } }, { metadata: { name: 'b' } }] }] },
  { label: 'ObjectMeta', schema: ObjectMeta, type: `${META}.ObjectMeta`, samples: [metadata] },
  { label: 'ListMeta', schema: ListMeta, type: `${META}.ListMeta`, samples: [{ selfLink: '/x', resourceVersion: '5', continue: 'abc', remainingItemCount: 0 }] },
  { label: 'LabelSelector', schema: LabelSelector, type: `${META}.LabelSelector`, samples: [{ matchLabels: { a: 'b' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['x', 'y'] }, { key: 'e', operator: 'Exists' }] }] },
  {
    label: 'Status',
    schema: Status,
    type: `${META}.Status`,
    kind: { apiVersion: 'v1', kind: 'Status' },
    samples: [
      {
        metadata: {},
        status: 'Failure',
        message: 'ConfigMap "x" is invalid',
        reason: 'Invalid',
        details: { name: 'x', group: '', kind: 'ConfigMap', uid: 'u', causes: [{ reason: 'FieldValueInvalid', message: 'bad', field: 'data[a b]' }], retryAfterSeconds: 3 },
        code: 422,
      },
    ],
  },
  { label: 'DeleteOptions', schema: DeleteOptions, type: `${META}.DeleteOptions`, samples: [{ gracePeriodSeconds: 0, preconditions: { uid: 'u', resourceVersion: '3' }, orphanDependents: false, propagationPolicy: 'Foreground', dryRun: ['All'] }] },
  { label: 'ObjectReference', schema: ObjectReference, type: `${CORE}.ObjectReference`, samples: [{ kind: 'Pod', namespace: 'n', name: 'p', uid: 'u', apiVersion: 'v1', resourceVersion: '1', fieldPath: 'spec.containers{c}' }] },
  { label: 'LocalObjectReference', schema: LocalObjectReference, type: `${CORE}.LocalObjectReference`, samples: [{ name: 'x' }] },
  { label: 'TypedLocalObjectReference', schema: TypedLocalObjectReference, type: `${CORE}.TypedLocalObjectReference`, samples: [{ apiGroup: '', kind: 'K', name: 'n' }] },
  { label: 'SecretReference', schema: SecretReference, type: `${CORE}.SecretReference`, samples: [{ name: 'n', namespace: 'ns' }] },
  { label: 'ResourceRequirements', schema: ResourceRequirements, type: `${CORE}.ResourceRequirements`, samples: [{ limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '0' } }] },
  { label: 'NodeSelector', schema: NodeSelector, type: `${CORE}.NodeSelector`, samples: [{ nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }], matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n1', 'n2'] }] }] }] },
  { label: 'Taint', schema: Taint, type: `${CORE}.Taint`, samples: [{ key: 'k', value: 'v', effect: 'NoExecute', timeAdded: '2024-01-01T00:00:00Z' }] },
  {
    label: 'Probe (embedded ProbeHandler)',
    schema: ProbeForTest,
    type: `${CORE}.Probe`,
    samples: [
      { httpGet: { path: '/healthz', port: 'http', httpHeaders: [{ name: 'X', value: 'y' }] }, initialDelaySeconds: 3, periodSeconds: 10, failureThreshold: 0 },
      { exec: { command: ['true'] }, terminationGracePeriodSeconds: 0 },
      { grpc: { port: 9000, service: '' }, tcpSocket: { port: 80 } },
      { timeoutSeconds: 1 },
    ],
  },
  { label: 'Toleration', schema: Toleration, type: `${CORE}.Toleration`, samples: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute', tolerationSeconds: 0 }] },
];

const canonical = (schema: StructSchema, v: unknown): Obj => decodeObject<Obj>(schema, v).value;

describe.each(CASES.map((c) => [c.label, c] as const))('Kubernetes field numbers: %s', (_l, c) => {
  const samples = [...c.samples, sampleOf(c.schema, 'full'), sampleOf(c.schema, 'zero')].map((s) => canonical(c.schema, s));

  it.each(samples.map((s, i) => [i, s] as const))('our bytes read by protobufjs give the same JSON (sample %d)', (_i, json) => {
    const read = decodeKube(c.type, encodeMessage(c.schema, json));
    expect(canonical(c.schema, read)).toEqual(json);
  });

  it.each(samples.map((s, i) => [i, s] as const))('protobufjs bytes read by us give the same JSON (sample %d)', (_i, json) => {
    const read = decodeMessage(c.schema, encodeKube(c.type, json));
    expect(canonical(c.schema, read)).toEqual(json);
  });

  // Only top-level kinds travel in the envelope; nested types get no test rather than a skipped one.
  if (c.kind) it('the envelope carries apiVersion and kind, both ways', () => {
    const { apiVersion, kind } = c.kind!;
    const json = samples[0]!;
    const ours = encodeProtobufObject(c.schema, { ...json, apiVersion, kind });
    const env = decodeKubeEnvelope(ours);
    expect(env.typeMeta).toEqual({ apiVersion, kind });
    expect([env.contentEncoding, env.contentType]).toEqual(['', '']);
    expect(canonical(c.schema, decodeKube(c.type, env.raw))).toEqual(json);
    const theirs = encodeKubeEnvelope(apiVersion, kind, encodeKube(c.type, json));
    expect(canonical(c.schema, decodeProtobufObject(c.schema, theirs))).toEqual({ ...json, apiVersion, kind });
  });
});

describe('WatchEvent', () => {
  it('is read by protobufjs as type plus a RawExtension holding the enveloped object', () => {
    const obj = canonical(ConfigMapSchema, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w' }, data: { a: 'b' } });
    const event = encodeWatchEvent('MODIFIED', encodeProtobufObject(ConfigMapSchema, obj));
    const type = typeOf(`${META}.WatchEvent`);
    const read = type.toObject(type.decode(event), { defaults: false }) as Obj;
    expect(read.type).toBe('MODIFIED');
    const env = decodeKubeEnvelope(read.object.raw);
    expect(env.typeMeta).toEqual({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(canonical(ConfigMapSchema, decodeKube(`${CORE}.ConfigMap`, env.raw))).toEqual(canonical(ConfigMapSchema, { metadata: { name: 'w' }, data: { a: 'b' } }));
    // And protobufjs' event is read by ours.
    const theirs = type.encode(type.fromObject({ type: 'DELETED', object: { raw: encodeProtobufObject(ConfigMapSchema, obj) } })).finish();
    const back = decodeWatchEvent(theirs);
    expect(back.type).toBe('DELETED');
    expect(canonical(ConfigMapSchema, decodeProtobufObject(ConfigMapSchema, back.object))).toEqual(obj);
  });
});
