/**
 * JSON → protobuf → JSON is the identity for every built-in kind (and its List), whatever kinds
 * the registry holds when the test runs: for the kind's fixture, for a sample setting every field,
 * and for one setting every scalar to its zero value (where value and pointer fields differ).
 * A kind whose schema lacks protobuf numbers fails here, naming the fields.
 */
import { describe, expect, it } from 'vitest';
import { builtinResources } from '../../src/apis/index.js';
import { createApiNames } from '../../src/machinery/api-names.js';
import { decodeProtobufObject, encodeProtobufObject, protobufGaps } from '../../src/schema/protobuf/index.js';
import { apiVersionOf } from '../../src/machinery/gvk.js';
import { listSchemaFor } from '../../src/endpoints/list-schema.js';
import type { ResourceDefinition } from '../../src/registry/define-resource.js';
import { decodeObject, type StructSchema } from '../../src/schema/index.js';
import { sampleOf } from './samples.js';

const names = createApiNames('k8s.io');
const definitions: ResourceDefinition[] = builtinResources.map((f) => f(names, { names }));
const label = (d: ResourceDefinition): string => `${d.group || 'core'}/${d.version} ${d.kind}`;

const canonical = (schema: StructSchema, v: unknown): Record<string, unknown> => decodeObject<Record<string, unknown>>(schema, v).value;
const throughProtobuf = (schema: StructSchema, json: Record<string, unknown>): Record<string, unknown> =>
  canonical(schema, decodeProtobufObject(schema, encodeProtobufObject(schema, json)));

const richMetadata = {
  name: 'sample',
  generateName: 'sam-',
  namespace: 'ns',
  uid: '0b0e2b8a-3c5d-4e6f-8a9b-0c1d2e3f4a5b',
  resourceVersion: '12345',
  generation: 3,
  creationTimestamp: '2024-01-02T03:04:05Z',
  deletionTimestamp: '2024-01-02T03:05:05Z',
  deletionGracePeriodSeconds: 0,
  labels: { app: 'x', empty: '' },
  annotations: { 'example.com/a': 'b' },
  ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true, blockOwnerDeletion: false }],
  finalizers: ['example.com/f'],
  managedFields: [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: '2024-01-02T03:04:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } } } }],
};

describe('every built-in kind has a protobuf form', () => {
  it.each(definitions.map((d) => [label(d), d] as const))('%s', (_l, def) => {
    expect(protobufGaps(def.schema)).toEqual([]);
  });
});

/** Views such as /scale answer another kind (autoscaling/v1 Scale), which needs a protobuf form too. */
const views = definitions.flatMap((d) =>
  Object.entries(d.subresources ?? {}).flatMap(([name, sub]) => (sub.kind === 'view' ? [[`${label(d)} /${name} (${sub.view.kind})`, sub.schema] as const] : [])),
);

describe.skipIf(views.length === 0)('every view subresource has a protobuf form and round-trips', () => {
  it.each(views)('%s', (_l, schema) => {
    expect(protobufGaps(schema)).toEqual([]);
    const json = canonical(schema, sampleOf(schema, 'full'));
    expect(throughProtobuf(schema, json)).toEqual(json);
  });
});

describe.each(definitions.filter((d) => protobufGaps(d.schema).length === 0).map((d) => [label(d), d] as const))('protobuf round trip: %s', (_l, def) => {
  const head = { apiVersion: apiVersionOf(def), kind: def.kind };

  it('the fixture, with full metadata', () => {
    const fixture = (def.fixture?.() ?? {}) as Record<string, unknown>;
    const json = canonical(def.schema, { ...fixture, ...head, metadata: { ...richMetadata, ...((fixture.metadata as object) ?? {}) } });
    expect(throughProtobuf(def.schema, json)).toEqual(json);
  });

  it('a sample setting every field', () => {
    const json = canonical(def.schema, { ...sampleOf(def.schema, 'full'), ...head });
    expect(throughProtobuf(def.schema, json)).toEqual(json);
  });

  it('a sample with zero values', () => {
    const json = canonical(def.schema, { ...sampleOf(def.schema, 'zero'), ...head });
    expect(throughProtobuf(def.schema, json)).toEqual(json);
  });

  it('its List', () => {
    const list = listSchemaFor(def);
    // Items carry no kind and apiVersion in protobuf (nor in Kubernetes' JSON lists): only the list's envelope does.
    const json = canonical(list, {
      apiVersion: head.apiVersion,
      kind: `${def.kind}List`,
      metadata: { resourceVersion: '7', continue: 'token', remainingItemCount: 0 },
      items: [canonical(def.schema, sampleOf(def.schema, 'full')), canonical(def.schema, { metadata: { name: 'b' } })],
    });
    expect(throughProtobuf(list, json)).toEqual(json);
  });
});
