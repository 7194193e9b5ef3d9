import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.js';

describe('parseCsv (Go encoding/csv defaults)', () => {
  it.each<[string, string[][]]>([
    ['a,b,c\n', [['a', 'b', 'c']]],
    ['a,b,c', [['a', 'b', 'c']]],
    ['a,b,c\r\nd,e,f\r\n', [['a', 'b', 'c'], ['d', 'e', 'f']]],
    ['\n\na,b,c\n\n\nd,e,f\n', [['a', 'b', 'c'], ['d', 'e', 'f']]],
    ['# not a comment,b,c\n', [['# not a comment', 'b', 'c']]],
    ['t,u,1,"g1,g2"\n', [['t', 'u', '1', 'g1,g2']]],
    ['"say ""hi""",b\n', [['say "hi"', 'b']]],
    ['"multi\nline",b\n', [['multi\nline', 'b']]],
    [' a , b ,c\n', [[' a ', ' b ', 'c']]],
    ['a,\n', [['a', '']]],
    ['"a",\n', [['a', '']]],
    ['""\n', [['']]],
    ['   \n', [['   ']]],
  ])('%j', (text, expected) => expect(parseCsv(text).map((r) => r.fields)).toEqual(expected));

  it('numbers records by the line they start on', () => {
    expect(parseCsv('\na,b\n"x\ny",z\nc,d\n').map((r) => r.line)).toEqual([2, 3, 5]);
  });

  it.each<[string, string]>([
    ['a,b"c,d\n', 'parse error on line 1, column 4: bare " in non-quoted-field'],
    ['ok,1,2\n"a"b,c\n', 'parse error on line 2, column 4: extraneous or missing " in quoted-field'],
    ['ok,1,2\n"never closed,c\n', 'record on line 2; parse error on line 3, column 1: extraneous or missing " in quoted-field'],
  ])('refuses %j: %s', (text, message) => expect(() => parseCsv(text)).toThrow(message));
});
