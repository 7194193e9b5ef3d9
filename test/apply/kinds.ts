/**
 * Test kinds for server-side apply, served through createServer's `resources` option. Their
 * schemas carry every merge marker, so the scenarios do not depend on the built-in kinds.
 *
 * - Marker (namespaced, /status): one field per marker type, a defaulted field, raw JSON.
 * - Loose (namespaced): a spec without a schema (preserveUnknownFields), merged as untyped data.
 */
import { defineResource, t, type ObjectOf } from '../../src/index.js';
import { nameValidators } from '../../src/machinery/name-validation.js';
import { statusSubresource } from '../../src/registry/subresources.js';
import { objectHeader } from '../../src/schema/index.js';

export const APPLY_GROUP = 'apply.example.com';

const Port = t.struct('com.example.apply.v1.Port', {
  name: t.field(1, t.string()),
  port: t.required(2, t.int32()),
  // A key field with a default: items that leave it out still match the stored ones.
  protocol: t.field(3, t.string(), { default: 'TCP' }),
});

const EnvVar = t.struct('com.example.apply.v1.EnvVar', {
  name: t.required(1, t.string()),
  value: t.field(2, t.string()),
});

const Container = t.struct('com.example.apply.v1.Container', {
  name: t.required(1, t.string()),
  image: t.field(2, t.string()),
  // Strategic-merge markers without listType: read as a map list keyed by name.
  env: t.field(3, t.list(EnvVar, { patchStrategy: 'merge', patchMergeKey: 'name' })),
  // No marker at all: atomic.
  command: t.field(4, t.list(t.string())),
});

const Selector = t.struct('com.example.apply.v1.Selector', {
  app: t.field(1, t.string()),
  tier: t.field(2, t.string()),
}, { structType: 'atomic' });

const Config = t.struct('com.example.apply.v1.Config', {
  mode: t.field(1, t.string()),
  level: t.field(2, t.int32()),
  nested: t.field(3, t.struct('com.example.apply.v1.Nested', { a: t.field(1, t.string()), b: t.field(2, t.string()) }), { pointer: true }),
});

const Condition = t.struct('com.example.apply.v1.Condition', {
  type: t.required(1, t.string()),
  status: t.field(2, t.string()),
  reason: t.field(3, t.string()),
});

const ScaleSchema = t.struct('com.example.apply.v1.Scale', {
  ...objectHeader,
  spec: t.field(2, t.struct('com.example.apply.v1.ScaleSpec', { replicas: t.field(1, t.int32()) })),
});

export const MarkerSchema = t.struct('com.example.apply.v1.Marker', {
  ...objectHeader,
  spec: t.field(2, t.struct('com.example.apply.v1.MarkerSpec', {
    replicas: t.field(1, t.int32(), { pointer: true }),
    paused: t.field(2, t.bool()),
    // mapType granular (the default) and atomic.
    settings: t.field(3, t.map(t.string())),
    frozen: t.field(4, t.map(t.string(), { mapType: 'atomic' })),
    // structType atomic and granular (the default).
    selector: t.field(5, Selector, { pointer: true }),
    config: t.field(6, Config, { pointer: true }),
    // listType set, atomic, map (two key fields, one defaulted).
    tags: t.field(7, t.list(t.string(), { listType: 'set' })),
    args: t.field(8, t.list(t.string(), { listType: 'atomic' })),
    ports: t.field(9, t.list(Port, { listType: 'map', listMapKeys: ['port', 'protocol'] })),
    // patchStrategy=merge with a key (map list) and without one on scalars (set).
    containers: t.field(10, t.list(Container, { patchStrategy: 'merge', patchMergeKey: 'name' })),
    hosts: t.field(11, t.list(t.string(), { patchStrategy: 'merge' })),
    // Arbitrary JSON: untyped, objects granular, lists atomic.
    extra: t.field(12, t.raw(), { pointer: true }),
  })),
  status: t.field(3, t.struct('com.example.apply.v1.MarkerStatus', {
    phase: t.field(1, t.string()),
    observed: t.field(2, t.int64()),
    conditions: t.field(3, t.list(Condition, { listType: 'map', listMapKeys: ['type'] })),
  })),
});
export type Marker = ObjectOf<typeof MarkerSchema>;

export const markerResource = defineResource<Marker>(() => ({
  group: APPLY_GROUP,
  version: 'v1',
  kind: 'Marker',
  resource: 'markers',
  singular: 'marker',
  namespaced: true,
  schema: MarkerSchema,
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    // A field with a default: removing it resets it, as Kubernetes' defaulting does.
    defaults(obj) {
      if (obj.spec.replicas === undefined) obj.spec.replicas = 1;
      for (const p of obj.spec.ports ?? []) p.protocol ||= 'TCP';
    },
  },
  subresources: {
    status: statusSubresource<Marker>(),
    // A view of spec.replicas, like /scale: writes are recorded on the Marker with subresource "scale".
    scale: {
      kind: 'view',
      verbs: ['get', 'patch', 'update'],
      view: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      schema: ScaleSchema,
      ownedField: { view: ['spec', 'replicas'], parent: ['spec', 'replicas'] },
      toView: (m) => {
        const { managedFields: _omit, ...metadata } = m.metadata;
        return { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata, spec: { replicas: m.spec.replicas ?? 0 } };
      },
      fromView: (view, m) => ({ ...structuredClone(m), spec: { ...m.spec, replicas: (view.spec as { replicas?: number } | undefined)?.replicas ?? 0 } }),
    },
  },
}));

export const LooseSchema = t.struct('com.example.apply.v1.Loose', {
  ...objectHeader,
  spec: t.field(2, t.struct('com.example.apply.v1.LooseSpec', {}, { preserveUnknownFields: true })),
});
type Loose = ObjectOf<typeof LooseSchema>;

export const looseResource = defineResource<Loose>(() => ({
  group: APPLY_GROUP,
  version: 'v1',
  kind: 'Loose',
  resource: 'looses',
  singular: 'loose',
  namespaced: true,
  schema: LooseSchema,
  strategy: { nameValidator: nameValidators.dnsSubdomain },
}));

export const APPLY_TEST_RESOURCES = [markerResource, looseResource];
