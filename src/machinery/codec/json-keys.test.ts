import { describe, expect, it } from 'vitest';
import { findDuplicateKeys, formatPath, keyPositions } from './json-keys.js';
import { yamlDuplicateKeysError } from './yaml-keys.js';

const dups = (text: string): string[] => findDuplicateKeys(text).map((d) => formatPath([...d.container, d.key]));

describe('JSON repeated keys', () => {
  it('finds every repeat with its path, in document order', () => {
    const text = '{"a":1,"b":{"c":[{"d":1,"d":2},{"e":{"f":1,"f":2,"f":3}}]},"a":2, "x": [[{"y":1, "y":2}]]}';
    expect(dups(text)).toEqual(['b.c[0].d', 'b.c[1].e.f', 'b.c[1].e.f', 'a', 'x[0][0].y']);
  });

  it('compares keys after unescaping, and ignores look-alikes in strings', () => {
    expect(dups('{"ab":1,"a\\u0062":2}')).toEqual(['ab']);
    expect(dups('{"a":"{\\"a\\":1,\\"a\\":2}","b":"]}"}')).toEqual([]);
  });

  it('handles empty containers, scalars and whitespace', () => {
    expect(dups(' { "a" : { } , "b" : [ ] , "c" : [ 1 , true , null , "s" ] , "a" : 0 } ')).toEqual(['a']);
    expect(dups('[]')).toEqual([]);
    expect(dups('"text"')).toEqual([]);
    expect(dups('[{"op":"add","op":"remove"}]')).toEqual(['[0].op']);
  });

  it('walks deep nesting without recursion', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(dups(deep)).toEqual([]);
  });

  it('gives the first position of wanted paths', () => {
    const pos = keyPositions('{"z":1,"m":{"q":1},"z":2,"a":1}', new Set(['z', 'm.q', 'a']));
    expect([...pos.entries()]).toEqual([
      ['z', 0],
      ['m.q', 2],
      ['a', 4],
    ]);
  });
});

describe('YAML repeated keys', () => {
  it('reports each repeat with its line, as Kubernetes strict YAML decoding does', () => {
    const text = ['a: 1', 'b:', '  c: 2', '  c: 3', 'a: 4', 'l:', '- x: 1', '  x: 2', '1: one', '"1": two'].join('\n');
    expect(yamlDuplicateKeysError(text)).toBe('yaml: unmarshal errors:\n  line 4: key "c" already set in map\n  line 5: key "a" already set in map\n  line 8: key "x" already set in map');
  });

  it('is silent for unique keys', () => {
    expect(yamlDuplicateKeysError('a: 1\nb: {c: 1}\n')).toBeUndefined();
  });
});
