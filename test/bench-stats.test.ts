import { describe, expect, it } from 'vitest';
import { formatNumber, formatRatio, formatTable, median, percentile, summarize } from '../bench/lib/stats.mjs';

describe('bench helpers', () => {
  it('takes medians, percentiles and summaries', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(summarize([5, 9, 1])).toEqual({ median: 5, min: 1, max: 9, rounds: 3 });
  });

  it('formats figures and ratios', () => {
    expect(formatNumber(12345.6)).toBe('12,346');
    expect(formatNumber(123.4)).toBe('123');
    expect(formatNumber(12.34)).toBe('12.3');
    expect(formatNumber(1.234)).toBe('1.23');
    expect(formatNumber(0.01234)).toBe('0.012');
    expect(formatNumber(NaN)).toBe('-');
    expect(formatRatio(50, 200)).toBe('0.25×');
    expect(formatRatio(50, 0)).toBe('-');
  });

  it('aligns a markdown table', () => {
    const text = formatTable(
      [{ title: 'measure' }, { title: 'median', align: 'right' }],
      [
        ['GET', '12,000'],
        ['list 10k objects', '5'],
      ],
    );
    const lines = text.split('\n');
    expect(lines).toEqual([
      '| measure          | median |',
      '|:-----------------|-------:|',
      '| GET              | 12,000 |',
      '| list 10k objects |      5 |',
    ]);
  });
});
