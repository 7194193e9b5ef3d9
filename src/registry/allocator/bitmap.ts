/** A fixed-size bitmap of taken offsets; the stored form of an allocator (Kubernetes' RangeAllocation data). */
export class Bitmap {
  private constructor(
    readonly size: number,
    private readonly bytes: Uint8Array,
  ) {}

  static empty(size: number): Bitmap {
    return new Bitmap(size, new Uint8Array(Math.ceil(size / 8)));
  }

  /** Reads the base64 form; undefined when it does not fit a bitmap of this size. */
  static fromBase64(size: number, data: string): Bitmap | undefined {
    const bytes = new Uint8Array(Buffer.from(data, 'base64'));
    return bytes.length === Math.ceil(size / 8) ? new Bitmap(size, bytes) : undefined;
  }

  toBase64(): string {
    return Buffer.from(this.bytes).toString('base64');
  }

  clone(): Bitmap {
    return new Bitmap(this.size, this.bytes.slice());
  }

  equals(other: Bitmap): boolean {
    return this.size === other.size && Buffer.from(this.bytes).equals(Buffer.from(other.bytes));
  }

  has(offset: number): boolean {
    return ((this.bytes[offset >> 3] ?? 0) & (1 << (offset & 7))) !== 0;
  }

  set(offset: number): void {
    this.bytes[offset >> 3] = (this.bytes[offset >> 3] ?? 0) | (1 << (offset & 7));
  }

  clear(offset: number): void {
    this.bytes[offset >> 3] = (this.bytes[offset >> 3] ?? 0) & ~(1 << (offset & 7));
  }

  count(): number {
    let n = 0;
    for (let i = 0; i < this.size; i++) if (this.has(i)) n++;
    return n;
  }

  /**
   * A free offset in [from, to), scanning from a random point and wrapping, so that servers
   * allocating at once rarely reach for the same value; undefined when the band is full.
   */
  findFree(from: number, to: number, random: () => number): number | undefined {
    const width = to - from;
    if (width <= 0) return undefined;
    const start = Math.floor(random() * width);
    for (let i = 0; i < width; i++) {
      const offset = from + ((start + i) % width);
      if (!this.has(offset)) return offset;
    }
    return undefined;
  }
}
