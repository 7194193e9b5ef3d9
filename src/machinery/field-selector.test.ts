import { describe, expect, it } from 'vitest';
import { escapeFieldValue, FieldSelectorParseError, parseFieldSelector, unescapeFieldValue } from './field-selector.js';

const F = { 'metadata.name': 'web', 'metadata.namespace': 'prod', 'status.phase': 'Active', odd: 'a,b=c\\d' };

describe('parseFieldSelector: parsing', () => {
  const cases: [string, { field: string; operator: '=' | '!='; value: string }[]][] = [
    ['', []],
    ['metadata.name=web', [{ field: 'metadata.name', operator: '=', value: 'web' }]],
    ['metadata.name==web', [{ field: 'metadata.name', operator: '=', value: 'web' }]],
    ['metadata.name!=web', [{ field: 'metadata.name', operator: '!=', value: 'web' }]],
    ['metadata.name=', [{ field: 'metadata.name', operator: '=', value: '' }]],
    [
      'a=1,b!=2',
      [
        { field: 'a', operator: '=', value: '1' },
        { field: 'b', operator: '!=', value: '2' },
      ],
    ],
    // Empty terms are skipped, as Kubernetes does.
    ['a=1,,b=2,', [{ field: 'a', operator: '=', value: '1' }, { field: 'b', operator: '=', value: '2' }]],
    // Escapes in values.
    ['odd=a\\,b\\=c\\\\d', [{ field: 'odd', operator: '=', value: 'a,b=c\\d' }]],
    // The first operator position wins; `!` before it belongs to the field.
    ['a!b=c', [{ field: 'a!b', operator: '=', value: 'c' }]],
    ['a=!b', [{ field: 'a', operator: '=', value: '!b' }]],
    // No trimming: spaces are part of the field and value.
    [' a = b', [{ field: ' a ', operator: '=', value: ' b' }]],
    // An operator at the very start leaves an empty field (the caller then refuses the field).
    ['=x', [{ field: '', operator: '=', value: 'x' }]],
  ];
  it.each(cases)('%j', (input, want) => {
    expect(parseFieldSelector(input).requirements).toEqual(want);
  });

  it('reports emptiness', () => {
    expect(parseFieldSelector('').empty).toBe(true);
    expect(parseFieldSelector(',').empty).toBe(true);
    expect(parseFieldSelector('a=b').empty).toBe(false);
  });
});

describe('parseFieldSelector: matching', () => {
  const cases: [string, boolean][] = [
    ['metadata.name=web', true],
    ['metadata.name==web', true],
    ['metadata.name=api', false],
    ['metadata.name!=api', true],
    ['metadata.name!=web', false],
    ['metadata.name=web,metadata.namespace=prod', true],
    ['metadata.name=web,metadata.namespace=dev', false],
    ['odd=a\\,b\\=c\\\\d', true],
    ['unknown=', true], // an absent field reads as the empty string
    ['unknown!=', false],
  ];
  it.each(cases)('%j → %s', (sel, want) => {
    expect(parseFieldSelector(sel).matches(F)).toBe(want);
  });

  it('gives the value an equality pins a field to', () => {
    const s = parseFieldSelector('metadata.name!=x,metadata.namespace=prod');
    expect(s.exactValue('metadata.namespace')).toBe('prod');
    expect(s.exactValue('metadata.name')).toBeUndefined();
  });
});

describe('parseFieldSelector: errors', () => {
  const cases: [string, string][] = [
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: ='],
    ['a=b!=c', 'invalid field selector: unescaped character in value: ='],
    ['a=b\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
  ];
  it.each(cases)('%j → %s', (sel, message) => {
    expect(() => parseFieldSelector(sel)).toThrow(FieldSelectorParseError);
    expect(() => parseFieldSelector(sel)).toThrow(message);
  });
});

describe('escaping', () => {
  it('round-trips values with special characters through toString', () => {
    for (const v of ['plain', 'a,b', 'a=b', 'back\\slash', '\\,=']) {
      expect(unescapeFieldValue(escapeFieldValue(v))).toBe(v);
      const s = parseFieldSelector(`x=${escapeFieldValue(v)},y!=${escapeFieldValue(v)}`);
      expect(parseFieldSelector(s.toString()).requirements).toEqual(s.requirements);
    }
  });
});
