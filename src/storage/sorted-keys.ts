/** A sorted array of distinct strings with binary search; the key index of the in-memory stores. */
export class SortedKeys {
  private keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** Index of the first key >= k. */
  lowerBound(k: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as string) < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(k: string): void {
    const i = this.lowerBound(k);
    if (this.keys[i] !== k) this.keys.splice(i, 0, k);
  }

  remove(k: string): void {
    const i = this.lowerBound(k);
    if (this.keys[i] === k) this.keys.splice(i, 1);
  }

  at(i: number): string | undefined {
    return this.keys[i];
  }

  /** Keeps only the keys for which `keep` is true, in one pass. */
  retain(keep: (k: string) => boolean): void {
    this.keys = this.keys.filter(keep);
  }
}
