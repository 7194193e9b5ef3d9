import { describe, expect, it } from 'vitest';
import { humanAge, humanDuration } from './duration.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;
const y = 365 * d;

describe('humanDuration (Kubernetes HumanDuration)', () => {
  it.each([
    [-2 * s, '<invalid>'],
    [-1999, '0s'],
    [-1 * s, '0s'],
    [-500, '0s'],
    [0, '0s'],
    [999, '0s'],
    [5 * s, '5s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [3 * m + 2 * s, '3m2s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m, '10m'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [5 * h + 3 * m, '5h3m'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h, '8h'],
    [47 * h + 59 * m, '47h'],
    [2 * d, '2d'],
    [2 * d + 3 * h, '2d3h'],
    [7 * d + 23 * h, '7d23h'],
    [8 * d, '8d'],
    [400 * d, '400d'],
    [2 * y - d, '729d'],
    [2 * y, '2y'],
    [3 * y + 12 * d, '3y12d'],
    [8 * y, '8y'],
    [20 * y + 100 * d, '20y'],
  ])('%d ms → %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});

describe('humanAge', () => {
  const now = new Date('2024-01-10T12:00:00Z');
  it('measures from the timestamp to now', () => {
    expect(humanAge('2024-01-10T11:57:00Z', now)).toBe('3m');
    expect(humanAge('2024-01-08T09:00:00Z', now)).toBe('2d3h');
  });
  it('says <unknown> without a timestamp and <invalid> for one in the future', () => {
    expect(humanAge(undefined, now)).toBe('<unknown>');
    expect(humanAge(null, now)).toBe('<unknown>');
    expect(humanAge('', now)).toBe('<unknown>');
    expect(humanAge('2024-01-10T12:00:05Z', now)).toBe('<invalid>');
  });
});
