import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { ProtobufWriter } from './protobuf-writer.js';

const hex = (b: Buffer): string => b.toString('hex');

describe('ProtobufWriter', () => {
  it.each([
    [0, '00'],
    [1, '01'],
    [127, '7f'],
    [128, '8001'],
    [300, 'ac02'],
    [2 ** 31, '8080808008'],
    [2 ** 32, '8080808010'],
    [2 ** 53 - 1, 'ffffffffffffff0f'],
    [-1, 'ffffffffffffffffff01'],
    [-2, 'feffffffffffffffff01'],
  ])('writes the varint %d as %s', (n, expected) => {
    expect(hex(new ProtobufWriter().varint(n).finish())).toBe(expected);
  });

  it('writes keys with the field number and wire type', () => {
    expect(hex(new ProtobufWriter().int(1, 150).finish())).toBe('089601');
    expect(hex(new ProtobufWriter().string(2, 'testing').finish())).toBe('120774657374696e67');
    expect(hex(new ProtobufWriter().bool(16, true).finish())).toBe('800101');
  });

  it('refuses field numbers protobuf does not allow', () => {
    expect(() => new ProtobufWriter().int(0, 1)).toThrow(RangeError);
    expect(() => new ProtobufWriter().int(2 ** 29, 1)).toThrow(RangeError);
  });

  it('length-prefixes nested messages, as the canonical example shows', () => {
    // message Test3 { Test1 c = 3; } with c.a = 150 encodes as 1a 03 08 96 01.
    expect(hex(new ProtobufWriter().message(3, (w) => w.int(1, 150)).finish())).toBe('1a03089601');
  });

  it('writes what an independent decoder reads back', () => {
    const buf = new ProtobufWriter()
      .string(1, 'héllo')
      .int(2, -5)
      .sint(3, -5)
      .double(4, 1.5)
      .bool(5, false)
      .bytes(6, Buffer.from([0, 255, 7]))
      .message(7, (w) => w.string(1, 'inner').message(2, (x) => x.int(1, 2 ** 40)))
      .packedVarints(8, [1, 300, 70000])
      .finish();
    const r = protobuf.Reader.create(buf);
    const seen: unknown[] = [];
    while (r.pos < r.len) {
      const key = r.uint32();
      const field = key >>> 3;
      switch (field) {
        case 1:
          seen.push(r.string());
          break;
        case 2:
          seen.push(Number(r.int64().toString()));
          break;
        case 3:
          seen.push(r.sint32());
          break;
        case 4:
          seen.push(r.double());
          break;
        case 5:
          seen.push(r.bool());
          break;
        case 6:
          seen.push([...r.bytes()]);
          break;
        case 7: {
          const inner = protobuf.Reader.create(r.bytes());
          inner.uint32();
          const s = inner.string();
          inner.uint32();
          const deeper = protobuf.Reader.create(inner.bytes());
          deeper.uint32();
          seen.push([s, Number(deeper.uint64().toString())]);
          break;
        }
        case 8: {
          const packed = protobuf.Reader.create(r.bytes());
          const values: number[] = [];
          while (packed.pos < packed.len) values.push(packed.uint32());
          seen.push(values);
          break;
        }
        default:
          r.skipType(key & 7);
      }
    }
    expect(seen).toEqual(['héllo', -5, -5, 1.5, false, [0, 255, 7], ['inner', 2 ** 40], [1, 300, 70000]]);
  });
});
