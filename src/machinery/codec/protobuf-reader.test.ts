import { describe, expect, it } from 'vitest';
import { ProtobufDecodeError, ProtobufReader } from './protobuf-reader.js';
import { ProtobufWriter } from './protobuf-writer.js';

describe('ProtobufReader', () => {
  it.each([0, 1, 127, 128, 300, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, -1, -2, -(2 ** 31), -(2 ** 53 - 1)])('reads back the int64 %d', (n) => {
    const r = new ProtobufReader(new ProtobufWriter().varint(n).finish());
    expect(r.int64()).toBe(n);
    expect(r.done).toBe(true);
  });

  it.each([0, 1, -1, 2147483647, -2147483648])('reads back the int32 %d', (n) => {
    expect(new ProtobufReader(new ProtobufWriter().varint(n).finish()).int32()).toBe(n);
  });

  it('reads keys, strings, bytes, bools and doubles', () => {
    const buf = new ProtobufWriter().string(1, 'héllo').bytes(2, Buffer.from([0, 255])).bool(3, true).double(4, -1.5).int(200, 7).finish();
    const r = new ProtobufReader(buf);
    expect(r.key()).toEqual({ field: 1, wireType: 2 });
    expect(r.string()).toBe('héllo');
    expect(r.key()).toEqual({ field: 2, wireType: 2 });
    expect([...r.bytes()]).toEqual([0, 255]);
    expect(r.key()).toEqual({ field: 3, wireType: 0 });
    expect(r.bool()).toBe(true);
    expect(r.key()).toEqual({ field: 4, wireType: 1 });
    expect(r.double()).toBe(-1.5);
    expect(r.key()).toEqual({ field: 200, wireType: 0 });
    expect(r.int64()).toBe(7);
    expect(r.done).toBe(true);
  });

  it('skips every wire type, groups included', () => {
    // varint, fixed64, length-delimited, fixed32, then a group (field 9) holding a varint, then field 10.
    const buf = Buffer.concat([
      new ProtobufWriter().int(1, 300).double(2, 1).string(3, 'x').finish(),
      Buffer.from([0x25, 1, 2, 3, 4]),
      Buffer.from([0x4b, 0x08, 0x01, 0x4c]),
      new ProtobufWriter().int(10, 5).finish(),
    ]);
    const r = new ProtobufReader(buf);
    for (let i = 0; i < 5; i++) {
      const k = r.key();
      r.skip(k.wireType);
    }
    expect(r.key().field).toBe(10);
    expect(r.int64()).toBe(5);
  });

  it.each([
    ['a truncated varint', [0x08, 0x80]],
    ['a length past the end', [0x0a, 0x05, 0x61]],
    ['an eleven-byte varint', [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]],
    ['field number 0', [0x00, 0x01]],
    ['wire type 7', [0x0f]],
  ])('refuses %s', (_what, bytes) => {
    const r = new ProtobufReader(Uint8Array.from(bytes));
    expect(() => {
      const k = r.key();
      r.skip(k.wireType);
    }).toThrow(ProtobufDecodeError);
  });
});
