import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import { FieldsV1Error, fromFieldsV1, toFieldsV1 } from './fields-v1.js';
import { elementKey, parseElementKey, pathToString, pe } from './path.js';

describe('FieldsV1', () => {
  it('writes f:, k:, v: and i: keys with "." for members that have children, in element order', () => {
    const s = FieldSet.of(
      [pe.field('metadata'), pe.field('labels'), pe.field('app')],
      [pe.field('metadata'), pe.field('labels')],
      [pe.field('spec'), pe.field('containers'), pe.key({ name: 'web' })],
      [pe.field('spec'), pe.field('containers'), pe.key({ name: 'web' }), pe.field('image')],
      [pe.field('spec'), pe.field('ports'), pe.key({ protocol: 'TCP', containerPort: 80 })],
      [pe.field('metadata'), pe.field('finalizers'), pe.value('b')],
      [pe.field('metadata'), pe.field('finalizers'), pe.value('a<b')],
      [pe.field('spec'), pe.field('args'), pe.index(0)],
    );
    const json = toFieldsV1(s);
    expect(JSON.stringify(json)).toBe(
      JSON.stringify({
        'f:metadata': { 'f:finalizers': { 'v:"a\\u003cb"': {}, 'v:"b"': {} }, 'f:labels': { '.': {}, 'f:app': {} } },
        'f:spec': {
          'f:args': { 'i:0': {} },
          'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {} } },
          'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': {} },
        },
      }),
    );
    expect(fromFieldsV1(json).equals(s)).toBe(true);
  });

  it('round-trips through JSON text', () => {
    const s = FieldSet.of([pe.field('data'), pe.field('a.b')], [pe.field('x'), pe.key({ n: 1.5, ok: true })], [pe.field('y'), pe.value(null)]);
    expect(fromFieldsV1(JSON.parse(JSON.stringify(toFieldsV1(s)))).equals(s)).toBe(true);
    expect(toFieldsV1(new FieldSet())).toEqual({});
    expect(fromFieldsV1({}).empty).toBe(true);
  });

  it('reads "." as membership, drops unknown element types, refuses malformed input', () => {
    const s = fromFieldsV1({ 'f:a': { '.': {}, 'f:b': {} }, 'x:future': {}, 'f:c': {} });
    expect(s.paths().map(pathToString)).toEqual(['.a', '.a.b', '.c']);
    expect(() => fromFieldsV1([])).toThrow(FieldsV1Error);
    expect(() => fromFieldsV1({ 'f:a': 1 })).toThrow(FieldsV1Error);
    expect(() => fromFieldsV1({ 'k:{bad': {} })).toThrow(FieldsV1Error);
    expect(() => fromFieldsV1({ 'v:{"a":1}': {} })).toThrow(FieldsV1Error);
    expect(() => fromFieldsV1({ a: {} })).toThrow(FieldsV1Error);
  });

  it('element keys parse back to the same element', () => {
    for (const e of [pe.field('f:weird.name'), pe.key({ b: 'x', a: 2 }), pe.value(3), pe.value('s'), pe.value(false), pe.index(7)]) {
      expect(elementKey(parseElementKey(elementKey(e)) as never)).toBe(elementKey(e));
    }
    expect(elementKey(pe.key({ b: 'x', a: 2 }))).toBe('k:{"a":2,"b":"x"}');
  });
});
