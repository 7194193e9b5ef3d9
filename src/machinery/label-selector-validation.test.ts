import { describe, expect, it } from 'vitest';
import { FieldPath, fieldErrorText } from './field-errors.js';
import { hasInvalidLabelValueInSelector, isConvertibleLabelSelector, validateLabelSelector } from './label-selector-validation.js';

const texts = (sel: Parameters<typeof validateLabelSelector>[0], opts = {}): string[] =>
  validateLabelSelector(sel, FieldPath.root('spec').child('selector'), opts).map(fieldErrorText);

describe('validateLabelSelector', () => {
  it('accepts an absent, empty or valid selector', () => {
    expect(texts(undefined)).toEqual([]);
    expect(texts({})).toEqual([]);
    expect(texts({ matchLabels: { app: 'web', 'example.com/tier': '' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['a', 'b'] }, { key: 'x', operator: 'DoesNotExist' }] })).toEqual([]);
  });

  it('names the matchLabels map for bad keys and values', () => {
    const errs = texts({ matchLabels: { 'bad key': 'v', ok: 'bad value' } });
    expect(errs).toHaveLength(2);
    expect(errs[0]).toMatch(/^spec\.selector\.matchLabels: Invalid value: "bad key": name part must consist of/);
    expect(errs[1]).toMatch(/^spec\.selector\.matchLabels: Invalid value: "bad value": a valid label must be/);
  });

  it('checks operators against their values', () => {
    expect(texts({ matchExpressions: [{ key: 'a', operator: 'In' }] })).toEqual(["spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"]);
    expect(texts({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] })).toEqual([
      "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ]);
    expect(texts({ matchExpressions: [{ key: 'a', operator: 'Equals', values: ['x'] }] })).toEqual(['spec.selector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator']);
  });

  it('checks keys and values, and tolerates invalid values when asked', () => {
    const sel = { matchExpressions: [{ key: 'a', operator: 'In', values: ['ok', 'not ok'] }] };
    expect(texts(sel)).toEqual([expect.stringMatching(/^spec\.selector\.matchExpressions\[0\]\.values\[1\]: Invalid value: "not ok": /)]);
    expect(texts(sel, { allowInvalidLabelValueInSelector: true })).toEqual([]);
    expect(hasInvalidLabelValueInSelector(sel)).toBe(true);
    expect(hasInvalidLabelValueInSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: ['ok'] }] })).toBe(false);
    expect(texts({ matchExpressions: [{ key: '-a', operator: 'Exists' }] })).toEqual([expect.stringMatching(/^spec\.selector\.matchExpressions\[0\]\.key: Invalid value: "-a": /)]);
  });

  it('knows which selectors convert to a matcher', () => {
    expect(isConvertibleLabelSelector({ matchLabels: { a: 'b' }, matchExpressions: [{ key: 'c', operator: 'NotIn', values: ['d'] }] })).toBe(true);
    expect(isConvertibleLabelSelector({ matchExpressions: [{ key: 'c', operator: 'Bogus' }] })).toBe(false);
    expect(isConvertibleLabelSelector({ matchExpressions: [{ key: 'c', operator: 'In', values: ['bad value'] }] })).toBe(false);
    expect(isConvertibleLabelSelector({ matchLabels: { 'a b': 'c' } })).toBe(false);
  });
});
