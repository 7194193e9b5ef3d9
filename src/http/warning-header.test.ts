import { describe, expect, it } from 'vitest';
import { warningHeaderValues } from './warning-header.js';

/** What a client reads: the header's bytes as UTF-8. */
const asSent = (values: string[]): string[] => values.map((v) => Buffer.from(v, 'latin1').toString('utf8'));

describe('warningHeaderValues', () => {
  it('formats 299 warnings, escaping quotes and backslashes', () => {
    expect(warningHeaderValues(['unknown field "spec.x"', 'a\\b'])).toEqual(['299 - "unknown field \\"spec.x\\""', '299 - "a\\\\b"']);
  });

  it('sends non-ASCII text as its UTF-8 bytes, which Node can always write', () => {
    const values = warningHeaderValues(['unknown field "€"', 'ünïcödé 字']);
    for (const v of values) expect(v).toMatch(/^[\t\x20-\x7e\x80-\xff]*$/);
    expect(asSent(values)).toEqual(['299 - "unknown field \\"€\\""', '299 - "ünïcödé 字"']);
  });

  it('drops empty texts, texts with control characters and malformed text; deduplicates', () => {
    expect(warningHeaderValues(['', 'a\nb', 'tab\there', 'del\x7f', 'c1\u0085', 'lone \ud800', 'ok', 'ok'])).toEqual(['299 - "ok"']);
  });

  it('keeps everything up to 4096 characters in total', () => {
    const texts = Array.from({ length: 16 }, (_, i) => `${i}`.padEnd(256, 'x'));
    expect(warningHeaderValues(texts).map((v) => v.length)).toEqual(texts.map((t) => t.length + 8));
  });

  it('past 4096 characters, cuts every text to 256 and stops once the cut ones fill the budget', () => {
    const texts = Array.from({ length: 40 }, (_, i) => `${i}:`.padEnd(300, 'y'));
    const values = warningHeaderValues(texts);
    // 256 per text: the 16th fills 4096, so 16 are sent.
    expect(values).toHaveLength(16);
    for (const [i, v] of values.entries()) expect(v).toBe(`299 - "${texts[i]?.slice(0, 256)}"`);
  });

  it('cuts on character boundaries, not inside a multi-byte character', () => {
    const values = warningHeaderValues(['€'.repeat(5000)]);
    expect(asSent(values)).toEqual([`299 - "${'€'.repeat(256)}"`]);
  });
});
