/**
 * Test helper: Kubernetes' protobuf messages read and written by protobufjs from .proto files typed
 * in by hand from Kubernetes' published definitions (test/protobuf/proto), converted to and from
 * Kubernetes' JSON by the well-known message types alone. Nothing here reads the server's schema
 * tables, so comparing with the server's codec checks its field numbers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

type Obj = Record<string, any>;

const dir = fileURLToPath(new URL('./proto/', import.meta.url));
export const root = new protobuf.Root();
for (const f of readdirSync(dir).filter((n) => n.endsWith('.proto')).sort()) {
  protobuf.parse(readFileSync(`${dir}${f}`, 'utf8'), root, { keepCase: true });
}
root.resolveAll();

export function typeOf(name: string): protobuf.Type {
  return root.lookupType(name);
}

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const TIME = `.${META}.Time`;
const MICRO = `.${META}.MicroTime`;
const FIELDS = `.${META}.FieldsV1`;
const INTSTR = '.k8s.io.apimachinery.pkg.util.intstr.IntOrString';
const QUANTITY = '.k8s.io.apimachinery.pkg.api.resource.Quantity';
const RAWEXT = '.k8s.io.apimachinery.pkg.runtime.RawExtension';

function timeText(seconds: number, nanos: number, micro: boolean): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micro ? `${base}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${base}Z`;
}

function fromWellKnown(fullName: string, v: Obj): unknown {
  switch (fullName) {
    case TIME:
    case MICRO:
      if (v.seconds === undefined && v.nanos === undefined) return null;
      return timeText(v.seconds ?? 0, v.nanos ?? 0, fullName === MICRO);
    case INTSTR:
      return (v.type ?? 0) === 1 ? (v.strVal ?? '') : (v.intVal ?? 0);
    case QUANTITY:
      return v.string ?? '0';
    case FIELDS:
      return v.Raw ? JSON.parse(Buffer.from(v.Raw, 'base64').toString('utf8')) : null;
    case RAWEXT:
      return v.raw ? JSON.parse(Buffer.from(v.raw, 'base64').toString('utf8')) : null;
    default:
      return undefined;
  }
}

/** A field marked `[(inline) = true]`: a Go struct embedded without a name, whose fields JSON shows flat. */
const isInline = (field: protobuf.Field): boolean => field.options?.['(inline)'] === true;

/** A decoded protobufjs object (toObject, bytes as base64) as Kubernetes' JSON, field presence kept. */
function toJson(type: protobuf.Type, v: Obj): Obj {
  const out: Obj = {};
  for (const field of type.fieldsArray) {
    const value = v[field.name];
    if (value === undefined) continue;
    if (isInline(field)) {
      Object.assign(out, toJson(field.resolvedType as protobuf.Type, value as Obj));
      continue;
    }
    const conv = (x: any): unknown => {
      const rt = field.resolvedType;
      if (!(rt instanceof protobuf.Type)) return x;
      const known = fromWellKnown(rt.fullName, x);
      return known === undefined ? toJson(rt, x) : known;
      return x;
    };
    if (field.map) out[field.name] = Object.fromEntries(Object.entries(value as Obj).map(([k, x]) => [k, conv(x)]));
    else if (field.repeated) out[field.name] = (value as unknown[]).map(conv);
    else out[field.name] = conv(value);
  }
  return out;
}

export function decodeKube(typeName: string, bytes: Uint8Array): Obj {
  const type = typeOf(typeName);
  const obj = type.toObject(type.decode(bytes), { longs: Number, bytes: String, defaults: false, arrays: false, objects: false });
  return toJson(type, obj);
}

function toWellKnown(fullName: string, v: unknown): Obj | undefined {
  switch (fullName) {
    case TIME:
    case MICRO: {
      const ms = Date.parse(v as string);
      const frac = /\.(\d+)Z$/.exec(v as string)?.[1] ?? '';
      return { seconds: Math.floor(ms / 1000), nanos: fullName === MICRO ? Number((frac + '000000000').slice(0, 9)) : 0 };
    }
    case INTSTR:
      return typeof v === 'string' ? { type: 1, intVal: 0, strVal: v } : { type: 0, intVal: v, strVal: '' };
    case QUANTITY:
      return { string: v };
    case FIELDS:
      return { Raw: Buffer.from(JSON.stringify(v)) };
    case RAWEXT:
      return { raw: Buffer.from(JSON.stringify(v)) };
    default:
      return undefined;
  }
}

function fromJson(type: protobuf.Type, v: Obj): Obj {
  const out: Obj = {};
  for (const field of type.fieldsArray) {
    if (isInline(field)) {
      // Go writes an embedded struct even when empty.
      out[field.name] = fromJson(field.resolvedType as protobuf.Type, v);
      continue;
    }
    const value = v[field.name];
    if (value === undefined || value === null) continue;
    const conv = (x: any): unknown => {
      const rt = field.resolvedType;
      if (rt instanceof protobuf.Type) {
        const known = toWellKnown(rt.fullName, x);
        return known === undefined ? fromJson(rt, x) : known;
      }
      if (field.type === 'bytes') return Buffer.from(x as string, 'base64');
      return x;
    };
    if (field.map) out[field.name] = Object.fromEntries(Object.entries(value as Obj).map(([k, x]) => [k, conv(x)]));
    else if (field.repeated) out[field.name] = (value as unknown[]).map(conv);
    else out[field.name] = conv(value);
  }
  return out;
}

/** Kubernetes' JSON written by protobufjs as the message `typeName`. */
export function encodeKube(typeName: string, json: Obj): Uint8Array {
  const type = typeOf(typeName);
  return type.encode(type.fromObject(fromJson(type, json))).finish();
}

/** The `k8s\0` envelope, read with the runtime.Unknown message. */
export function decodeKubeEnvelope(bytes: Uint8Array): { typeMeta: Obj; raw: Uint8Array; contentEncoding?: string; contentType?: string } {
  if (Buffer.from(bytes.subarray(0, 4)).toString('hex') !== '6b387300') throw new Error('no k8s\\0 prefix');
  const type = typeOf('k8s.io.apimachinery.pkg.runtime.Unknown');
  const obj = type.toObject(type.decode(bytes.subarray(4)), { defaults: false }) as Obj;
  return { typeMeta: obj.typeMeta ?? {}, raw: obj.raw ?? new Uint8Array(0), contentEncoding: obj.contentEncoding, contentType: obj.contentType };
}

export function encodeKubeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const type = typeOf('k8s.io.apimachinery.pkg.runtime.Unknown');
  const body = type.encode(type.fromObject({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' })).finish();
  return Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), body]);
}
