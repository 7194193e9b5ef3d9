/**
 * Writes a JSON-shaped object in protobuf the way Kubernetes' generated Marshal code does, driven
 * by the schema's field numbers:
 * - fields in ascending number order; map entries (key = 1, value = 2) sorted by key;
 * - repeated scalars unpacked (the definitions are proto2);
 * - value (non-pointer) scalars always written, zero included; pointer fields only when set;
 * - value structs (and Time, IntOrString, Quantity, RawExtension) always written, possibly empty;
 * - bytes only when set, as Go writes a nil slice as nothing;
 * - a struct embedded without a name (t.inline, Go's json:",inline") as a message of its own, although JSON shows its fields flat.
 * The input is an object as the JSON decoder produced it (canonical); it is not modified.
 */
import { ProtobufWriter } from '../../machinery/codec/protobuf-writer.js';
import type { FieldSpec, StructSchema } from '../dsl.js';
import { resolve, tableOf, type Resolved } from './fields.js';
import { writeTimestamp } from './time.js';

export function encodeMessage(schema: StructSchema, value: unknown): Buffer {
  const w = new ProtobufWriter();
  writeStruct(w, schema, asRecord(value));
  return w.finish();
}

function asRecord(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function writeStruct(w: ProtobufWriter, s: StructSchema, obj: Record<string, unknown>): void {
  for (const e of tableOf(s).ordered) {
    // An embedded Go struct is a value: always written, its fields taken from the same flat object.
    if (e.kind === 'embedded') w.message(e.number, (m) => writeStruct(m, e.struct, obj));
    else writeField(w, e.number, e.spec, obj[e.name]);
  }
}

function writeField(w: ProtobufWriter, num: number, spec: FieldSpec, v: unknown): void {
  const s = resolve(spec.schema);
  if (s.type === 'list') {
    if (!Array.isArray(v)) return;
    // Elements of a Go slice are values: a null element is written as its zero value.
    for (const item of v) writeValue(w, num, resolve(s.items), item, 'element');
    return;
  }
  if (s.type === 'map') {
    if (v === null || typeof v !== 'object') return;
    const entries = v as Record<string, unknown>;
    const values = resolve(s.values);
    // Go sorts map keys by bytes; so does a plain sort of JavaScript strings for the
    // keys Kubernetes allows (and for any text below U+10000).
    for (const key of Object.keys(entries).sort()) {
      w.message(num, (e) => {
        e.string(1, key);
        writeValue(e, 2, values, entries[key], 'map-value');
      });
    }
    return;
  }
  writeValue(w, num, s, v, spec.presence === 'pointer' ? 'pointer' : 'value');
}

/**
 * How an absent value is written: a pointer field not at all, a value field as its zero value. Map
 * values are written as values, except nil byte slices (`if v != nil` in the generated code); list
 * elements always.
 */
type Slot = 'pointer' | 'value' | 'map-value' | 'element';

function writeValue(w: ProtobufWriter, num: number, s: Resolved, v: unknown, slot: Slot): void {
  const absent = v === null || v === undefined;
  if (absent && slot === 'pointer') return;
  switch (s.type) {
    case 'string':
      w.string(num, typeof v === 'string' ? v : '');
      return;
    case 'integer':
      w.int(num, typeof v === 'number' ? v : 0);
      return;
    case 'number':
      w.double(num, typeof v === 'number' ? v : 0);
      return;
    case 'boolean':
      w.bool(num, v === true);
      return;
    case 'bytes':
      if (absent && slot !== 'element') return;
      w.bytes(num, typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0));
      return;
    case 'time':
      w.message(num, (m) => {
        if (typeof v === 'string') writeTimestamp(m, v, s.precision);
      });
      return;
    case 'int-or-string':
      // Type 0 is an int, 1 a string; the generated code writes all three fields.
      w.message(num, (m) => {
        if (typeof v === 'string') m.int(1, 1).int(2, 0).string(3, v);
        else m.int(1, 0).int(2, typeof v === 'number' ? v : 0).string(3, '');
      });
      return;
    case 'quantity':
      w.message(num, (m) => m.string(1, typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '0'));
      return;
    case 'raw':
      // RawExtension, FieldsV1 and JSON keep their JSON text in field 1; a nil one is empty.
      w.message(num, (m) => {
        if (!absent) m.bytes(1, Buffer.from(JSON.stringify(v), 'utf8'));
      });
      return;
    case 'object':
      w.message(num, (m) => writeStruct(m, s, asRecord(v)));
      return;
    case 'list':
      // A map of lists (map[string]ExtraValue) wraps each list in a message with the items at 1.
      if (slot === 'map-value') {
        w.message(num, (m) => {
          for (const item of Array.isArray(v) ? v : []) writeValue(m, 1, resolve(s.items), item, 'element');
        });
        return;
      }
      throw new TypeError('no protobuf encoding for a list of lists');
    case 'map':
      // Kubernetes defines no protobuf form for these; protobufGaps refuses such kinds first.
      throw new TypeError('no protobuf encoding for a nested map');
  }
}
