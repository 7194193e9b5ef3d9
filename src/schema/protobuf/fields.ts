/**
 * What the codec needs of a schema: each struct's fields in field-number order (the order
 * Kubernetes' generated code writes them), a lookup by number for reading, and whether a schema can
 * be written in protobuf at all. Computed once per struct and kept beside it.
 *
 * Only types come from the schema layer, so machinery keeps depending on nothing above it.
 */
import type { FieldSpec, LazySchema, Schema, StructSchema } from '../dsl.js';

export type Resolved = Exclude<Schema, LazySchema>;

export function resolve(s: Schema): Resolved {
  let current = s;
  while (current.type === 'lazy') current = current.resolve();
  return current;
}

/** A field of a struct's message: one of its own, or a Go struct embedded without a name (its fields flat in JSON). */
export type ProtoEntry =
  | { readonly kind: 'field'; readonly name: string; readonly number: number; readonly spec: FieldSpec }
  | { readonly kind: 'embedded'; readonly number: number; readonly struct: StructSchema };

export interface StructTable {
  /** Entries with a number, ascending. */
  readonly ordered: readonly ProtoEntry[];
  readonly byNumber: ReadonlyMap<number, ProtoEntry>;
}

const tables = new WeakMap<StructSchema, StructTable>();

export function tableOf(s: StructSchema): StructTable {
  let table = tables.get(s);
  if (!table) {
    const entries: ProtoEntry[] = [];
    const embedded = new Set<StructSchema>();
    for (const [name, spec] of Object.entries(s.fields)) {
      if (spec.inline) {
        if (!embedded.has(spec.inline.struct)) entries.push({ kind: 'embedded', number: spec.inline.proto, struct: spec.inline.struct });
        embedded.add(spec.inline.struct);
      } else if (spec.proto !== undefined) {
        entries.push({ kind: 'field', name, number: spec.proto, spec });
      }
    }
    const ordered = entries.sort((a, b) => a.number - b.number);
    table = { ordered, byNumber: new Map(ordered.map((f) => [f.number, f])) };
    tables.set(s, table);
  }
  return table;
}

/**
 * Why a schema cannot be written in protobuf, as paths: a field without a number, two fields
 * sharing a number, or a struct that keeps fields it does not describe. Empty when it can. `kind`
 * and `apiVersion` without numbers are Go's inline TypeMeta, which protobuf leaves out (the
 * envelope carries the top level's; list items have none).
 */
export function protobufGaps(schema: StructSchema): string[] {
  const cached = gapsCache.get(schema);
  if (cached) return cached;
  const gaps: string[] = [];
  const seen = new Set<StructSchema>();
  const walk = (s: Schema, path: string): void => {
    const r = resolve(s);
    if (r.type === 'list') {
      const item = resolve(r.items).type;
      if (item === 'list' || item === 'map') gaps.push(`${path}: a list of ${item}s has no protobuf form`);
      return walk(r.items, `${path}[]`);
    }
    if (r.type === 'map') {
      if (resolve(r.values).type === 'map') gaps.push(`${path}: a map of maps has no protobuf form`);
      return walk(r.values, `${path}{}`);
    }
    if (r.type !== 'object' || seen.has(r)) return;
    seen.add(r);
    if (r.preserveUnknownFields) gaps.push(`${path || r.name}: keeps unknown fields`);
    const numbers = new Map<number, string>();
    const claim = (num: number, who: string, at: string): void => {
      const other = numbers.get(num);
      if (other !== undefined) gaps.push(`${at} (${r.name}): field number ${num} also used by ${other}`);
      numbers.set(num, who);
    };
    const embedded = new Set<StructSchema>();
    for (const [name, spec] of Object.entries(r.fields)) {
      const at = path ? `${path}.${name}` : name;
      if (spec.inline) {
        // The embedded struct is checked as a struct of its own; here only its number counts.
        const { proto, struct } = spec.inline;
        if (!embedded.has(struct)) {
          embedded.add(struct);
          claim(proto, `the embedded ${struct.name}`, at);
          walk(struct, path);
        }
        continue;
      }
      if (spec.proto === undefined) {
        if (name !== 'kind' && name !== 'apiVersion') gaps.push(`${at} (${r.name}): no protobuf field number`);
        continue;
      }
      claim(spec.proto, name, at);
      walk(spec.schema, at);
    }
  };
  walk(schema, '');
  gapsCache.set(schema, gaps);
  return gaps;
}

const gapsCache = new WeakMap<StructSchema, string[]>();
