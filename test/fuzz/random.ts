/**
 * A seeded pseudo-random source (sfc32), so a fuzz run is replayed exactly from its seed: the same seed
 * against a fresh server produces the same requests in the same order.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: number) {
    // Spread the one seed over four words, then let the generator settle.
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  /** Picks by weight: `[[3, 'a'], [1, 'b']]` gives 'a' three times as often as 'b'. */
  weighted<T>(entries: readonly (readonly [number, T])[]): T {
    const total = entries.reduce((s, [w]) => s + w, 0);
    let x = this.next() * total;
    for (const [w, v] of entries) {
      x -= w;
      if (x < 0) return v;
    }
    return (entries[entries.length - 1] as readonly [number, T])[1];
  }

  /** A string of `length` characters drawn from `alphabet`. */
  string(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let s = '';
    for (let i = 0; i < length; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }

  bytes(length: number): Buffer {
    const b = Buffer.alloc(length);
    for (let i = 0; i < length; i++) b[i] = this.int(256);
    return b;
  }
}
