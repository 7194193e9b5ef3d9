import { describe, expect, it } from 'vitest';
import { findTooDeep, MAX_NESTING_DEPTH, tooDeepMessage, yamlTooDeep } from './nesting.js';

const objects = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};
const arrays = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = [v];
  return v;
};

describe('findTooDeep', () => {
  it('counts a top-level container as level 1 and allows the limit itself', () => {
    expect(findTooDeep(1)).toBeUndefined();
    expect(findTooDeep(objects(MAX_NESTING_DEPTH))).toBeUndefined();
    expect(findTooDeep(objects(MAX_NESTING_DEPTH + 1))).toEqual({ char: '{' });
    expect(findTooDeep(arrays(MAX_NESTING_DEPTH + 1))).toEqual({ char: '[' });
    expect(findTooDeep(objects(3), 2)).toEqual({ char: '{' });
  });

  it('measures any depth without recursion', () => {
    expect(findTooDeep(objects(200_000))).toEqual({ char: '{' });
  });

  it('reports the bracket of the first level past the limit', () => {
    expect(findTooDeep({ a: [[{ b: 1 }]] }, 3)).toEqual({ char: '{' });
    expect(findTooDeep({ a: [[[1]]] }, 3)).toEqual({ char: '[' });
  });

  it('treats a value that contains itself as too deep', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = [cyclic];
    expect(findTooDeep(cyclic)).toBeDefined();
  });

  it('walks a subtree shared many times once per depth, not once per reference', () => {
    let shared: unknown = 'x';
    for (let i = 0; i < 60; i++) shared = [shared, shared];
    // 2^60 paths, 60 levels: only reachable because shared subtrees are not re-walked.
    expect(findTooDeep(shared)).toBeUndefined();
  });

  it("words the refusal as Go's JSON scanner does", () => {
    expect(tooDeepMessage({ char: '[' })).toBe("invalid character '[' exceeded max depth");
  });
});

describe('yamlTooDeep', () => {
  it.each([
    ['flow', (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)],
    ['flow sequences', (n: number) => '['.repeat(n) + '1' + ']'.repeat(n)],
    ['compact block sequences', (n: number) => '- '.repeat(n) + '1\n'],
    ['block mappings', (n: number) => Array.from({ length: n }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' 1\n'],
  ])('%s: the limit passes, one more does not', (_, make) => {
    expect(yamlTooDeep(make(MAX_NESTING_DEPTH))).toBe(false);
    expect(yamlTooDeep(make(MAX_NESTING_DEPTH + 1))).toBe(true);
  });

  it('takes 100,000 levels without recursion', () => {
    expect(yamlTooDeep('['.repeat(100_000))).toBe(true);
  });
});
