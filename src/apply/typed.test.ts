import { describe, expect, it } from 'vitest';
import { t } from '../schema/dsl.js';
import { compareValues } from './compare.js';
import { mergeValues } from './merge.js';
import { pathToString } from './path.js';
import { reconcileWithSchema } from './reconcile.js';
import { removeItems } from './remove.js';
import { DEDUCED } from './schema-view.js';
import { toFieldSet } from './to-field-set.js';
import { fromFieldsV1, toFieldsV1 } from './fields-v1.js';
import { validateTyped } from './validate.js';

const Port = t.struct('test.Port', {
  name: t.field(1, t.string()),
  port: t.field(2, t.int32()),
  protocol: t.field(3, t.string(), { default: 'TCP' }),
});
const Container = t.struct('test.Container', { name: t.field(1, t.string()), image: t.field(2, t.string()), args: t.field(3, t.list(t.string())) });

const Schema = t.struct('test.Thing', {
  apiVersion: t.field(undefined, t.string()),
  kind: t.field(undefined, t.string()),
  spec: t.field(1, t.struct('test.Spec', {
    replicas: t.field(1, t.int32()),
    labels: t.field(2, t.map(t.string())),
    frozen: t.field(3, t.map(t.string(), { mapType: 'atomic' })),
    selector: t.field(4, t.struct('test.Selector', { a: t.field(1, t.string()), b: t.field(2, t.string()) }, { structType: 'atomic' })),
    tags: t.field(5, t.list(t.string(), { listType: 'set' })),
    args: t.field(6, t.list(t.string(), { listType: 'atomic' })),
    ports: t.field(7, t.list(Port, { listType: 'map', listMapKeys: ['port', 'protocol'] })),
    containers: t.field(8, t.list(Container, { patchStrategy: 'merge', patchMergeKey: 'name' })),
    finalizers: t.field(9, t.list(t.string(), { patchStrategy: 'merge' })),
    raw: t.field(10, t.raw()),
  })),
});

const paths = (type: Parameters<typeof toFieldSet>[0], v: unknown): string[] => toFieldSet(type, v).paths().map(pathToString);

describe('toFieldSet', () => {
  it('lists leaves, map entries, list items and atomic containers, not named struct fields with content', () => {
    const v = {
      spec: {
        replicas: 3,
        labels: { a: '1' },
        frozen: { x: 'y' },
        selector: { a: 'x' },
        tags: ['t1'],
        args: ['--x'],
        ports: [{ port: 80, name: 'http' }],
        containers: [{ name: 'web', image: 'nginx' }],
        finalizers: ['f'],
        raw: { deep: { list: [1, { a: 1 }] }, n: 1 },
      },
    };
    expect(paths(Schema, v)).toEqual([
      '.spec.args',
      '.spec.containers[name="web"]',
      '.spec.containers[name="web"].image',
      '.spec.containers[name="web"].name',
      '.spec.finalizers[="f"]',
      '.spec.frozen',
      '.spec.labels.a',
      '.spec.ports[port=80,protocol="TCP"]',
      '.spec.ports[port=80,protocol="TCP"].name',
      '.spec.ports[port=80,protocol="TCP"].port',
      '.spec.raw.deep',
      '.spec.raw.deep.list',
      '.spec.raw.n',
      '.spec.replicas',
      '.spec.selector',
      '.spec.tags[="t1"]',
    ]);
  });

  it('marks empty objects and nulls as owned', () => {
    expect(paths(Schema, { spec: {} })).toEqual(['.spec']);
    expect(paths(Schema, { spec: { labels: null } })).toEqual(['.spec.labels']);
  });

  it('treats values without a schema as granular maps and atomic lists', () => {
    expect(paths(DEDUCED, { a: { b: [1, 2] }, c: 'x' })).toEqual(['.a', '.a.b', '.c']);
  });
});

describe('mergeValues', () => {
  it('keeps live fields, lets the configuration win on leaves, replaces atomic values whole', () => {
    const live = { spec: { replicas: 1, labels: { a: '1', b: '2' }, frozen: { x: '1', y: '2' }, selector: { a: '1', b: '2' }, args: ['a', 'b'] } };
    const config = { spec: { replicas: 3, labels: { b: 'B' }, frozen: { z: '3' }, selector: { a: 'A' }, args: ['c'] } };
    expect(mergeValues(Schema, live, config)).toEqual({
      spec: { replicas: 3, labels: { a: '1', b: 'B' }, frozen: { z: '3' }, selector: { a: 'A' }, args: ['c'] },
    });
    expect(live.spec.labels).toEqual({ a: '1', b: '2' });
  });

  it('merges map lists by key and sets by value, keeping live order and placing new items', () => {
    const live = { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }], tags: ['t1', 't2'] } };
    const config = { spec: { containers: [{ name: 'c', image: 'z' }, { name: 'a', image: 'X' }], tags: ['t3', 't1'] } };
    expect(mergeValues(Schema, live, config)).toEqual({
      spec: { containers: [{ name: 'c', image: 'z' }, { name: 'a', image: 'X' }, { name: 'b', image: 'y' }], tags: ['t3', 't1', 't2'] },
    });
  });

  it('matches list items through key defaults', () => {
    const live = { spec: { ports: [{ port: 80, protocol: 'TCP', name: 'old' }] } };
    const config = { spec: { ports: [{ port: 80, name: 'new' }] } };
    expect(mergeValues(Schema, live, config)).toEqual({ spec: { ports: [{ port: 80, protocol: 'TCP', name: 'new' }] } });
  });
});

describe('compareValues', () => {
  it('reports added, removed and modified paths, containers included', () => {
    const c = compareValues(Schema, { spec: { replicas: 1, labels: { a: '1' }, tags: ['x'] } }, { spec: { replicas: 2, tags: ['y'], containers: [{ name: 'w' }] } });
    expect(c.modified.paths().map(pathToString)).toEqual(['.spec.replicas']);
    expect(c.removed.paths().map(pathToString)).toEqual(['.spec.labels', '.spec.labels.a', '.spec.tags[="x"]']);
    expect(c.added.paths().map(pathToString)).toEqual(['.spec.containers', '.spec.containers[name="w"]', '.spec.containers[name="w"].name', '.spec.tags[="y"]']);
  });
});

describe('removeItems', () => {
  it('removes fields and list items; a container left empty becomes null', () => {
    const v = { spec: { replicas: 1, labels: { a: '1' }, containers: [{ name: 'a', image: 'x' }, { name: 'b' }] } };
    const set = fromFieldsV1({ 'f:spec': { 'f:labels': { 'f:a': {} }, 'f:containers': { 'k:{"name":"b"}': {}, 'k:{"name":"a"}': { 'f:image': {} } } } });
    expect(removeItems(Schema, v, set)).toEqual({ spec: { replicas: 1, labels: null, containers: [{ name: 'a' }] } });
  });
});

describe('reconcileWithSchema', () => {
  it('turns ownership of parts of a now-atomic field into ownership of the whole', () => {
    const set = fromFieldsV1({ 'f:spec': { 'f:frozen': { 'f:x': {} }, 'f:selector': { 'f:a': {} }, 'f:args': {}, 'f:labels': { 'f:a': {} } } });
    expect(toFieldsV1(reconcileWithSchema(Schema, set))).toEqual({ 'f:spec': { 'f:args': {}, 'f:frozen': {}, 'f:labels': { 'f:a': {} }, 'f:selector': {} } });
    const unchanged = fromFieldsV1({ 'f:spec': { 'f:labels': { 'f:a': {} } } });
    expect(reconcileWithSchema(Schema, unchanged)).toBe(unchanged);
  });
});

describe('validateTyped', () => {
  it('names every offending path in structured-merge-diff words', () => {
    expect(validateTyped(Schema, { spec: { replicas: 'x', bogus: 1, labels: [], tags: ['a', 'a'], ports: [{ name: 'x' }], containers: [{ image: 'x' }, { name: 'a', image: 1 }] } })).toEqual([
      '.spec.replicas: expected numeric (int or float), got string',
      '.spec.bogus: field not declared in schema',
      '.spec.labels: expected map, got list',
      '.spec.tags: duplicate entries for key [="a"]',
      '.spec.containers: element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)',
      '.spec.containers[name="a"].image: expected string, got number',
    ]);
    expect(validateTyped(Schema, { spec: { replicas: null, raw: { anything: [1] } } })).toEqual([]);
  });
});
