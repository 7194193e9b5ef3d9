import { describe, expect, it } from 'vitest';
import { createApiNames } from '../../machinery/api-names.js';
import { t, type StructSchema } from '../../schema/index.js';
import { SchemaConverter, type JsonObject } from './schema-convert.js';

const k8s = createApiNames('k8s.io');
const orch = createApiNames('orch.io');

interface TreeNode {
  name?: string;
  children?: TreeNode[];
}
const Tree: StructSchema<TreeNode> = t.struct('test.v1.Tree', {
  name: t.field(1, t.string()),
  children: t.field(2, t.list(t.lazy<TreeNode>(() => Tree))),
});

const Item = t.struct('test.v1.Item', {
  key: t.required(1, t.string(), { always: true, description: 'the key' }),
  value: t.field(2, t.string()),
}, { structType: 'atomic', description: 'An item.' });

const Widget = t.struct('test.v1.Widget', {
  kind: t.field(undefined, t.string()),
  count: t.field(1, t.int32(), { always: true }),
  big: t.field(2, t.int64(), { pointer: true }),
  ratio: t.field(3, t.double()),
  on: t.field(4, t.bool()),
  blob: t.field(5, t.bytes()),
  when: t.field(6, t.time()),
  precise: t.field(7, t.microTime(), { pointer: true }),
  port: t.field(8, t.intOrString()),
  memory: t.field(9, t.quantity()),
  anything: t.field(10, t.raw()),
  fields: t.field(11, t.raw({ name: 'meta.v1.FieldsV1' })),
  mode: t.field(12, t.string({ enum: ['A', 'B'] })),
  items: t.field(13, t.list(Item, { listType: 'map', listMapKeys: ['key'], patchStrategy: 'merge', patchMergeKey: 'key' })),
  tags: t.field(14, t.list(t.string(), { listType: 'set' })),
  labels: t.field(15, t.map(t.string(), { mapType: 'granular' })),
  item: t.required(16, Item, { description: 'the item', patchStrategy: 'retainKeys' }),
  tree: t.field(17, Tree, { pointer: true }),
}, { description: 'A widget.' });

function convert(version: 2 | 3, names = k8s): { defs: JsonObject; conv: SchemaConverter } {
  const conv = new SchemaConverter(names, version);
  conv.addGroupVersionKind(Widget, { group: 'test.k8s.io', version: 'v1', kind: 'Widget' });
  return { defs: conv.result(), conv };
}

const WIDGET = 'io.k8s.api.test.v1.Widget';
const props = (defs: JsonObject, name = WIDGET): Record<string, JsonObject> => (defs[name] as { properties: Record<string, JsonObject> }).properties;

describe('SchemaConverter', () => {
  it('defines the struct and every named type it reaches', () => {
    const { defs } = convert(2);
    expect(Object.keys(defs)).toEqual([
      'io.k8s.api.test.v1.Item',
      'io.k8s.api.test.v1.Tree',
      WIDGET,
      'io.k8s.apimachinery.pkg.api.resource.Quantity',
      'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
      'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
      'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
    ]);
  });

  it('maps scalars as Kubernetes publishes them', () => {
    const p = props(convert(2).defs);
    expect(p.count).toEqual({ type: 'integer', format: 'int32' });
    expect(p.big).toEqual({ type: 'integer', format: 'int64' });
    expect(p.ratio).toEqual({ type: 'number', format: 'double' });
    expect(p.on).toEqual({ type: 'boolean' });
    expect(p.blob).toEqual({ type: 'string', format: 'byte' });
    expect(p.mode).toEqual({ type: 'string', enum: ['A', 'B'] });
    expect(p.anything).toEqual({ type: 'object' });
    expect(p.when).toEqual({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Time' });
    expect(p.precise).toEqual({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' });
    expect(p.port).toEqual({ $ref: '#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString' });
    expect(p.fields).toEqual({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1' });
  });

  it('publishes int-or-string, quantity and time in each version\'s form', () => {
    const v2 = convert(2).defs;
    const v3 = convert(3).defs;
    const strip = (d: unknown): JsonObject => {
      const { description: _d, ...rest } = d as JsonObject;
      return rest;
    };
    expect(strip(v2['io.k8s.apimachinery.pkg.util.intstr.IntOrString'])).toEqual({ type: 'string', format: 'int-or-string' });
    expect(strip(v3['io.k8s.apimachinery.pkg.util.intstr.IntOrString'])).toEqual({ format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(strip(v2['io.k8s.apimachinery.pkg.api.resource.Quantity'])).toEqual({ type: 'string' });
    expect(strip(v3['io.k8s.apimachinery.pkg.api.resource.Quantity'])).toEqual({ oneOf: [{ type: 'string' }, { type: 'number' }] });
    expect(strip(v3['io.k8s.apimachinery.pkg.apis.meta.v1.Time'])).toEqual({ type: 'string', format: 'date-time' });
    expect(strip(v2['io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1'])).toEqual({ type: 'object' });
  });

  it('carries the merge markers as the domain\'s extensions', () => {
    for (const [names, p] of [[k8s, 'x-kubernetes-'], [orch, 'x-orch-']] as const) {
      const { defs } = convert(2, names);
      const widget = Object.keys(defs).find((k) => k.endsWith('.test.v1.Widget')) as string;
      const item = Object.keys(defs).find((k) => k.endsWith('.test.v1.Item')) as string;
      const w = props(defs, widget);
      expect(w.items).toMatchObject({ type: 'array', [`${p}list-type`]: 'map', [`${p}list-map-keys`]: ['key'], [`${p}patch-strategy`]: 'merge', [`${p}patch-merge-key`]: 'key' });
      expect(w.tags).toMatchObject({ type: 'array', items: { type: 'string' }, [`${p}list-type`]: 'set' });
      expect(w.labels).toEqual({ type: 'object', additionalProperties: { type: 'string' }, [`${p}map-type`]: 'granular' });
      expect(w.item).toMatchObject({ [`${p}patch-strategy`]: 'retainKeys' });
      expect(defs[item]).toMatchObject({ [`${p}map-type`]: 'atomic' });
      expect(defs[widget]).toMatchObject({ [`${p}group-version-kind`]: [{ group: 'test.k8s.io', kind: 'Widget', version: 'v1' }] });
      expect(JSON.stringify(defs)).not.toContain(p === 'x-orch-' ? 'x-kubernetes-' : 'x-orch-');
    }
  });

  it('lists required fields and keeps descriptions', () => {
    const { defs } = convert(2);
    expect(defs[WIDGET]).toMatchObject({ description: 'A widget.', required: ['item'], type: 'object' });
    expect(defs['io.k8s.api.test.v1.Item']).toMatchObject({ description: 'An item.', required: ['key'] });
  });

  it('puts siblings of a reference beside $ref in v2 and wraps it in allOf in v3, with Go zero defaults', () => {
    expect(props(convert(2).defs).item).toEqual({ $ref: '#/definitions/io.k8s.api.test.v1.Item', description: 'the item', 'x-kubernetes-patch-strategy': 'retainKeys' });
    const v3 = props(convert(3).defs);
    expect(v3.item).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.test.v1.Item' }],
      default: {},
      description: 'the item',
      'x-kubernetes-patch-strategy': 'retainKeys',
    });
    expect(v3.tree).toEqual({ $ref: '#/components/schemas/io.k8s.api.test.v1.Tree' });
    expect(v3.count).toEqual({ type: 'integer', format: 'int32', default: 0 });
    expect(v3.kind).toEqual({ type: 'string' });
    expect((v3.items as { items: JsonObject }).items).toEqual({ allOf: [{ $ref: '#/components/schemas/io.k8s.api.test.v1.Item' }], default: {} });
    expect(props(convert(3).defs, 'io.k8s.api.test.v1.Item').key).toEqual({ type: 'string', default: '', description: 'the key' });
  });

  it('ends on recursive types', () => {
    const { defs } = convert(2);
    expect(props(defs, 'io.k8s.api.test.v1.Tree').children).toEqual({ type: 'array', items: { $ref: '#/definitions/io.k8s.api.test.v1.Tree' } });
  });
});
