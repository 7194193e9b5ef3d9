import { describe, expect, it } from 'vitest';
import { dealHand, hashFlow } from './shuffle-sharding.js';

describe('shuffle sharding', () => {
  it('deals distinct cards within the deck, the same for the same hash', () => {
    for (let i = 0; i < 500; i++) {
      const hash = hashFlow('fs', `user-${i}`);
      const hand = dealHand(hash, 64, 8);
      expect(new Set(hand).size).toBe(8);
      expect(hand.every((c) => c >= 0 && c < 64)).toBe(true);
      expect(dealHand(hash, 64, 8)).toEqual(hand);
    }
  });

  it('deals the mixed-radix digits of the hash, each lifted past the earlier ones', () => {
    // 7 = 3 + 4*1: digit 3 of 4, then 1 of 3 (lifted past nothing below it), then 0 of 2.
    expect(dealHand(7n, 4, 3)).toEqual([3, 1, 0]);
    // Every hand of 2 from a deck of 3 appears for hashes 0..5, each exactly once.
    const hands = [0n, 1n, 2n, 3n, 4n, 5n].map((h) => dealHand(h, 3, 2).join(','));
    expect(new Set(hands).size).toBe(6);
    expect(hands.every((h) => h.split(',')[0] !== h.split(',')[1])).toBe(true);
  });

  it('hashes schema and distinguisher apart (NUL-separated)', () => {
    expect(hashFlow('ab', 'c')).not.toBe(hashFlow('a', 'bc'));
    expect(hashFlow('fs', 'x')).toBe(hashFlow('fs', 'x'));
  });

  it('spreads flows over the queues', () => {
    const counts = new Array<number>(16).fill(0);
    for (let i = 0; i < 1600; i++) {
      const card = dealHand(hashFlow('fs', `u${i}`), 16, 1)[0] as number;
      counts[card] = (counts[card] ?? 0) + 1;
    }
    expect(Math.min(...counts)).toBeGreaterThan(50);
  });

  it('refuses a hand larger than the deck', () => {
    expect(() => dealHand(1n, 2, 3)).toThrow(RangeError);
  });
});
