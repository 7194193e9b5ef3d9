/**
 * Decoding a JSON value into a schema with the semantics of Go's encoding/json as Kubernetes uses it:
 * case-sensitive field names, unknown fields dropped (and reported), null as absent, zero values
 * filled for value fields and dropped for `omitempty` ones, times re-formatted in UTC. The result
 * is what the Go server would store and print, so every later stage sees canonical objects.
 *
 * Pure: never mutates its input. Throws DecodeError for a value of the wrong JSON type.
 */
import { canonicalQuantity, QuantityError } from '../machinery/quantity.js';
import { resolveSchema, type FieldSpec, type Schema, type StructSchema } from './dsl.js';

export class DecodeError extends Error {}

export interface DecodeResult<T = Record<string, unknown>> {
  value: T;
  /** Paths of fields the schema does not know, in Kubernetes' notation (`spec.ports[0].foo`). */
  unknownFields: string[];
}

interface Walk {
  unknown: string[];
  /** Dotted path without indices, for Go-style type error messages. */
  goPath: string[];
  /** Innermost struct name, for Go-style type error messages. */
  goStruct: string;
}

export function decodeObject<T = Record<string, unknown>>(schema: StructSchema, value: unknown): DecodeResult<T> {
  const walk: Walk = { unknown: [], goPath: [], goStruct: structName(schema) };
  const out = decodeStruct(schema, value === null || value === undefined ? {} : value, '', walk);
  return { value: out as T, unknownFields: walk.unknown };
}

/** Decodes any value against any schema; used for sub-objects such as list items. */
export function decodeValue(schema: Schema, value: unknown): DecodeResult<unknown> {
  const walk: Walk = { unknown: [], goPath: [], goStruct: '' };
  return { value: decode(schema, value, '', walk), unknownFields: walk.unknown };
}

/** The Go type name alone (`ObjectMeta`), as UnmarshalTypeError names the enclosing struct. */
function structName(s: StructSchema): string {
  return s.name.split('.').pop() ?? s.name;
}

/** The package-qualified Go type (`v1.ObjectMeta`), as Go prints a type. */
function shortName(s: StructSchema): string {
  const parts = s.name.split('.');
  return parts.slice(-2).join('.');
}

function goType(schema: Schema): string {
  const s = resolveSchema(schema);
  switch (s.type) {
    case 'string':
    case 'bytes':
      return s.type === 'bytes' ? '[]uint8' : 'string';
    case 'integer':
      return s.format;
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'time':
      return s.precision === 'micro' ? 'v1.MicroTime' : 'v1.Time';
    case 'int-or-string':
      return 'intstr.IntOrString';
    case 'quantity':
      return 'resource.Quantity';
    case 'raw':
      return 'runtime.RawExtension';
    case 'map':
      return `map[string]${goType(s.values)}`;
    case 'list':
      return `[]${goType(s.items)}`;
    case 'object':
      return shortName(s);
  }
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  return typeof v;
}

function typeError(schema: Schema, v: unknown, walk: Walk): DecodeError {
  // Go names the literal only when a number does not fit a numeric field (1.5 or 1e20 into an int).
  const numeric = resolveSchema(schema).type === 'integer' || resolveSchema(schema).type === 'int-or-string';
  const what = typeof v === 'number' ? (numeric ? `number ${v}` : 'number') : jsonType(v);
  const where = walk.goStruct ? `Go struct field ${walk.goStruct}.${walk.goPath.join('.')}` : 'Go value';
  return new DecodeError(`json: cannot unmarshal ${what} into ${where} of type ${goType(schema)}`);
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The Go zero value of a schema, as its JSON encoding prints it. */
export function zeroValue(schema: Schema, walk?: Walk): unknown {
  const s = resolveSchema(schema);
  switch (s.type) {
    case 'string':
    case 'bytes':
      return s.type === 'bytes' ? null : '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'int-or-string':
      return 0;
    case 'quantity':
      return '0';
    case 'time':
    case 'raw':
    case 'map':
    case 'list':
      return null;
    case 'object':
      return decodeStruct(s, {}, '', walk ?? { unknown: [], goPath: [], goStruct: structName(s) });
  }
}

function isEmpty(v: unknown): boolean {
  if (v === '' || v === 0 || v === false || v === null || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v as object).length === 0;
  return false;
}

function decode(schema: Schema, v: unknown, path: string, walk: Walk): unknown {
  const s = resolveSchema(schema);
  if (v === null || v === undefined) return zeroValue(s, walk);
  switch (s.type) {
    case 'string':
      if (typeof v !== 'string') throw typeError(s, v, walk);
      return v;
    case 'bytes':
      if (typeof v !== 'string') throw typeError(s, v, walk);
      if (!BASE64.test(v)) throw new DecodeError(`illegal base64 data at input byte ${firstBadBase64Byte(v)}`);
      return v;
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) throw typeError(s, v, walk);
      if (s.format === 'int32' && (v < INT32_MIN || v > INT32_MAX)) throw typeError(s, v, walk);
      return v;
    case 'number':
      if (typeof v !== 'number') throw typeError(s, v, walk);
      return v;
    case 'boolean':
      if (typeof v !== 'boolean') throw typeError(s, v, walk);
      return v;
    case 'time':
      if (typeof v !== 'string') throw typeError(s, v, walk);
      return normalizeTime(v, s.precision);
    case 'int-or-string':
      if (typeof v === 'string') return v;
      if (typeof v === 'number' && Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX) return v;
      throw typeError(s, v, walk);
    case 'quantity':
      // Kubernetes re-prints every quantity in its canonical form (0.5 → 500m, 1024Mi → 1Gi).
      if (typeof v === 'string' || typeof v === 'number') return canonical(String(v));
      throw typeError(s, v, walk);
    case 'raw':
      return v;
    case 'map': {
      if (typeof v !== 'object' || Array.isArray(v)) throw typeError(s, v, walk);
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        // Map keys join the path with a dot, as Kubernetes' strict decoding names them.
        out[k] = decode(s.values, item, path ? `${path}.${k}` : k, walk);
      }
      return out;
    }
    case 'list': {
      if (!Array.isArray(v)) throw typeError(s, v, walk);
      return v.map((item, i) => decode(s.items, item, `${path}[${i}]`, walk));
    }
    case 'object':
      return decodeStruct(s, v, path, walk);
  }
}

function decodeStruct(s: StructSchema, v: unknown, path: string, walk: Walk): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw typeError(s, v, walk);
  const input = v as Record<string, unknown>;
  const outerStruct = walk.goStruct;
  walk.goStruct = structName(s);
  // The input's order, as Go's decoder reads the document: problems are found in that order.
  const decoded = new Map<string, unknown>();
  const preserved: [string, unknown][] = [];
  for (const name of Object.keys(input)) {
    const fieldPath = path ? `${path}.${name}` : name;
    if (!Object.prototype.hasOwnProperty.call(s.fields, name)) {
      if (s.preserveUnknownFields) preserved.push([name, input[name]]);
      else walk.unknown.push(fieldPath);
      continue;
    }
    walk.goPath.push(name);
    decoded.set(name, decodeField(s.fields[name] as FieldSpec, input[name], fieldPath, walk));
    walk.goPath.pop();
  }
  // The schema's order for the output, so every object prints its fields as Go would.
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(s.fields)) {
    let value: unknown;
    if (decoded.has(name)) value = decoded.get(name);
    else {
      walk.goPath.push(name);
      value = decodeField(spec, undefined, path ? `${path}.${name}` : name, walk);
      walk.goPath.pop();
    }
    if (value !== OMIT) out[name] = value;
  }
  for (const [name, value] of preserved) out[name] = value;
  walk.goStruct = outerStruct;
  return out;
}

const OMIT = Symbol('omit');

function decodeField(spec: FieldSpec, v: unknown, path: string, walk: Walk): unknown {
  const absent = v === null || v === undefined;
  if (absent) {
    if (spec.presence !== 'always') return OMIT;
    return zeroValue(spec.schema, walk);
  }
  const value = decode(spec.schema, v, path, walk);
  if (spec.presence === 'omitempty' && isEmpty(value)) return OMIT;
  return value;
}

/** A Quantity is stored and printed in its canonical form, as Go re-encodes it; text that is none is a DecodeError. */
function canonical(text: string): string {
  try {
    return canonicalQuantity(text);
  } catch (e) {
    if (e instanceof QuantityError) throw new DecodeError(e.message);
    throw e;
  }
}

function firstBadBase64Byte(s: string): number {
  for (let i = 0; i < s.length; i++) {
    if (!/[A-Za-z0-9+/=]/.test(s[i] as string)) return i;
  }
  return s.length - (s.length % 4);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Re-formats an RFC 3339 time in UTC as Go's metav1.Time (seconds) or MicroTime prints it. */
export function normalizeTime(v: string, precision: 'seconds' | 'micro'): string {
  const m = RFC3339.exec(v);
  const ms = m ? Date.parse(v) : NaN;
  if (!m || Number.isNaN(ms)) {
    throw new DecodeError(`parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as a time`);
  }
  const base = new Date(ms).toISOString().slice(0, 19);
  if (precision === 'seconds') return `${base}Z`;
  const frac = ((m[7] ?? '.0').slice(1) + '000000').slice(0, 6);
  return `${base}.${frac}Z`;
}
