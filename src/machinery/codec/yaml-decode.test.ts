import { describe, expect, it } from 'vitest';
import { decodeYaml, YamlDecodeError } from './yaml-decode.js';

function refusal(text: string): string {
  try {
    decodeYaml(text);
  } catch (e) {
    if (e instanceof YamlDecodeError) return e.message;
    throw e;
  }
  throw new Error('decoded');
}

describe('decodeYaml', () => {
  it('decodes ordinary documents, aliases included, keeping the last of repeated keys', () => {
    expect(decodeYaml('a: &x [1, 2]\nb: *x\nc: 1\nc: 2\n')).toEqual({ a: [1, 2], b: [1, 2], c: 2 });
    expect(decodeYaml('a: &x 1\nb: [&x 2, *x]\n')).toEqual({ a: 1, b: [2, 2] });
  });

  it.each([
    ['a: &a [*a]\n', 'a'],
    ['- &top\n  - x: *top\n', 'top'],
    ['&m {k: [1, {j: *m}]}\n', 'm'],
  ])('refuses a recursive alias: %j', (text, anchor) => {
    expect(refusal(text)).toBe(`anchor '${anchor}' value contains itself`);
  });

  it('refuses alias bombs', () => {
    const lol = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (const [prev, name] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f']]) lol.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    expect(refusal(`${lol.join('\n')}\n`)).toMatch(/Excessive alias count/);
  });

  it('refuses nesting past the limit before composing (10,000 flow levels used to end the process)', () => {
    expect(refusal(`x: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`)).toBe('exceeded max depth of 500');
  });

  it('refuses aliases that nest deeper than the text shows', () => {
    const levels = ['a: &l0 ' + '['.repeat(300) + ']'.repeat(300), 'b: &l1 ' + '['.repeat(250) + '*l0' + ']'.repeat(250)];
    expect(refusal(`${levels.join('\n')}\n`)).toBe('exceeded max depth of 500');
  });

  it('passes syntax errors on', () => {
    expect(refusal('a: [1, 2\n')).toMatch(/flow sequence|Expected|Missing/i);
  });
});
