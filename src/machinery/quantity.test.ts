import { describe, expect, it } from 'vitest';
import { canonicalQuantity, compareQuantities, isWholeQuantity, parseQuantity, QUANTITY_FORMAT_ERROR, QUANTITY_SUFFIX_ERROR, quantitySign } from './quantity.js';

describe('quantities', () => {
  it.each([
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1536Mi', '1536Mi'],
    ['0.5Gi', '512Mi'],
    ['1.5Ki', '1536'],
    ['512Ki', '512Ki'],
    ['1000', '1k'],
    ['1500', '1500'],
    ['1000m', '1'],
    ['0.5', '500m'],
    ['100m', '100m'],
    ['1e3', '1e3'],
    ['12e4', '120e3'],
    ['1.5e0', '1500e-3'],
    ['0', '0'],
    ['-0', '0'],
    ['0Gi', '0'],
    ['-1Gi', '-1Gi'],
    ['+2', '2'],
    ['0.1n', '1n'],
    ['1E', '1E'],
    ['.5', '500m'],
    ['5.', '5'],
  ])('%s prints as %s', (input, canonical) => {
    expect(canonicalQuantity(input)).toBe(canonical);
  });

  it.each([['', QUANTITY_FORMAT_ERROR], ['abc', QUANTITY_FORMAT_ERROR], ['1 Gi', QUANTITY_FORMAT_ERROR], ['1Gb', QUANTITY_FORMAT_ERROR], ['1Kii', QUANTITY_SUFFIX_ERROR], ['1ee3', QUANTITY_SUFFIX_ERROR], ['.', QUANTITY_FORMAT_ERROR]])(
    '%j is refused',
    (input, message) => {
      expect(() => parseQuantity(input)).toThrow(message);
    },
  );

  it('compares exactly across formats', () => {
    expect(compareQuantities(parseQuantity('1Gi'), parseQuantity('1073741824'))).toBe(0);
    expect(compareQuantities(parseQuantity('1G'), parseQuantity('1Gi'))).toBe(-1);
    expect(compareQuantities(parseQuantity('2Gi'), parseQuantity('2000Mi'))).toBe(1);
    expect(quantitySign(parseQuantity('-1m'))).toBe(-1);
    expect(quantitySign(parseQuantity('0Ki'))).toBe(0);
    expect(isWholeQuantity(parseQuantity('1500m'))).toBe(false);
    expect(isWholeQuantity(parseQuantity('2000m'))).toBe(true);
  });
});
