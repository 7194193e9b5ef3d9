import { describe, expect, it } from 'vitest';
import { everythingSelector, labelSelectorFromStructured, parseLabelSelector, SelectorParseError } from './labels.js';

const L = { app: 'web', tier: 'front', env: 'prod', replicas: '3', 'example.com/role': 'db', empty: '' };

describe('parseLabelSelector: matching', () => {
  const cases: [string, Record<string, string> | undefined, boolean][] = [
    ['', L, true],
    ['   ', L, true],
    ['', undefined, true],
    ['app=web', L, true],
    ['app==web', L, true],
    ['app=api', L, false],
    ['app!=api', L, true],
    ['app!=web', L, false],
    ['missing!=x', L, true], // != matches objects without the key
    ['missing=x', L, false],
    ['app in (web,api)', L, true],
    ['app in (api)', L, false],
    ['missing in (a)', L, false],
    ['app notin (api,db)', L, true],
    ['app notin (web)', L, false],
    ['missing notin (a)', L, true],
    ['app', L, true],
    ['missing', L, false],
    ['!missing', L, true],
    ['!app', L, false],
    ['replicas>2', L, true],
    ['replicas>3', L, false],
    ['replicas<4', L, true],
    ['replicas<3', L, false],
    ['app>2', L, false], // a non-integer label never matches > or <
    ['missing>0', L, false],
    ['example.com/role=db', L, true],
    ['empty=', L, true],
    ['empty==', L, true],
    ['app=', L, false],
    ['empty in ()', L, true],
    ['empty in (,x)', L, true],
    ['app=web,tier=front', L, true],
    ['app=web,tier=back', L, false],
    ['app = web , tier in ( front , back ) , !missing , env', L, true],
    ['\tapp\n=\rweb', L, true],
    ['! missing', L, true],
    ['app=web', undefined, false],
    ['!app', undefined, true],
    ['app!=web', undefined, true],
    ['app notin (web)', undefined, true],
  ];
  it.each(cases)('%j on %j → %s', (sel, labels, want) => {
    expect(parseLabelSelector(sel).matches(labels)).toBe(want);
  });

  it('compares > and < as 64-bit integers, not floating point', () => {
    expect(parseLabelSelector('n>9007199254740992').matches({ n: '9007199254740993' })).toBe(true);
    expect(parseLabelSelector('n<10').matches({ n: '007' })).toBe(true);
    expect(parseLabelSelector('n>1').matches({ n: '99999999999999999999' })).toBe(false); // beyond int64
  });

  it('deduplicates and sorts set values, and sorts requirements by key', () => {
    const s = parseLabelSelector('z in (b,a,b), a notin (y,x)');
    expect(s.requirements).toEqual([
      { key: 'a', operator: 'notin', values: ['x', 'y'] },
      { key: 'z', operator: 'in', values: ['a', 'b'] },
    ]);
    expect(s.toString()).toBe('a notin (x,y),z in (a,b)');
  });

  it('names every operator in its requirements', () => {
    const ops = parseLabelSelector('a=1,b==1,c!=1,d in (1),e notin (1),f,!g,h>1,i<1').requirements.map((r) => r.operator);
    expect(ops).toEqual(['=', '==', '!=', 'in', 'notin', 'exists', '!', 'gt', 'lt']);
  });

  it('treats the words in and notin as keys where a key is expected', () => {
    expect(parseLabelSelector('in=x').matches({ in: 'x' })).toBe(true);
    expect(parseLabelSelector('notin').matches({ notin: '' })).toBe(true);
  });

  it('reports an empty selector as empty and matching everything', () => {
    expect(parseLabelSelector('').empty).toBe(true);
    expect(everythingSelector.matches(undefined)).toBe(true);
  });
});

describe('parseLabelSelector: errors', () => {
  const cases: [string, RegExp][] = [
    ['app=web,', /expected: identifier after ','/],
    [',app', /found ',', expected: !, identifier, or 'end of string'/],
    ['app=web tier=front', /found 'tier', expected: ',' or 'end of string'/],
    ['app in web', /found 'web', expected: '\('/],
    ['app in (web', /found end of string, expected: ',' or '\)'/],
    ['app in (a b)', /found 'b', expected: ',' or '\)'/],
    ['app in (=)', /found '=', expected: ',', '\)' or identifier/],
    ['app web', /found 'web', expected: '=', '!=', '==', 'in', notin'/],
    ['app=a=b', /found '=', expected: ',' or 'end of string'/],
    ['!app=web', /found '=', expected: ',' or 'end of string'/],
    ['!', /found end of string, expected: !, identifier, or 'end of string'/],
    ['=web', /found '=', expected: !, identifier, or 'end of string'/],
    ['app>', /found end of string, expected: identifier/],
    ['app>x', /values\[0\]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer/],
    ['app<1.5', /for 'Gt', 'Lt' operators, the value must be an integer/],
    ['app>99999999999999999999', /the value must be an integer/],
    ['app>-1', /values\[0\]\[app\]: Invalid value: "-1": a valid label must be an empty string/],
    ['app=-web', /values\[0\]\[app\]: Invalid value: "-web": a valid label must be an empty string/],
    [`app=${'v'.repeat(64)}`, /must be no more than 63 characters/],
    ['app in (ok,bad!)', /found '!', expected: ',' or '\)'/],
    ['app in (ok,-bad)', /values\[0\]\[app\]: Invalid value: "-bad"/],
    ['-app=web', /key: Invalid value: "-app": name part must consist of alphanumeric characters/],
    ['a/b/c=x', /key: Invalid value: "a\/b\/c": a qualified name must consist of/],
    ['/app=x', /prefix part must be non-empty/],
    ['Example.com/app=x', /prefix part a lowercase RFC 1123 subdomain/],
    [`${'k'.repeat(64)}=x`, /name part must be no more than 63 characters/],
    ['a\u00a0b=x', /key: Invalid value: "a\u00a0b"/], // a no-break space is not whitespace here
    ['app=we\u00a0b', /values\[0\]\[app\]: Invalid value/],
  ];
  it.each(cases)('%j is refused with %s', (sel, message) => {
    let err: unknown;
    try {
      parseLabelSelector(sel);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SelectorParseError);
    expect((err as Error).message).toMatch(message);
  });
});

describe('labelSelectorFromStructured', () => {
  it('combines matchLabels and matchExpressions', () => {
    const s = labelSelectorFromStructured({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['front', 'back'] },
        { key: 'env', operator: 'NotIn', values: ['dev'] },
        { key: 'replicas', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    expect(s.matches(L)).toBe(true);
    expect(s.matches({ ...L, legacy: 'yes' })).toBe(false);
    expect(s.matches({ ...L, env: 'dev' })).toBe(false);
  });

  it('matches everything when empty or absent', () => {
    expect(labelSelectorFromStructured(undefined).matches(undefined)).toBe(true);
    expect(labelSelectorFromStructured({}).empty).toBe(true);
  });
});
