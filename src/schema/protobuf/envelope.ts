/**
 * The binary envelope of document 1: the four bytes `k8s\0`, then a `runtime.Unknown` message
 * (typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3, contentType = 4) whose raw
 * field holds the object's own message. Written byte for byte as Kubernetes writes it: typeMeta and
 * both strings always present (empty), raw when there is an object.
 */
import { ProtobufDecodeError, ProtobufReader } from '../../machinery/codec/protobuf-reader.js';
import { ProtobufWriter, WireType } from '../../machinery/codec/protobuf-writer.js';

export const PROTOBUF_MAGIC: Readonly<Uint8Array> = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

export interface Unknown {
  typeMeta: TypeMeta;
  /** The object's message; absent when the envelope carries none. */
  raw?: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

export function encodeEnvelope(typeMeta: TypeMeta, raw: Uint8Array): Buffer {
  const w = new ProtobufWriter();
  w.message(1, (m) => m.string(1, typeMeta.apiVersion).string(2, typeMeta.kind));
  w.bytes(2, raw);
  w.string(3, '');
  w.string(4, '');
  return Buffer.concat([PROTOBUF_MAGIC, w.finish()]);
}

export function hasProtobufMagic(data: Uint8Array): boolean {
  return data.length >= 4 && data[0] === 0x6b && data[1] === 0x38 && data[2] === 0x73 && data[3] === 0x00;
}

/** Reads an envelope; throws ProtobufDecodeError with Kubernetes' words for data without the prefix. */
export function decodeEnvelope(data: Uint8Array): Unknown {
  if (data.length === 0) throw new ProtobufDecodeError('empty data');
  if (!hasProtobufMagic(data)) {
    throw new ProtobufDecodeError(`provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_MAGIC].join(' ')}]`);
  }
  if (data.length === 4) throw new ProtobufDecodeError('empty body');
  const r = new ProtobufReader(data, 4);
  const out: Unknown = { typeMeta: { apiVersion: '', kind: '' }, contentEncoding: '', contentType: '' };
  while (!r.done) {
    const k = r.key();
    if (k.wireType !== WireType.lengthDelimited) {
      r.skip(k.wireType);
      continue;
    }
    if (k.field === 1) out.typeMeta = readTypeMeta(r.bytes(), out.typeMeta);
    else if (k.field === 2) out.raw = r.bytes();
    else if (k.field === 3) out.contentEncoding = r.string();
    else if (k.field === 4) out.contentType = r.string();
    else r.skip(k.wireType);
  }
  return out;
}

function readTypeMeta(bytes: Uint8Array, into: TypeMeta): TypeMeta {
  const r = new ProtobufReader(bytes);
  const out = { ...into };
  while (!r.done) {
    const k = r.key();
    if (k.field === 1 && k.wireType === WireType.lengthDelimited) out.apiVersion = r.string();
    else if (k.field === 2 && k.wireType === WireType.lengthDelimited) out.kind = r.string();
    else r.skip(k.wireType);
  }
  return out;
}
