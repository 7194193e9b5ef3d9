/**
 * Test kinds for strategic merge patch and field validation over HTTP, served through
 * createServer's `resources` option:
 * - Rig (namespaced): containers merged by name (ports by containerPort, env by name, args atomic),
 *   tags merged as a set, a retainKeys strategy, status conditions merged by type, a status
 *   subresource and a /scale view;
 * - Blob: a kind without a schema (everything kept as sent), which strategic merge cannot patch.
 */
import { defineResource, t, type KubeObject, type ObjectOf } from '../../src/index.js';
import { nameValidators } from '../../src/machinery/name-validation.js';
import { statusSubresource } from '../../src/registry/subresources.js';
import { objectHeader } from '../../src/schema/index.js';

export const GROUP = 'rigs.example.com';

const Port = t.struct('com.example.rigs.v1.Port', {
  name: t.field(1, t.string()),
  containerPort: t.field(2, t.int32()),
  protocol: t.field(3, t.string()),
});

const EnvVar = t.struct('com.example.rigs.v1.EnvVar', {
  name: t.field(1, t.string()),
  value: t.field(2, t.string()),
});

const Container = t.struct('com.example.rigs.v1.Container', {
  name: t.field(1, t.string()),
  image: t.field(2, t.string()),
  args: t.field(3, t.list(t.string(), { listType: 'atomic' })),
  ports: t.field(4, t.list(Port, { listType: 'map', listMapKeys: ['containerPort', 'protocol'], patchStrategy: 'merge', patchMergeKey: 'containerPort' })),
  env: t.field(5, t.list(EnvVar, { listType: 'map', listMapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name' })),
});

const RollingUpdate = t.struct('com.example.rigs.v1.RollingUpdate', {
  maxSurge: t.field(1, t.intOrString(), { pointer: true }),
  maxUnavailable: t.field(2, t.intOrString(), { pointer: true }),
});

const Strategy = t.struct('com.example.rigs.v1.Strategy', {
  type: t.field(1, t.string()),
  rollingUpdate: t.field(2, RollingUpdate, { pointer: true }),
});

const Condition = t.struct('com.example.rigs.v1.Condition', {
  type: t.field(1, t.string()),
  status: t.field(2, t.string()),
  reason: t.field(3, t.string()),
});

const RigSchema = t.struct('com.example.rigs.v1.Rig', {
  ...objectHeader,
  spec: t.field(2, t.struct('com.example.rigs.v1.RigSpec', {
    replicas: t.field(1, t.int32(), { pointer: true }),
    paused: t.field(2, t.bool()),
    selector: t.field(3, t.map(t.string())),
    tags: t.field(4, t.list(t.string(), { listType: 'set', patchStrategy: 'merge' })),
    containers: t.field(5, t.list(Container, { listType: 'map', listMapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name' })),
    strategy: t.field(6, Strategy, { patchStrategy: 'retainKeys' }),
  })),
  status: t.field(3, t.struct('com.example.rigs.v1.RigStatus', {
    replicas: t.field(1, t.int32()),
    conditions: t.field(2, t.list(Condition, { listType: 'map', listMapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' })),
  })),
});
type Rig = ObjectOf<typeof RigSchema>;

const ScaleSchema = t.struct('com.example.rigs.v1.Scale', {
  ...objectHeader,
  spec: t.field(2, t.struct('com.example.rigs.v1.ScaleSpec', { replicas: t.field(1, t.int32()) })),
  status: t.field(3, t.struct('com.example.rigs.v1.ScaleStatus', { replicas: t.field(1, t.int32()) })),
});

export const rigResource = defineResource<Rig>(() => ({
  group: GROUP,
  version: 'v1',
  kind: 'Rig',
  resource: 'rigs',
  singular: 'rig',
  namespaced: true,
  schema: RigSchema,
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults: (r) => {
      // As Deployment defaults its strategy: something for retainKeys to clear.
      r.spec.strategy.type ||= 'RollingUpdate';
      if (r.spec.strategy.type === 'RollingUpdate') r.spec.strategy.rollingUpdate ??= { maxSurge: '25%', maxUnavailable: '25%' };
    },
    prepareForCreate: (r) => {
      r.status = { replicas: 0 };
    },
    prepareForUpdate: (r, old) => {
      r.status = old.status;
    },
    validate: (r) => ((r.spec.replicas ?? 0) < 0 ? [{ type: 'FieldValueInvalid', field: 'spec.replicas', value: r.spec.replicas, detail: 'must be greater than or equal to 0' }] : []),
  },
  subresources: {
    status: statusSubresource<Rig>(),
    scale: {
      kind: 'view',
      verbs: ['get', 'patch', 'update'],
      view: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      schema: ScaleSchema,
      toView: (rig: Rig): KubeObject =>
        ({
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: rig.metadata.name, namespace: rig.metadata.namespace, uid: rig.metadata.uid, resourceVersion: rig.metadata.resourceVersion, creationTimestamp: rig.metadata.creationTimestamp },
          spec: { replicas: rig.spec.replicas ?? 0 },
          status: { replicas: rig.status.replicas },
        }) as KubeObject,
      fromView: (view: KubeObject, rig: Rig): Rig => {
        const replicas = (view as unknown as { spec: { replicas: number } }).spec.replicas;
        return { ...structuredClone(rig), spec: { ...structuredClone(rig.spec), replicas } };
      },
    },
  },
}));

const BlobSchema = t.struct('com.example.rigs.v1.Blob', { ...objectHeader }, { preserveUnknownFields: true });
type Blob = ObjectOf<typeof BlobSchema>;

export const blobResource = defineResource<Blob>(() => ({
  group: GROUP,
  version: 'v1',
  kind: 'Blob',
  resource: 'blobs',
  singular: 'blob',
  namespaced: true,
  schema: BlobSchema,
  strategy: { nameValidator: nameValidators.dnsSubdomain },
}));

export const PATCH_TEST_RESOURCES = [rigResource, blobResource];
export const RIGS = `/apis/${GROUP}/v1/namespaces/default/rigs`;
export const BLOBS = `/apis/${GROUP}/v1/namespaces/default/blobs`;

export const SMP = 'application/strategic-merge-patch+json';
export const MERGE = 'application/merge-patch+json';
export const JSONPATCH = 'application/json-patch+json';

/** A Rig body with two containers. */
export function rig(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'Rig',
    metadata: { name },
    spec: {
      replicas: 2,
      selector: { app: name },
      tags: ['a', 'b'],
      containers: [
        { name: 'web', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }], env: [{ name: 'A', value: '1' }] },
        { name: 'side', image: 'busybox', args: ['sleep', '1'] },
      ],
    },
    ...extra,
  };
}
