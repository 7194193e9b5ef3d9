import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import { fieldPath, pathToString, pe, type Path } from './path.js';

const p = (...names: string[]): Path => fieldPath(...names);
const texts = (s: FieldSet): string[] => s.paths().map(pathToString);

describe('FieldSet', () => {
  it('inserts and finds paths, a path and the paths below it independently', () => {
    const s = FieldSet.of(p('spec', 'replicas'), p('spec'), [pe.field('spec'), pe.field('ports'), pe.key({ port: 80, protocol: 'TCP' })]);
    expect(s.has(p('spec'))).toBe(true);
    expect(s.has(p('spec', 'replicas'))).toBe(true);
    expect(s.has(p('spec', 'ports'))).toBe(false);
    expect(s.has([pe.field('spec'), pe.field('ports'), pe.key({ protocol: 'TCP', port: 80 })])).toBe(true);
    expect(s.has([])).toBe(false);
    expect(texts(s)).toEqual(['.spec', '.spec.ports[port=80,protocol="TCP"]', '.spec.replicas']);
  });

  it('orders fields before keys before values before indices', () => {
    const s = FieldSet.of([pe.index(1)], [pe.value('b')], [pe.value(2)], [pe.key({ name: 'a' })], [pe.field('z')], [pe.field('a')]);
    expect(texts(s)).toEqual(['.a', '.z', '[name="a"]', '[=2]', '[="b"]', '[1]']);
  });

  it('unions, intersects and differences', () => {
    const a = FieldSet.of(p('a'), p('b', 'c'), p('b', 'd'));
    const b = FieldSet.of(p('b', 'c'), p('e'));
    expect(texts(a.union(b))).toEqual(['.a', '.b.c', '.b.d', '.e']);
    expect(texts(a.intersection(b))).toEqual(['.b.c']);
    expect(texts(a.difference(b))).toEqual(['.a', '.b.d']);
    // Operands are untouched.
    expect(texts(a)).toEqual(['.a', '.b.c', '.b.d']);
  });

  it('difference keeps paths below a removed member; recursiveDifference drops them', () => {
    const a = FieldSet.of(p('spec'), p('spec', 'x'), p('spec', 'y', 'z'), p('other'));
    const b = FieldSet.of(p('spec'));
    expect(texts(a.difference(b))).toEqual(['.other', '.spec.x', '.spec.y.z']);
    expect(texts(a.recursiveDifference(b))).toEqual(['.other']);
  });

  it('is empty when only empty subtrees remain, and compares by content', () => {
    const a = FieldSet.of(p('a', 'b'));
    expect(a.difference(FieldSet.of(p('a', 'b'))).empty).toBe(true);
    expect(new FieldSet().empty).toBe(true);
    expect(FieldSet.of(p('x'), p('y', 'z')).equals(FieldSet.of(p('y', 'z'), p('x')))).toBe(true);
    expect(FieldSet.of(p('x')).equals(FieldSet.of(p('x', 'y')))).toBe(false);
    expect(texts(a.withPrefix(pe.field('a')))).toEqual(['.b']);
    expect(a.withPrefix(pe.field('none')).empty).toBe(true);
  });
});
