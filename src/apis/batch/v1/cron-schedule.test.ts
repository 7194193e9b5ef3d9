import { describe, expect, it } from 'vitest';
import { cronScheduleProblem, goDurationProblem, timeZoneProblem } from './cron-schedule.js';

describe('cronScheduleProblem (robfig/cron ParseStandard)', () => {
  it.each([
    '*/1 * * * *',
    '0 0 * * *',
    '15,45 8-17 * jan-MAR mon-fri',
    '0 12 1/2 * ?',
    '@hourly',
    '@every 1h30m',
    'CRON_TZ=Europe/Berlin 0 3 * * *',
    'TZ=UTC 5 4 * * sun',
  ])('accepts %s', (spec) => {
    expect(cronScheduleProblem(spec)).toBeUndefined();
  });

  it.each([
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['5-2 * * * *', 'beginning of range (5) beyond end of range (2): 5-2'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['1/2/3 * * * *', 'too many slashes: 1/2/3'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['* * * foo *', 'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax'],
    ['@often', 'unrecognized descriptor: @often'],
    ['@every 5x', 'failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['TZ=Mars/Base * * * * *', 'provided bad location Mars/Base: unknown time zone Mars/Base'],
  ])('refuses %j: %s', (spec, message) => {
    expect(cronScheduleProblem(spec)).toBe(message);
  });
});

describe('goDurationProblem and timeZoneProblem', () => {
  it('reads durations as Go does', () => {
    expect(goDurationProblem('1.5h')).toBeUndefined();
    expect(goDurationProblem('-3m20s')).toBeUndefined();
    expect(goDurationProblem('0')).toBeUndefined();
    expect(goDurationProblem('')).toBe('time: invalid duration ""');
    expect(goDurationProblem('h')).toBe('time: invalid duration "h"');
  });

  it('knows IANA zones', () => {
    expect(timeZoneProblem('America/New_York')).toBeUndefined();
    expect(timeZoneProblem('Etc/UTC')).toBeUndefined();
    expect(timeZoneProblem('Nowhere/Special')).toBe('unknown time zone Nowhere/Special');
  });
});
