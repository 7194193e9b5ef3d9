/**
 * Odd values the generators draw from: names, strings, numbers and nested structures that sit on or
 * past the edges of what the API accepts.
 */
import type { Random } from './random.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type { Json };

/** Names a client might put in a path or in metadata.name: valid ones most of the time. */
export function oddName(r: Random): string {
  return r.weighted<() => string>([
    [6, () => `f-${r.int(40)}`],
    [1, () => r.pick(['.', '..', '...', '-', 'a.', '.a', 'A', 'UPPER', 'a_b', 'a b', 'a/b', 'a%b', '', ' ', 'default', 'kube-system', 'status', 'watch'])],
    [1, () => 'n' + r.string(r.pick([62, 63, 64, 252, 253, 254, 300]))],
    [1, () => r.pick(['é', 'naïve', 'ÿÿ', 'a\u00a0b', '€', '名前', '😀', 'a\u0000b', 'a\u007fb', 'a\tb'])],
    [1, () => r.string(r.range(1, 20), 'abcXYZ019-._~:@!$&\'()*+,;=')],
  ])();
}

/** A field name no schema knows, including names outside ASCII and Latin-1. */
export function unknownFieldName(r: Random): string {
  return r.pick([
    'unknownField',
    'x',
    '',
    ' ',
    '€',
    'Ā',
    '名前',
    '😀',
    'é',
    '\u0000',
    '\u0007bell',
    '\r\nInjected: header',
    'a"b',
    'a\\b',
    '$patch',
    '$retainKeys',
    '__proto__',
    'constructor',
    'prototype',
    'apiVersion ',
    'METADATA',
    'k'.repeat(r.pick([100, 1000, 10_000])),
    '\ud800',
  ]);
}

export function oddString(r: Random): string {
  return r.weighted<() => string>([
    [4, () => r.string(r.range(0, 12))],
    [1, () => ''],
    [1, () => 'x'.repeat(r.pick([253, 254, 1024, 63 * 1024, 256 * 1024]))],
    [1, () => r.pick(['€uro', '😀', '\u0000', '\ud800', '\u202etxt', 'a\nb', '\t', '${x}', '%s%n', '<script>', "'; DROP TABLE", '../../etc/passwd'])],
    [1, () => r.pick(['1', '-1', '0x10', '1e3', 'true', 'null', '1Gi', '1.5', '9'.repeat(40), 'NaN', 'Infinity'])],
  ])();
}

export function oddNumber(r: Random): number {
  return r.pick([0, -0, 1, -1, 0.5, -2.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 53 + 2, 2 ** 63, 2 ** 64, -(2 ** 63), 1e308, -1e308, 5e-324, 1e21, 123456789.123]);
}

/** A number written out as text, for places where JSON.stringify would lose it (huge or odd forms). */
export function oddNumberText(r: Random): string {
  return r.pick(['1e999', '-1e999', '9'.repeat(400), '18446744073709551616', '9223372036854775808', '-9223372036854775809', '1.0', '1e2', '0.1e-400', '-0', '00', '01', '1.', '.5', '+1', '0x1F', 'NaN', 'Infinity']);
}

export function oddScalar(r: Random): Json {
  return r.weighted<() => Json>([
    [2, () => oddString(r)],
    [2, () => oddNumber(r)],
    [1, () => r.chance(0.5)],
    [1, () => null],
    [1, () => []],
    [1, () => ({})],
  ])();
}

/** `depth` levels of arrays or objects around a leaf. Built iteratively: the depth may be huge. */
export function deepValue(r: Random, depth: number): Json {
  const asArray = r.chance(0.5);
  const key = r.pick(['a', 'spec', 'metadata', 'labels', '$patch']);
  let v: Json = r.chance(0.5) ? 'leaf' : null;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { [key]: v };
  return v;
}

/** JSON text nested `depth` levels deep, without building the value (JSON.stringify would recurse). */
export function deepJsonText(r: Random, depth: number): string {
  if (r.chance(0.5)) return '['.repeat(depth) + '1' + ']'.repeat(depth);
  return '{"a":'.repeat(depth) + 'null' + '}'.repeat(depth);
}

export function wideObject(r: Random, keys: number): { [k: string]: Json } {
  const o: { [k: string]: Json } = {};
  for (let i = 0; i < keys; i++) o[`k${i}-${r.string(3)}`] = r.string(4);
  return o;
}

export function depthFor(r: Random): number {
  return r.pick([30, 64, 99, 100, 101, 500, 1000, 5000, 10_000, 20_000]);
}
