/**
 * The schema DSL as server-side apply reads it: every value is a scalar, a list (atomic, or
 * associative: a set of scalars or a map keyed by fields) or a map (atomic or granular; a struct is
 * a map with named fields). Values without a schema (raw JSON, unknown fields kept by
 * preserveUnknownFields) are deduced from the value: objects are granular maps, lists are atomic.
 * Pure.
 */
import { resolveSchema, type FieldSpec, type ListSchema, type Schema, type StructSchema } from '../schema/dsl.js';
import { pe, type PathElement } from './path.js';
import { isObject, isScalar, type JsonScalar } from './value.js';

/** Where a value's type comes from: a schema, or the value itself. */
export const DEDUCED = Symbol('deduced');
export type TypeRef = Schema | typeof DEDUCED;

/** `any` is a whole JSON value of any shape taken as one leaf (Kubernetes' `__untyped_atomic_`). */
export type ScalarKind = 'numeric' | 'string' | 'boolean' | 'untyped' | 'any';

export type Atom =
  | { readonly kind: 'scalar'; readonly scalar: ScalarKind }
  | {
      readonly kind: 'list';
      readonly atomic: boolean;
      /** Key fields of a map list; empty for a set. */
      readonly keys: readonly string[];
      readonly element: TypeRef;
    }
  | {
      readonly kind: 'map';
      readonly atomic: boolean;
      /** Named fields of a struct; undefined for a plain map. */
      readonly fields: Readonly<Record<string, FieldSpec>> | undefined;
      /** The type of keys that are not named fields; undefined when a struct allows none. */
      readonly element: TypeRef | undefined;
    };

const DEDUCED_MAP: Atom = { kind: 'map', atomic: false, fields: undefined, element: DEDUCED };
const DEDUCED_LIST: Atom = { kind: 'list', atomic: true, keys: [], element: DEDUCED };
const UNTYPED: Atom = { kind: 'scalar', scalar: 'untyped' };
const UNTYPED_ATOMIC: Atom = { kind: 'scalar', scalar: 'any' };

function deduce(value: unknown): Atom {
  if (Array.isArray(value)) return DEDUCED_LIST;
  if (isObject(value)) return DEDUCED_MAP;
  return UNTYPED;
}

/** The list topology a schema gives: listType when set, else a `merge` patch strategy, else atomic. */
function listAtom(s: ListSchema): Atom {
  let atomic = true;
  let keys: readonly string[] = [];
  if (s.listType) {
    atomic = s.listType === 'atomic';
    if (s.listType === 'map') keys = s.listMapKeys ?? [];
  } else if (s.patchStrategy && s.patchStrategy.split(',').includes('merge')) {
    atomic = false;
    if (s.patchMergeKey) keys = [s.patchMergeKey];
  }
  return { kind: 'list', atomic, keys, element: s.items };
}

/** The atom of a type for a given value (the value matters only where the type is deduced). */
export function atomOf(ref: TypeRef, value?: unknown): Atom {
  if (ref === DEDUCED) return deduce(value);
  const s = resolveSchema(ref);
  switch (s.type) {
    case 'integer':
    case 'number':
      return { kind: 'scalar', scalar: 'numeric' };
    case 'boolean':
      return { kind: 'scalar', scalar: 'boolean' };
    case 'string':
    case 'bytes':
      return { kind: 'scalar', scalar: 'string' };
    case 'time':
    case 'int-or-string':
    case 'quantity':
      return UNTYPED;
    case 'raw':
      // Kubernetes' apply schema makes a RawExtension one atomic value (ControllerRevision.data is
      // replaced whole, never merged); other free-form JSON is deduced from its shape.
      return s.name === 'runtime.RawExtension' ? UNTYPED_ATOMIC : deduce(value);
    case 'map':
      return { kind: 'map', atomic: s.mapType === 'atomic', fields: undefined, element: s.values };
    case 'list':
      return listAtom(s);
    case 'object':
      return { kind: 'map', atomic: s.structType === 'atomic', fields: s.fields, element: s.preserveUnknownFields ? DEDUCED : undefined };
  }
}

/** The type of a map's entry: its named field's schema, else the element type. */
export function entryType(atom: Extract<Atom, { kind: 'map' }>, key: string): TypeRef | undefined {
  const field = atom.fields && Object.prototype.hasOwnProperty.call(atom.fields, key) ? atom.fields[key] : undefined;
  if (!field) return atom.element;
  return field.structType ? withStructType(field.schema, field.structType) : field.schema;
}

const overridden = new WeakMap<object, Map<string, StructSchema>>();

/**
 * The field's struct seen with the structType the field gives it. Only apply sees this copy; it is
 * made once per struct and topology, so atoms compare and cache as usual.
 */
function withStructType(ref: Schema, structType: NonNullable<FieldSpec['structType']>): Schema {
  const s = resolveSchema(ref);
  if (s.type !== 'object' || s.structType === structType || (structType === 'granular' && !s.structType)) return ref;
  const copies = overridden.get(s) ?? new Map<string, StructSchema>();
  overridden.set(s, copies);
  let copy = copies.get(structType);
  if (!copy) {
    copy = { ...s, structType };
    copies.set(structType, copy);
  }
  return copy;
}

export function isNamedField(atom: Atom, e: PathElement): boolean {
  return atom.kind === 'map' && e.kind === 'field' && !!atom.fields && Object.prototype.hasOwnProperty.call(atom.fields, e.name);
}

export class ListItemError extends Error {}

/** The default of a map list's key field, from the element struct's schema. */
function keyDefault(element: TypeRef, name: string): unknown {
  if (element === DEDUCED) return undefined;
  const s = resolveSchema(element);
  return s.type === 'object' ? s.fields[name]?.default : undefined;
}

/**
 * The path element of an item of an associative list: its key fields (absent ones take their
 * schema default or are left out) or, in a set, its value. Throws ListItemError for an item that
 * cannot be one.
 */
export function listItemElement(atom: Extract<Atom, { kind: 'list' }>, item: unknown): PathElement {
  if (atom.keys.length > 0) {
    if (item === null || item === undefined) throw new ListItemError('associative list with keys may not have a null element');
    if (!isObject(item)) throw new ListItemError('associative list with keys may not have non-map elements');
    const fields: Record<string, JsonScalar> = {};
    for (const k of atom.keys) {
      const v = Object.prototype.hasOwnProperty.call(item, k) ? item[k] : keyDefault(atom.element, k);
      if (v === undefined) continue;
      if (!isScalar(v)) throw new ListItemError(`associative list with keys has an element whose key field ${JSON.stringify(k)} is not a scalar`);
      fields[k] = v;
    }
    if (Object.keys(fields).length === 0) {
      throw new ListItemError(`associative list with keys has an element that omits all key fields ${JSON.stringify(atom.keys)} (and doesn't have default values for any key fields)`);
    }
    return pe.key(fields);
  }
  if (item === null || item === undefined) throw new ListItemError("associative list without keys has an element that's an explicit null");
  if (Array.isArray(item)) throw new ListItemError('not supported: associative list with lists as elements');
  if (isObject(item)) throw new ListItemError("associative list without keys has an element that's a map type");
  return pe.value(item as JsonScalar);
}
