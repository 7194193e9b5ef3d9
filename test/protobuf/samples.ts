/**
 * Test helper: sample objects made from a schema, so that every field of every kind is exercised
 * without hand-written fixtures. `full` sets every field to a distinctive non-zero value (maps and
 * lists with two entries); `zero` sets scalars to their zero values, which is where value and
 * pointer fields differ after a protobuf round trip.
 */
import { resolveSchema, type Schema, type StructSchema } from '../../src/schema/index.js';

export type SampleMode = 'full' | 'zero';

/** Recursive types (JSONSchemaProps) stop here. */
const MAX_DEPTH = 5;

export function sampleOf(schema: StructSchema, mode: SampleMode): Record<string, unknown> {
  return struct(schema, mode, 0, { n: 0 });
}

function struct(s: StructSchema, mode: SampleMode, depth: number, counter: { n: number }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (depth > MAX_DEPTH) return out;
  for (const [name, spec] of Object.entries(s.fields)) {
    // Fields without a protobuf number (the inline kind and apiVersion) travel only in envelopes.
    if (spec.proto === undefined) continue;
    const v = value(spec.schema, mode, depth, counter, name);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

function value(schema: Schema, mode: SampleMode, depth: number, counter: { n: number }, name: string): unknown {
  const s = resolveSchema(schema);
  const n = ++counter.n;
  const zero = mode === 'zero';
  switch (s.type) {
    case 'string':
      if (s.enum?.length) return zero ? '' : s.enum[n % s.enum.length];
      return zero ? '' : `${name}-${n}`;
    case 'integer':
      if (zero) return 0;
      return s.format === 'int32' ? (n % 2 ? n : -n) : 2 ** 40 + n;
    case 'number':
      return zero ? 0 : n + 0.5;
    case 'boolean':
      return !zero;
    case 'bytes':
      return zero ? '' : Buffer.from(`bytes ${n}`).toString('base64');
    case 'time':
      if (zero) return undefined;
      return s.precision === 'micro' ? `2024-05-06T07:08:${String(n % 60).padStart(2, '0')}.123456Z` : `2024-05-06T07:08:${String(n % 60).padStart(2, '0')}Z`;
    case 'int-or-string':
      if (zero) return 0;
      return n % 2 ? `port-${n}` : 8000 + n;
    case 'quantity':
      return zero ? '0' : `${n}00m`;
    case 'raw':
      if (zero) return undefined;
      return s.name === 'meta.v1.FieldsV1' ? { 'f:metadata': { 'f:labels': { [`f:k${n}`]: {} } } } : { sample: n, list: [1, 'two', null, true], nested: { ok: true } };
    case 'map':
      // Empty maps and lists have no protobuf form distinct from absent ones (in Go either).
      if (zero) return undefined;
      return { b: value(s.values, mode, depth + 1, counter, name), a: value(s.values, mode, depth + 1, counter, name) };
    case 'list':
      if (zero) return undefined;
      return [value(s.items, mode, depth + 1, counter, name), value(s.items, mode, depth + 1, counter, name)];
    case 'object':
      return struct(s, mode, depth + 1, counter);
  }
}
