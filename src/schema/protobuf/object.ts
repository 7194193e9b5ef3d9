/**
 * Whole objects in protobuf: the kind's message inside the `k8s\0` envelope, and the Serializer
 * that answers and reads request bodies for one schema. Watch events have their own frame format.
 */
import { findTooDeep, tooDeepMessage } from '../../machinery/codec/nesting.js';
import { DecodeBodyError, type JsonText, type Serializer } from '../../machinery/codec/serializers.js';
import { ProtobufDecodeError, ProtobufReader } from '../../machinery/codec/protobuf-reader.js';
import { ProtobufWriter, WireType } from '../../machinery/codec/protobuf-writer.js';
import type { StructSchema } from '../dsl.js';
import { decodeMessage } from './decode.js';
import { encodeMessage } from './encode.js';
import { decodeEnvelope, encodeEnvelope } from './envelope.js';

/** An object (with its `apiVersion` and `kind`) as an enveloped protobuf message. */
export function encodeProtobufObject(schema: StructSchema, value: unknown): Buffer {
  const obj = (value ?? {}) as { apiVersion?: unknown; kind?: unknown };
  const typeMeta = { apiVersion: typeof obj.apiVersion === 'string' ? obj.apiVersion : '', kind: typeof obj.kind === 'string' ? obj.kind : '' };
  return encodeEnvelope(typeMeta, encodeMessage(schema, value));
}

/**
 * An enveloped object back to a JSON-shaped value, with `apiVersion` and `kind` from the envelope
 * when it names them. Presence rules are the JSON decoder's job (see decodeMessage).
 */
export function decodeProtobufObject(schema: StructSchema, data: Uint8Array): Record<string, unknown> {
  const unk = decodeEnvelope(data);
  if (unk.contentEncoding) throw new ProtobufDecodeError(`unsupported content encoding ${JSON.stringify(unk.contentEncoding)}`);
  const value = decodeMessage(schema, unk.raw ?? new Uint8Array(0));
  const head: Record<string, unknown> = {};
  if (unk.typeMeta.apiVersion) head.apiVersion = unk.typeMeta.apiVersion;
  if (unk.typeMeta.kind) head.kind = unk.typeMeta.kind;
  return { ...head, ...value };
}

/** The Serializer of one schema for a protobuf media type. `pretty` means nothing to bytes. */
export function protobufSerializer(mediaType: string, schema: StructSchema): Serializer {
  return {
    mediaType,
    encode: (value) => encodeProtobufObject(schema, value),
    encodeText: (text: JsonText) => encodeProtobufObject(schema, JSON.parse(text.json)),
    decode(body) {
      try {
        const value = decodeProtobufObject(schema, body);
        // Embedded JSON (RawExtension) may nest deeper than the messages around it.
        const tooDeep = findTooDeep(value);
        if (tooDeep) throw new DecodeBodyError(`the request body is not a valid protobuf ${schema.name.split('.').pop() ?? ''}: ${tooDeepMessage(tooDeep)}`);
        return value;
      } catch (e) {
        if (e instanceof ProtobufDecodeError) throw new DecodeBodyError(`the request body is not a valid protobuf ${schema.name.split('.').pop() ?? ''}: ${e.message}`);
        throw e;
      }
    },
  };
}

/**
 * One event of a protobuf watch: a `meta.v1.WatchEvent` (type = 1, object = 2, a RawExtension whose
 * raw holds the enveloped object), written without an envelope of its own, as Kubernetes' raw
 * stream serializer does. Framing is the caller's (see frames.ts).
 */
export function encodeWatchEvent(type: string, envelopedObject: Uint8Array): Buffer {
  const w = new ProtobufWriter();
  w.string(1, type);
  w.message(2, (m) => m.bytes(1, envelopedObject));
  return w.finish();
}

export function decodeWatchEvent(message: Uint8Array): { type: string; object: Uint8Array } {
  const r = new ProtobufReader(message);
  let type = '';
  let object: Uint8Array = new Uint8Array(0);
  while (!r.done) {
    const k = r.key();
    if (k.field === 1 && k.wireType === WireType.lengthDelimited) type = r.string();
    else if (k.field === 2 && k.wireType === WireType.lengthDelimited) {
      const ext = new ProtobufReader(r.bytes());
      while (!ext.done) {
        const e = ext.key();
        if (e.field === 1 && e.wireType === WireType.lengthDelimited) object = ext.bytes();
        else ext.skip(e.wireType);
      }
    } else r.skip(k.wireType);
  }
  return { type, object };
}
