import { describe, expect, it } from 'vitest';
import { canonicalQuantity, compareQuantities, formatQuantity, parseQuantity, QUANTITY_FORMAT_MESSAGE, roundUpQuantity } from './quantity.js';

describe('quantities', () => {
  it.each([
    ['0', '0'],
    ['-0', '0'],
    ['1000m', '1'],
    ['0.5', '500m'],
    ['0.1', '100m'],
    ['1.5k', '1500'],
    ['2000k', '2M'],
    ['100n', '100n'],
    ['0.0000000001', '1n'],
    ['1.5Gi', '1536Mi'],
    ['1024Mi', '1Gi'],
    ['0.5Ki', '512'],
    ['0.0001Ki', '102400u'],
    ['1.0001Ki', '1024102400u'],
    ['1e3', '1e3'],
    ['1000e0', '1e3'],
    ['12e-1', '1200e-3'],
    ['+5', '5'],
    ['-1', '-1'],
    [' 2Gi ', '2Gi'],
  ])('%s prints as %s', (input, canonical) => {
    expect(canonicalQuantity(input)).toBe(canonical);
  });

  it.each(['abc', '1x', '1Kii', '', '1.2.3', '--1', '1 Gi'])('refuses %j', (bad) => {
    expect(() => parseQuantity(bad)).toThrow();
  });

  it('names the pattern in the format error', () => {
    expect(() => parseQuantity('abc')).toThrow(QUANTITY_FORMAT_MESSAGE);
  });

  it('compares across formats and rounds up to a scale', () => {
    expect(compareQuantities(parseQuantity('1Gi'), parseQuantity('1073741824'))).toBe(0);
    expect(compareQuantities(parseQuantity('500m'), parseQuantity('1'))).toBe(-1);
    expect(compareQuantities(parseQuantity('1k'), parseQuantity('999'))).toBe(1);
    expect(formatQuantity(roundUpQuantity(parseQuantity('0.0001'), -3))).toBe('1m');
    expect(formatQuantity(roundUpQuantity(parseQuantity('-1.0001m'), -3))).toBe('-2m');
  });
});
