import { describe, expect, it } from 'vitest';
import { cidrContains, formatCIDR, formatIP, parseCIDR, parseIP, specialIPProblems } from './ip.js';

describe('parseIP and formatIP', () => {
  it.each([
    ['10.0.0.1', 'IPv4', '10.0.0.1'],
    ['::1', 'IPv6', '::1'],
    ['::', 'IPv6', '::'],
    ['1::', 'IPv6', '1::'],
    ['2001:DB8:0:0:1:0:0:1', 'IPv6', '2001:db8::1:0:0:1'],
    ['2001:db8:0:0:0:0:2:1', 'IPv6', '2001:db8::2:1'],
    ['1:2:3:4:5:6:7:8', 'IPv6', '1:2:3:4:5:6:7:8'],
    ['::1.2.3.4', 'IPv6', '::102:304'],
    ['::ffff:10.1.2.3', 'IPv4', '10.1.2.3'],
  ])('%s is %s, printed %s', (text, family, canonical) => {
    const ip = parseIP(text);
    expect(ip?.family).toBe(family);
    expect(formatIP(ip!)).toBe(canonical);
  });

  it.each(['010.0.0.1', '256.0.0.1', '1.2.3', 'abc', '', '1:2:3:4:5:6:7:8:9', '1::2::3', '12345::', '1:2:3:4:5:6:7::8', 'fe80::1%eth0'])('%s is not an IP', (text) => {
    expect(parseIP(text)).toBeUndefined();
  });
});

describe('parseCIDR', () => {
  it('clears host bits and keeps the family it is written in', () => {
    expect(formatCIDR(parseCIDR('10.0.0.5/24')!)).toBe('10.0.0.0/24');
    expect(formatCIDR(parseCIDR('fd00::7/108')!)).toBe('fd00::/108');
    expect(parseCIDR('10.0.0.0/33')).toBeUndefined();
    expect(parseCIDR('10.0.0.0')).toBeUndefined();
    expect(parseCIDR('10.0.0.0/024')).toBeUndefined();
  });

  it('tells membership', () => {
    const c = parseCIDR('10.0.0.0/24')!;
    expect(cidrContains(c, parseIP('10.0.0.255')!)).toBe(true);
    expect(cidrContains(c, parseIP('10.0.1.0')!)).toBe(false);
    expect(cidrContains(c, parseIP('fd00::1')!)).toBe(false);
  });
});

describe('specialIPProblems', () => {
  it.each([
    ['0.0.0.0', 'may not be unspecified (0.0.0.0)'],
    ['127.0.0.1', 'may not be in the loopback range (127.0.0.0/8, ::1/128)'],
    ['::1', 'may not be in the loopback range (127.0.0.0/8, ::1/128)'],
    ['169.254.1.1', 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'],
    ['fe80::1', 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'],
    ['224.0.0.5', 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'],
    ['ff02::1', 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'],
  ])('%s', (ip, problem) => {
    expect(specialIPProblems(ip)).toEqual([problem]);
  });

  it('accepts ordinary addresses', () => {
    expect(specialIPProblems('10.1.2.3')).toEqual([]);
    expect(specialIPProblems('2001:db8::1')).toEqual([]);
  });
});
