/**
 * A small protobuf wire-format writer: varints, fixed 64-bit doubles and length-delimited fields
 * (strings, bytes, nested messages). It writes exactly the fields it is asked to; leaving out proto3
 * default values is the caller's choice. Used for the OpenAPI v2 document and, later, the API's
 * protobuf codec.
 */

/** Wire types of the protobuf encoding. */
export const WireType = { varint: 0, fixed64: 1, lengthDelimited: 2, fixed32: 5 } as const;

const TWO_POW_32 = 2 ** 32;

export class ProtobufWriter {
  private readonly chunks: Buffer[] = [];
  private pending: number[] = [];
  private size = 0;

  /** Bytes written so far. */
  get length(): number {
    return this.size + this.pending.length;
  }

  private flushPending(): void {
    if (this.pending.length === 0) return;
    const b = Buffer.from(this.pending);
    this.chunks.push(b);
    this.size += b.length;
    this.pending = [];
  }

  private raw(bytes: Buffer): void {
    this.flushPending();
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  /**
   * An unsigned varint. Numbers up to 2^53 are exact; negative numbers are written as the 64-bit
   * two's complement (ten bytes), as protobuf does for negative int32 and int64 values.
   */
  varint(value: number | bigint): this {
    if (typeof value === 'number' && value >= 0 && value < TWO_POW_32 && Number.isInteger(value)) {
      // The common case (tags, lengths, small integers) without BigInt.
      let n = value;
      while (n > 0x7f) {
        this.pending.push((n & 0x7f) | 0x80);
        n >>>= 7;
      }
      this.pending.push(n);
      return this;
    }
    let v = typeof value === 'bigint' ? value : BigInt(Math.trunc(value));
    if (v < 0n) v = BigInt.asUintN(64, v);
    if (v < BigInt(TWO_POW_32)) {
      let n = Number(v);
      while (n > 0x7f) {
        this.pending.push((n & 0x7f) | 0x80);
        n >>>= 7;
      }
      this.pending.push(n);
      return this;
    }
    while (v > 0x7fn) {
      this.pending.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.pending.push(Number(v));
    return this;
  }

  /** A field key: the field number and its wire type. */
  tag(field: number, wireType: number): this {
    if (!Number.isInteger(field) || field < 1 || field > 0x1fffffff) throw new RangeError(`invalid protobuf field number ${field}`);
    return this.varint(field * 8 + wireType);
  }

  /** int32, int64, uint32, uint64 and enum fields. */
  int(field: number, value: number | bigint): this {
    return this.tag(field, WireType.varint).varint(value);
  }

  /** sint32 / sint64: zigzag-encoded so that small negative numbers stay short. */
  sint(field: number, value: number | bigint): this {
    const v = BigInt(typeof value === 'bigint' ? value : Math.trunc(value));
    const zigzag = v >= 0n ? v << 1n : ((-v) << 1n) - 1n;
    return this.tag(field, WireType.varint).varint(zigzag);
  }

  bool(field: number, value: boolean): this {
    return this.tag(field, WireType.varint).varint(value ? 1 : 0);
  }

  double(field: number, value: number): this {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    this.tag(field, WireType.fixed64);
    this.raw(b);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, WireType.lengthDelimited).varint(value.length);
    this.raw(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  /** A nested message, written by `write` into a writer of its own, then length-prefixed. */
  message(field: number, write: (w: ProtobufWriter) => void): this {
    const inner = new ProtobufWriter();
    write(inner);
    return this.bytes(field, inner.finish());
  }

  /** Packed repeated varints (proto3's default for repeated scalars). */
  packedVarints(field: number, values: readonly (number | bigint)[]): this {
    const inner = new ProtobufWriter();
    for (const v of values) inner.varint(v);
    return this.bytes(field, inner.finish());
  }

  finish(): Buffer {
    this.flushPending();
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
  }
}
