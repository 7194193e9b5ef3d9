/**
 * The schema-driven codec on a schema that uses every type, checking the bytes Kubernetes'
 * generated code would write (gogo, proto2) and that JSON → protobuf → JSON is the identity.
 */
import { describe, expect, it } from 'vitest';
import { decodeObject as decodeJson, t, type StructSchema } from '../index.js';
import { ProtobufWriter } from '../../machinery/codec/protobuf-writer.js';
import { decodeMessage, encodeMessage, FrameReader, frame, decodeEnvelope, decodeWatchEvent, encodeProtobufObject, decodeProtobufObject, encodeWatchEvent, protobufGaps, ProtobufDecodeError } from './index.js';

const Inner = t.struct('test.v1.Inner', {
  name: t.field(1, t.string()),
  count: t.field(2, t.int32(), { pointer: true }),
});

const Everything: StructSchema = t.struct('test.v1.Everything', {
  kind: t.field(undefined, t.string()),
  apiVersion: t.field(undefined, t.string()),
  str: t.field(1, t.string()),
  strAlways: t.field(2, t.string(), { always: true }),
  strPtr: t.field(3, t.string(), { pointer: true }),
  i32: t.field(4, t.int32()),
  i64: t.field(5, t.int64()),
  i64Ptr: t.field(6, t.int64(), { pointer: true }),
  flag: t.field(7, t.bool()),
  flagPtr: t.field(8, t.bool(), { pointer: true }),
  ratio: t.field(9, t.double()),
  blob: t.field(10, t.bytes()),
  when: t.field(11, t.time()),
  whenPtr: t.field(12, t.time(), { pointer: true }),
  micro: t.field(13, t.microTime(), { pointer: true }),
  port: t.field(14, t.intOrString()),
  portPtr: t.field(15, t.intOrString(), { pointer: true }),
  amount: t.field(16, t.quantity()),
  raw: t.field(17, t.raw({ name: 'runtime.RawExtension' })),
  inner: t.field(18, Inner),
  innerPtr: t.field(19, Inner, { pointer: true }),
  strings: t.field(20, t.list(t.string())),
  ints: t.field(21, t.list(t.int32())),
  inners: t.field(22, t.list(Inner)),
  labels: t.field(23, t.map(t.string())),
  binary: t.field(24, t.map(t.bytes())),
  resources: t.field(25, t.map(t.quantity())),
  extra: t.field(26, t.map(t.list(t.string()))),
  recursive: t.field(27, t.lazy((): StructSchema => Everything), { pointer: true }),
  byMap: t.field(28, t.map(Inner)),
});

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const canonical = (s: StructSchema, v: unknown): unknown => decodeJson(s, v).value;
const roundTrip = (s: StructSchema, v: unknown): unknown => canonical(s, decodeMessage(s, encodeMessage(s, canonical(s, v))));

describe('the schema-driven protobuf codec', () => {
  it('writes value scalars even when zero, and value structs even when empty', () => {
    // str "", strAlways "", i32 0, i64 0, flag false, ratio 0, when {}, port {0,0,""}, amount "0", raw {}, inner {name ""}.
    const bytes = encodeMessage(Everything, {});
    expect(hex(bytes)).toBe(
      [
        '0a00', '1200', '2000', '2800', '3800', '490000000000000000', '5a00',
        '7206080010001a00', '8201030a0130', '8a0100', '9201020a00',
      ].join(''),
    );
  });

  it('leaves out pointer fields that are unset and writes them when set to zero', () => {
    const bytes = encodeMessage(Everything, { strPtr: '', i64Ptr: 0, flagPtr: false });
    expect(hex(bytes)).toContain('1a00'); // 3: ""
    expect(hex(bytes)).toContain('3000'); // 6: 0
    expect(hex(bytes)).toContain('4000'); // 8: false
    expect(decodeMessage(Everything, bytes)).toMatchObject({ strPtr: '', i64Ptr: 0, flagPtr: false });
  });

  it('writes repeated scalars unpacked, maps as entries sorted by key', () => {
    const ints = encodeMessage(t.struct('x', { ints: t.field(21, t.list(t.int32())) }), { ints: [1, -1, 300] });
    expect(hex(ints)).toBe('a80101' + 'a801ffffffffffffffffff01' + 'a801ac02');
    const map = encodeMessage(t.struct('x', { labels: t.field(2, t.map(t.string())) }), { labels: { b: '2', a: '' } });
    expect(hex(map)).toBe('1205' + '0a0161' + '1200' + '1206' + '0a0162' + '120132');
  });

  it('writes Time as seconds with nanos, MicroTime with microseconds, the zero time as an empty message', () => {
    const s = t.struct('x', { when: t.field(1, t.time()), micro: t.field(2, t.microTime()) });
    const bytes = encodeMessage(s, { when: '2024-01-02T03:04:05Z', micro: '1969-12-31T23:59:59.250000Z' });
    const w = new ProtobufWriter().message(1, (m) => m.int(1, 1704164645).int(2, 0)).message(2, (m) => m.int(1, -1).int(2, 250_000_000)).finish();
    expect(hex(bytes)).toBe(hex(w));
    expect(decodeMessage(s, bytes)).toEqual({ when: '2024-01-02T03:04:05Z', micro: '1969-12-31T23:59:59.250000Z' });
    expect(hex(encodeMessage(s, { when: '0001-01-01T00:00:00Z' }))).toBe('0a001200');
  });

  it('writes IntOrString with all three fields and RawExtension as JSON bytes', () => {
    const s = t.struct('x', { port: t.field(1, t.intOrString()), raw: t.field(2, t.raw()) });
    const bytes = encodeMessage(s, { port: 'http', raw: { a: 1 } });
    expect(hex(bytes)).toBe('0a0a' + '0801' + '1000' + '1a0468747470' + '1209' + '0a07' + Buffer.from('{"a":1}').toString('hex'));
    expect(decodeMessage(s, bytes)).toEqual({ port: 'http', raw: { a: 1 } });
  });

  it('round-trips a full object through protobuf to the same JSON', () => {
    const full = {
      kind: 'Everything',
      apiVersion: 'test/v1',
      str: 'a',
      strAlways: 'b',
      strPtr: '',
      i32: -5,
      i64: 2 ** 40,
      i64Ptr: 0,
      flag: true,
      flagPtr: false,
      ratio: 0.25,
      blob: Buffer.from([1, 2, 3]).toString('base64'),
      when: '2020-02-29T12:00:00Z',
      whenPtr: '1900-01-01T00:00:00Z',
      micro: '2020-02-29T12:00:00.123456Z',
      port: 8080,
      portPtr: 'web',
      amount: '100m',
      raw: { apiVersion: 'v1', kind: 'Pod', spec: { x: [1, 'two', null, true] } },
      inner: { name: 'n', count: 0 },
      innerPtr: {},
      strings: ['', 'x', 'y'],
      ints: [0, 7],
      inners: [{ name: 'a' }, {}],
      labels: { z: '', a: 'b', 'ü': 'unicode' },
      binary: { k: '', j: Buffer.from('hi').toString('base64') },
      resources: { cpu: '1', memory: '2Gi' },
      extra: { groups: ['a', 'b'], none: [] },
      recursive: { str: 'deep', recursive: { i32: 1 } },
      byMap: { one: { name: 'x' }, two: {} },
    };
    const { kind: _k, apiVersion: _a, ...body } = canonical(Everything, full) as Record<string, unknown>;
    // kind and apiVersion travel in the envelope, not the message.
    const back = roundTrip(Everything, full) as Record<string, unknown>;
    expect(back).toEqual(body);
  });

  it('matches Go where protobuf cannot tell empty from unset: an empty value list becomes null', () => {
    const s = t.struct('x', { items: t.field(1, t.list(t.string()), { always: true }) });
    expect(roundTrip(s, { items: [] })).toEqual({ items: null });
  });

  it('reads packed repeated scalars, merges a message seen twice and skips unknown fields', () => {
    const s = t.struct('x', { ints: t.field(1, t.list(t.int64())), inner: t.field(2, Inner), name: t.field(3, t.string()) });
    const bytes = new ProtobufWriter()
      .packedVarints(1, [1, 2, 3])
      .int(1, 4)
      .message(2, (m) => m.string(1, 'first'))
      .int(99, 1)
      .string(98, 'ignored')
      .message(2, (m) => m.int(2, 5))
      .string(3, 'a')
      .string(3, 'b')
      .finish();
    expect(decodeMessage(s, bytes)).toEqual({ ints: [1, 2, 3, 4], inner: { name: 'first', count: 5 }, name: 'b' });
  });

  it('refuses a wire type that does not fit the field', () => {
    const s = t.struct('x', { name: t.field(1, t.string()) });
    expect(() => decodeMessage(s, new ProtobufWriter().int(1, 5).finish())).toThrow(ProtobufDecodeError);
  });

  it('fills absent map values with their zero values, as Go does', () => {
    const s = t.struct('x', { m: t.field(1, t.map(t.string())), b: t.field(2, t.map(t.bytes())), q: t.field(3, t.map(t.quantity())) });
    const bytes = new ProtobufWriter()
      .message(1, (e) => e.string(1, 'k'))
      .message(2, (e) => e.string(1, 'k'))
      .message(3, (e) => e.string(1, 'k'))
      .finish();
    expect(decodeMessage(s, bytes)).toEqual({ m: { k: '' }, b: { k: '' }, q: { k: '0' } });
  });
});

describe('a Go struct embedded without a name (t.inline)', () => {
  const VolumeSource = t.struct('test.v1.VolumeSource', {
    hostPath: t.field(1, t.struct('test.v1.HostPath', { path: t.field(1, t.string()) }), { pointer: true }),
    emptyDir: t.field(2, t.struct('test.v1.EmptyDir', { medium: t.field(1, t.string()) }), { pointer: true }),
  });
  const Volume = t.struct('test.v1.Volume', { name: t.field(1, t.string()), ...t.inline(2, 'volumeSource', VolumeSource), readOnly: t.field(3, t.bool()) });

  it('is a message at its own number holding the flat JSON fields, written even when empty', () => {
    expect(hex(encodeMessage(Volume, { name: 'v', emptyDir: {} }))).toBe('0a0176' + '1204' + '12020a00' + '1800');
    expect(hex(encodeMessage(Volume, { name: 'v' }))).toBe('0a0176' + '1200' + '1800');
    expect(decodeMessage(Volume, encodeMessage(Volume, { name: 'v', hostPath: { path: '/x' } }))).toEqual({ name: 'v', hostPath: { path: '/x' }, readOnly: false });
  });

  it('round-trips, and its number counts against the embedding struct\'s own', () => {
    expect(roundTrip(Volume, { name: 'v', hostPath: { path: '/p' }, emptyDir: { medium: 'Memory' } })).toEqual(canonical(Volume, { name: 'v', hostPath: { path: '/p' }, emptyDir: { medium: 'Memory' } }));
    expect(protobufGaps(Volume)).toEqual([]);
    const Clash = t.struct('test.v1.Clash', { name: t.field(1, t.string()), ...t.inline(1, 'volumeSource', VolumeSource) });
    expect(protobufGaps(Clash)).toEqual(['hostPath (test.v1.Clash): field number 1 also used by name']);
  });
});

describe('the envelope and watch frames', () => {
  const s = t.struct('core.v1.Thing', { kind: t.field(undefined, t.string()), apiVersion: t.field(undefined, t.string()), name: t.field(1, t.string()) });

  it('writes k8s\\0, then Unknown with typeMeta, raw and both empty strings, as Kubernetes does', () => {
    const bytes = encodeProtobufObject(s, { apiVersion: 'v1', kind: 'Thing', name: 'x' });
    expect(hex(bytes)).toBe('6b387300' + '0a0b' + '0a027631' + '12055468696e67' + '1203' + '0a0178' + '1a00' + '2200');
    expect(decodeEnvelope(bytes)).toMatchObject({ typeMeta: { apiVersion: 'v1', kind: 'Thing' }, contentEncoding: '', contentType: '' });
    expect(decodeProtobufObject(s, bytes)).toEqual({ apiVersion: 'v1', kind: 'Thing', name: 'x' });
  });

  it.each([
    ['no prefix', Buffer.from('{"kind":"Thing"}'), /expected prefix \[107 56 115 0\]/],
    ['only the prefix', Buffer.from([0x6b, 0x38, 0x73, 0x00]), /empty body/],
    ['nothing', Buffer.alloc(0), /empty data/],
  ])('refuses %s', (_what, bytes, message) => {
    expect(() => decodeProtobufObject(s, bytes)).toThrow(message);
  });

  it('frames watch events with a 4-byte big-endian length and reads them back across chunk boundaries', () => {
    const events = ['ADDED', 'DELETED'].map((type, i) => frame(encodeWatchEvent(type, encodeProtobufObject(s, { apiVersion: 'v1', kind: 'Thing', name: `n${i}` }))));
    expect(events[0]!.readUInt32BE(0)).toBe(events[0]!.length - 4);
    const all = Buffer.concat(events);
    const reader = new FrameReader();
    const got = [...reader.push(all.subarray(0, 3)), ...reader.push(all.subarray(3, 20)), ...reader.push(all.subarray(20))];
    expect(reader.buffered).toBe(0);
    expect(got.map((f) => decodeWatchEvent(f)).map((e) => [e.type, decodeProtobufObject(s, e.object).name])).toEqual([
      ['ADDED', 'n0'],
      ['DELETED', 'n1'],
    ]);
  });
});

describe('protobufGaps', () => {
  it('is empty for a schema with every number', () => {
    expect(protobufGaps(Everything)).toEqual([]);
  });

  it('names fields without numbers (but not the inline kind and apiVersion) and shared numbers', () => {
    const s = t.struct('x.v1.Bad', {
      kind: t.field(undefined, t.string()),
      spec: t.field(1, t.struct('x.v1.Spec', { a: t.field(undefined, t.string()), kind: t.field(undefined, t.string()), b: t.field(1, t.string()), c: t.field(1, t.string()) })),
    });
    expect(protobufGaps(s)).toEqual(['spec.a (x.v1.Spec): no protobuf field number', 'spec.c (x.v1.Spec): field number 1 also used by b']);
  });
});
