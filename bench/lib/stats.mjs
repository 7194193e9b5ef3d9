/** Small statistics and table helpers of the benchmark (plain JS: the bench has no build step). */

/** Median of a list of numbers (mean of the middle two for an even count); NaN when empty. */
export function median(values) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The p-th percentile (0..100) by the nearest-rank method; NaN when empty. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const s = Float64Array.from(values).sort();
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
}

/** Median, min and max of the rounds of one figure. */
export function summarize(values) {
  return {
    median: median(values),
    min: values.length ? Math.min(...values) : NaN,
    max: values.length ? Math.max(...values) : NaN,
    rounds: values.length,
  };
}

/** A figure for humans: three significant digits, thousands grouped, '-' for missing. */
export function formatNumber(n) {
  if (n === undefined || n === null || !Number.isFinite(n)) return '-';
  const abs = Math.abs(n);
  if (abs >= 1000) return Math.round(n).toLocaleString('en-US');
  if (abs >= 100) return n.toFixed(0);
  if (abs >= 10) return n.toFixed(1);
  if (abs >= 1) return n.toFixed(2);
  if (abs === 0) return '0';
  return n.toPrecision(2);
}

/** `0.42×`; '-' when either side is missing. */
export function formatRatio(value, baseline) {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return '-';
  return `${formatNumber(value / baseline)}×`;
}

/**
 * An aligned markdown table. columns: [{ title, align: 'left' | 'right' }]; rows: arrays of strings.
 * Every line has the same width, so it reads well both raw and rendered.
 */
export function formatTable(columns, rows) {
  const widths = columns.map((c, i) => Math.max(c.title.length, 3, ...rows.map((r) => String(r[i] ?? '').length)));
  const pad = (text, i) => {
    const s = String(text ?? '');
    return columns[i].align === 'right' ? s.padStart(widths[i]) : s.padEnd(widths[i]);
  };
  const line = (cells) => `| ${cells.map(pad).join(' | ')} |`;
  const rule = `|${columns.map((c, i) => (c.align === 'right' ? `${'-'.repeat(widths[i] + 1)}:` : `:${'-'.repeat(widths[i] + 1)}`)).join('|')}|`;
  return [line(columns.map((c) => c.title)), rule, ...rows.map(line)].join('\n');
}
