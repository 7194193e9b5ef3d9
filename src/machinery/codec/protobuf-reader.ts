/**
 * A small protobuf wire-format reader, the counterpart of ProtobufWriter: field keys, varints,
 * fixed 32- and 64-bit values and length-delimited fields, and skipping fields a schema does not
 * know. It never trusts a length: every read is checked against the end of the buffer, and a
 * malformed message throws ProtobufDecodeError (a client's mistake, not a server failure).
 */
import { WireType } from './protobuf-writer.js';

export class ProtobufDecodeError extends Error {}

const TWO_POW_32 = 2 ** 32;
/** Nesting of groups (a proto2 relic Kubernetes never writes) the reader skips before giving up. */
const MAX_GROUP_DEPTH = 64;

export interface FieldKey {
  field: number;
  wireType: number;
}

export class ProtobufReader {
  private pos: number;
  private readonly end: number;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    end = buf.length,
  ) {
    this.pos = start;
    this.end = end;
  }

  /** Whether every byte has been read. */
  get done(): boolean {
    return this.pos >= this.end;
  }

  /** The next field key. */
  key(): FieldKey {
    const k = this.varint64();
    if (k.hi !== 0 || k.lo > 0x7fffffff) throw new ProtobufDecodeError('field key out of range');
    const field = Math.floor(k.lo / 8);
    if (field < 1) throw new ProtobufDecodeError(`illegal field number ${field}`);
    return { field, wireType: k.lo & 7 };
  }

  /** A varint as its low and high 32-bit halves (both unsigned), the way 64-bit values travel. */
  varint64(): { lo: number; hi: number } {
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufDecodeError('unexpected end of data in a varint');
      const b = this.buf[this.pos++] as number;
      if (i < 4) lo += (b & 0x7f) * 2 ** (7 * i);
      else if (i === 4) {
        lo += (b & 0x0f) * 2 ** 28;
        hi += (b & 0x7f) >>> 4;
      } else hi += (b & 0x7f) * 2 ** (7 * i - 32);
      if ((b & 0x80) === 0) return { lo: lo >>> 0, hi: hi >>> 0 };
    }
    throw new ProtobufDecodeError('varint longer than ten bytes');
  }

  /** int32 and enum: the low 32 bits, signed (negative values travel as ten-byte varints). */
  int32(): number {
    return this.varint64().lo | 0;
  }

  /** int64, as a JavaScript number (exact up to 2^53, like JSON numbers). */
  int64(): number {
    const { lo, hi } = this.varint64();
    return (hi | 0) * TWO_POW_32 + lo;
  }

  uint64(): number {
    const { lo, hi } = this.varint64();
    return hi * TWO_POW_32 + lo;
  }

  bool(): boolean {
    const { lo, hi } = this.varint64();
    return lo !== 0 || hi !== 0;
  }

  double(): number {
    const b = this.take(8);
    return new DataView(b.buffer, b.byteOffset, 8).getFloat64(0, true);
  }

  /** The payload of a length-delimited field, as a view into the buffer (not copied). */
  bytes(): Uint8Array {
    const { lo, hi } = this.varint64();
    if (hi !== 0 || lo > 0x7fffffff) throw new ProtobufDecodeError('length out of range');
    return this.take(lo);
  }

  string(): string {
    const b = this.bytes();
    return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  }

  /** Skips the value of a field with the given wire type. */
  skip(wireType: number, depth = 0): void {
    switch (wireType) {
      case WireType.varint:
        this.varint64();
        return;
      case WireType.fixed64:
        this.take(8);
        return;
      case WireType.lengthDelimited:
        this.bytes();
        return;
      case WireType.fixed32:
        this.take(4);
        return;
      case 3: {
        if (depth >= MAX_GROUP_DEPTH) throw new ProtobufDecodeError('groups nested too deeply');
        for (;;) {
          if (this.done) throw new ProtobufDecodeError('unexpected end of data in a group');
          const k = this.key();
          if (k.wireType === 4) return;
          this.skip(k.wireType, depth + 1);
        }
      }
      default:
        throw new ProtobufDecodeError(`illegal wire type ${wireType}`);
    }
  }

  private take(n: number): Uint8Array {
    if (n > this.end - this.pos) throw new ProtobufDecodeError('unexpected end of data');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}
