import { describe, expect, it } from 'vitest';
import { DecodeError, decodeObject } from './decode.js';
import { t } from './dsl.js';

const Limits = t.struct('test.v1.Limits', { amounts: t.field(1, t.map(t.quantity())), one: t.field(2, t.quantity()) });

describe('decoding quantities', () => {
  it('stores the canonical form, from strings and JSON numbers', () => {
    const { value } = decodeObject<{ amounts: Record<string, string>; one: string }>(Limits, { amounts: { a: '1024Mi', b: ' 0.5 ', c: 1500 }, one: 2.5 });
    expect(value).toEqual({ amounts: { a: '1Gi', b: '500m', c: '1500' }, one: '2500m' });
  });

  it('refuses what is not a quantity with Kubernetes\' message', () => {
    expect(() => decodeObject(Limits, { one: '12 apples' })).toThrow(DecodeError);
    expect(() => decodeObject(Limits, { one: '12 apples' })).toThrow(/^quantities must match the regular expression/);
    expect(() => decodeObject(Limits, { amounts: { a: '1Kb' } })).toThrow(/regular expression/);
  });
});
