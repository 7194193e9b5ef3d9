import { describe, expect, it } from 'vitest';
import { ExpiringCache } from './cache.js';

describe('ExpiringCache', () => {
  it('forgets an entry when its time is up, keeps nothing for a zero TTL, and drops the oldest when full', () => {
    let now = 0;
    const c = new ExpiringCache<string>(2, () => now);
    c.set('a', 'A', 100);
    c.set('zero', 'Z', 0);
    expect(c.get('a')).toBe('A');
    expect(c.get('zero')).toBeUndefined();
    now = 100;
    expect(c.get('a')).toBeUndefined();
    c.set('b', 'B', 10);
    c.set('c', 'C', 10);
    c.set('d', 'D', 10);
    expect([c.get('b'), c.get('c'), c.get('d')]).toEqual([undefined, 'C', 'D']);
  });
});
