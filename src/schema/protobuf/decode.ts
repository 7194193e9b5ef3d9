/**
 * Reads protobuf written by Kubernetes (or by encodeMessage) into a JSON-shaped object, driven by
 * the schema's field numbers. The result holds what the wire held: a value field written with its
 * zero value comes back as that zero value, and fields absent from the wire stay absent. Running it
 * through the JSON decoder (decodeObject) then applies Go's JSON presence rules (omitempty, zero
 * values of value structs), which is exactly how a Go server turns a protobuf body into JSON.
 *
 * Unknown field numbers are skipped, as Go's generated code does; repeated scalars are read both
 * packed and unpacked. Throws ProtobufDecodeError for malformed input or a wire type that does not
 * fit the schema. Pure.
 */
import { ProtobufDecodeError, ProtobufReader } from '../../machinery/codec/protobuf-reader.js';
import { WireType } from '../../machinery/codec/protobuf-writer.js';
import type { StructSchema } from '../dsl.js';
import { resolve, tableOf, type Resolved } from './fields.js';
import { readTimestamp } from './time.js';

/** Messages nested deeper than this are refused, so a hostile body cannot exhaust the stack. */
const MAX_DEPTH = 100;

export function decodeMessage(schema: StructSchema, bytes: Uint8Array): Record<string, unknown> {
  return readStruct(schema, bytes, {}, 0);
}

function readStruct(s: StructSchema, bytes: Uint8Array, target: Record<string, unknown>, depth: number): Record<string, unknown> {
  if (depth > MAX_DEPTH) throw new ProtobufDecodeError('message nested too deeply');
  const table = tableOf(s);
  const r = new ProtobufReader(bytes);
  while (!r.done) {
    const k = r.key();
    const f = table.byNumber.get(k.field);
    if (!f) {
      r.skip(k.wireType);
      continue;
    }
    if (f.kind === 'embedded') {
      // An embedded struct's fields land in the embedding object, flat as JSON has them.
      expectWire(k.wireType, WireType.lengthDelimited, `${s.name}.${f.struct.name}`);
      readStruct(f.struct, r.bytes(), target, depth + 1);
      continue;
    }
    const schema = resolve(f.spec.schema);
    const where = `${s.name}.${f.name}`;
    if (schema.type === 'list') {
      const items = resolve(schema.items);
      const list = Array.isArray(target[f.name]) ? (target[f.name] as unknown[]) : (target[f.name] = []);
      if (k.wireType === WireType.lengthDelimited && isPackable(items)) {
        const packed = new ProtobufReader(r.bytes());
        while (!packed.done) (list as unknown[]).push(readScalar(packed, items, where));
      } else {
        (list as unknown[]).push(readValue(r, k.wireType, items, undefined, where, depth));
      }
    } else if (schema.type === 'map') {
      expectWire(k.wireType, WireType.lengthDelimited, where);
      const map = isRecord(target[f.name]) ? (target[f.name] as Record<string, unknown>) : (target[f.name] = {});
      const [key, value] = readEntry(r.bytes(), resolve(schema.values), where, depth);
      (map as Record<string, unknown>)[key] = value;
    } else {
      target[f.name] = readValue(r, k.wireType, schema, target[f.name], where, depth);
    }
  }
  return target;
}

function isRecord(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isPackable(s: Resolved): boolean {
  return s.type === 'integer' || s.type === 'boolean' || s.type === 'number';
}

function expectWire(got: number, want: number, where: string): void {
  if (got !== want) throw new ProtobufDecodeError(`wrong wire type ${got} for field ${where}`);
}

function readScalar(r: ProtobufReader, s: Resolved, where: string): unknown {
  switch (s.type) {
    case 'integer':
      return s.format === 'int32' ? r.int32() : r.int64();
    case 'boolean':
      return r.bool();
    case 'number':
      return r.double();
    default:
      throw new ProtobufDecodeError(`field ${where} cannot be packed`);
  }
}

function readValue(r: ProtobufReader, wireType: number, s: Resolved, previous: unknown, where: string, depth: number): unknown {
  switch (s.type) {
    case 'integer':
    case 'boolean':
      expectWire(wireType, WireType.varint, where);
      return readScalar(r, s, where);
    case 'number':
      expectWire(wireType, WireType.fixed64, where);
      return r.double();
    default:
      expectWire(wireType, WireType.lengthDelimited, where);
      return readPayload(r.bytes(), s, previous, where, depth);
  }
}

/** A length-delimited payload as the value of a schema type. */
function readPayload(bytes: Uint8Array, s: Resolved, previous: unknown, where: string, depth: number): unknown {
  switch (s.type) {
    case 'string':
      return utf8(bytes);
    case 'bytes':
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
    case 'time':
      return readTimestamp(bytes, s.precision);
    case 'int-or-string':
      return readIntOrString(bytes);
    case 'quantity':
      return readQuantity(bytes);
    case 'raw':
      return readRaw(bytes, where);
    case 'object':
      // A message seen twice merges, as protobuf specifies (and Go's generated code does).
      return readStruct(s, bytes, isRecord(previous) ? (previous as Record<string, unknown>) : {}, depth + 1);
    case 'list': {
      // The message wrapping a map value that is a list (ExtraValue): items at 1.
      const items = resolve(s.items);
      const out: unknown[] = [];
      const r = new ProtobufReader(bytes);
      while (!r.done) {
        const k = r.key();
        if (k.field !== 1) r.skip(k.wireType);
        else if (k.wireType === WireType.lengthDelimited && isPackable(items)) {
          const packed = new ProtobufReader(r.bytes());
          while (!packed.done) out.push(readScalar(packed, items, where));
        } else out.push(readValue(r, k.wireType, items, undefined, where, depth + 1));
      }
      return out;
    }
    default:
      throw new ProtobufDecodeError(`field ${where} has no protobuf form`);
  }
}

/** A map entry: key at 1, value at 2; a missing part is its zero value, as Go reads it. */
function readEntry(bytes: Uint8Array, values: Resolved, where: string, depth: number): [string, unknown] {
  const r = new ProtobufReader(bytes);
  let key = '';
  let value: unknown;
  let seen = false;
  while (!r.done) {
    const k = r.key();
    if (k.field === 1) {
      expectWire(k.wireType, WireType.lengthDelimited, where);
      key = r.string();
    } else if (k.field === 2) {
      value = readValue(r, k.wireType, values, value, where, depth);
      seen = true;
    } else r.skip(k.wireType);
  }
  if (!seen) value = zeroMapValue(values, where, depth);
  return [key, value];
}

function zeroMapValue(s: Resolved, where: string, depth: number): unknown {
  switch (s.type) {
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'list':
      return null;
    default:
      return readPayload(new Uint8Array(0), s, undefined, where, depth);
  }
}

function readIntOrString(bytes: Uint8Array): number | string {
  const r = new ProtobufReader(bytes);
  let type = 0;
  let intVal = 0;
  let strVal = '';
  while (!r.done) {
    const k = r.key();
    if (k.field === 1 && k.wireType === WireType.varint) type = r.int64();
    else if (k.field === 2 && k.wireType === WireType.varint) intVal = r.int32();
    else if (k.field === 3 && k.wireType === WireType.lengthDelimited) strVal = r.string();
    else r.skip(k.wireType);
  }
  return type === 1 ? strVal : intVal;
}

function readQuantity(bytes: Uint8Array): string {
  const r = new ProtobufReader(bytes);
  let text = '0';
  while (!r.done) {
    const k = r.key();
    if (k.field === 1 && k.wireType === WireType.lengthDelimited) text = r.string();
    else r.skip(k.wireType);
  }
  // Go parses the text; an empty one is the zero quantity.
  return text === '' ? '0' : text;
}

function readRaw(bytes: Uint8Array, where: string): unknown {
  const r = new ProtobufReader(bytes);
  let raw: Uint8Array | undefined;
  while (!r.done) {
    const k = r.key();
    if (k.field === 1 && k.wireType === WireType.lengthDelimited) raw = r.bytes();
    else r.skip(k.wireType);
  }
  if (raw === undefined) return null;
  if (raw.length === 0) return null;
  try {
    return JSON.parse(utf8(raw));
  } catch {
    throw new ProtobufDecodeError(`field ${where} does not hold JSON`);
  }
}

const decoder = new TextDecoder('utf-8');

function utf8(b: Uint8Array): string {
  return decoder.decode(b);
}
