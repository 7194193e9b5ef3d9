import { describe, expect, it } from 'vitest';
import {
  canonicalQuantity,
  compareQuantities,
  formatQuantity,
  isWholeQuantity,
  parseQuantity,
  QUANTITY_FORMAT_MESSAGE,
  QUANTITY_SUFFIX_MESSAGE,
  quantitySign,
  roundUpQuantity,
  wholeValue,
} from './quantity.js';

describe('quantities', () => {
  it.each([
    ['0', '0'],
    ['-0', '0'],
    ['0Gi', '0'],
    ['1000m', '1'],
    ['0.5', '500m'],
    ['0.1', '100m'],
    ['100m', '100m'],
    ['1000', '1k'],
    ['1500', '1500'],
    ['1.5k', '1500'],
    ['2000k', '2M'],
    ['100n', '100n'],
    ['0.1n', '1n'],
    ['0.0000000001', '1n'],
    ['1Gi', '1Gi'],
    ['1.5Gi', '1536Mi'],
    ['1024Mi', '1Gi'],
    ['1536Mi', '1536Mi'],
    ['0.5Gi', '512Mi'],
    ['512Ki', '512Ki'],
    ['1.5Ki', '1536'],
    ['0.5Ki', '512'],
    ['0.0001Ki', '102400u'],
    ['1.0001Ki', '1024102400u'],
    ['-1Gi', '-1Gi'],
    ['1e3', '1e3'],
    ['1000e0', '1e3'],
    ['12e4', '120e3'],
    ['12e-1', '1200e-3'],
    ['1.5e0', '1500e-3'],
    ['1E', '1E'],
    ['+5', '5'],
    ['-1', '-1'],
    ['.5', '500m'],
    ['5.', '5'],
    [' 2Gi ', '2Gi'],
  ])('%s prints as %s', (input, canonical) => {
    expect(canonicalQuantity(input)).toBe(canonical);
  });

  it.each([
    ['', QUANTITY_FORMAT_MESSAGE],
    ['abc', QUANTITY_FORMAT_MESSAGE],
    ['1x', QUANTITY_FORMAT_MESSAGE],
    ['1 Gi', QUANTITY_FORMAT_MESSAGE],
    ['1Gb', QUANTITY_FORMAT_MESSAGE],
    ['1.2.3', QUANTITY_FORMAT_MESSAGE],
    ['--1', QUANTITY_FORMAT_MESSAGE],
    ['1Kii', QUANTITY_SUFFIX_MESSAGE],
    ['1ee3', QUANTITY_SUFFIX_MESSAGE],
  ])('refuses %j', (bad, message) => {
    expect(() => parseQuantity(bad)).toThrow(message);
  });

  it('compares exactly across formats', () => {
    expect(compareQuantities(parseQuantity('1Gi'), parseQuantity('1073741824'))).toBe(0);
    expect(compareQuantities(parseQuantity('1G'), parseQuantity('1Gi'))).toBe(-1);
    expect(compareQuantities(parseQuantity('2Gi'), parseQuantity('2000Mi'))).toBe(1);
    expect(compareQuantities(parseQuantity('500m'), parseQuantity('1'))).toBe(-1);
    expect(compareQuantities(parseQuantity('1k'), parseQuantity('999'))).toBe(1);
  });

  it('tells the sign and whether the amount is whole', () => {
    expect(quantitySign(parseQuantity('-1m'))).toBe(-1);
    expect(quantitySign(parseQuantity('0Ki'))).toBe(0);
    expect(isWholeQuantity(parseQuantity('1500m'))).toBe(false);
    expect(isWholeQuantity(parseQuantity('2000m'))).toBe(true);
    expect(isWholeQuantity(parseQuantity('1e3'))).toBe(true);
    expect(isWholeQuantity(parseQuantity('1.0000001'))).toBe(false);
  });

  it('gives the whole value rounded away from zero, as Value() does', () => {
    expect(wholeValue(parseQuantity('1500m'))).toBe(2);
    expect(wholeValue(parseQuantity('-1500m'))).toBe(-2);
    expect(wholeValue(parseQuantity('2k'))).toBe(2000);
    expect(wholeValue(parseQuantity('1Ki'))).toBe(1024);
  });

  it('rounds up to a scale', () => {
    expect(formatQuantity(roundUpQuantity(parseQuantity('0.0001'), -3))).toBe('1m');
    expect(formatQuantity(roundUpQuantity(parseQuantity('-1.0001m'), -3))).toBe('-2m');
  });
});
