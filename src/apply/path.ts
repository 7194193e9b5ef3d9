/**
 * Field paths: a path is a list of elements, each naming a struct or map field, a list item by its
 * key fields, a set item by its value, or (in atomic lists, as FieldsV1 allows) an index. Elements
 * have a canonical text, the FieldsV1 key (`f:name`, `k:{"name":"a"}`, `v:"x"`, `i:0`), which also
 * identifies them in sets. Pure.
 */
import { findTooDeep, tooDeepMessage } from '../machinery/codec/nesting.js';
import { goJson, isObject, isScalar, orderValues, valueToString, type JsonScalar } from './value.js';

export interface KeyField {
  readonly name: string;
  readonly value: JsonScalar;
}

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: JsonScalar }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

export const pe = {
  field: (name: string): PathElement => ({ kind: 'field', name }),
  /** Key fields are kept sorted by name, as their canonical text needs. */
  key: (fields: Readonly<Record<string, JsonScalar>>): PathElement => ({
    kind: 'key',
    fields: Object.keys(fields)
      .sort()
      .map((name) => ({ name, value: fields[name] as JsonScalar })),
  }),
  value: (value: JsonScalar): PathElement => ({ kind: 'value', value }),
  index: (index: number): PathElement => ({ kind: 'index', index }),
};

/** A path from dotted field names, for tests and fixed paths: `fieldPath('metadata', 'name')`. */
export function fieldPath(...names: string[]): Path {
  return names.map(pe.field);
}

const KIND_ORDER = { field: 0, key: 1, value: 2, index: 3 } as const;

/** Order of elements: fields, then keys, then values, then indices (structured-merge-diff's order). */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] < KIND_ORDER[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field': {
      const n = (b as { name: string }).name;
      return a.name < n ? -1 : a.name > n ? 1 : 0;
    }
    case 'key': {
      const bf = (b as { fields: readonly KeyField[] }).fields;
      for (let i = 0; i < Math.min(a.fields.length, bf.length); i++) {
        const x = a.fields[i] as KeyField;
        const y = bf[i] as KeyField;
        if (x.name !== y.name) return x.name < y.name ? -1 : 1;
        const c = orderValues(x.value, y.value);
        if (c !== 0) return c;
      }
      return a.fields.length === bf.length ? 0 : a.fields.length < bf.length ? -1 : 1;
    }
    case 'value':
      return orderValues(a.value, (b as { value: JsonScalar }).value);
    case 'index': {
      const i = (b as { index: number }).index;
      return a.index < i ? -1 : a.index > i ? 1 : 0;
    }
  }
}

/** The canonical text of an element: its FieldsV1 key. */
export function elementKey(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return `f:${e.name}`;
    case 'key':
      return `k:{${e.fields.map((f) => `${goJson(f.name)}:${goJson(f.value)}`).join(',')}}`;
    case 'value':
      return `v:${goJson(e.value)}`;
    case 'index':
      return `i:${e.index}`;
  }
}

export class PathElementError extends Error {}

/**
 * Reads a FieldsV1 key. Returns undefined for an unknown element type (a newer format we drop, as
 * structured-merge-diff does); throws PathElementError for a malformed one.
 */
export function parseElementKey(text: string): PathElement | undefined {
  if (text.length < 2 || text[1] !== ':') throw new PathElementError(`invalid path element ${JSON.stringify(text)}: missing type prefix`);
  const body = text.slice(2);
  switch (text[0]) {
    case 'f':
      return pe.field(body);
    case 'v': {
      const v = parseJson(text, body);
      if (!isScalar(v)) throw new PathElementError(`invalid path element ${JSON.stringify(text)}: a set value must be a scalar`);
      return pe.value(v);
    }
    case 'k': {
      const v = parseJson(text, body);
      if (!isObject(v)) throw new PathElementError(`invalid path element ${JSON.stringify(text)}: a key must be a JSON object`);
      const fields: Record<string, JsonScalar> = {};
      for (const [k, x] of Object.entries(v)) {
        if (!isScalar(x)) throw new PathElementError(`invalid path element ${JSON.stringify(text)}: key field ${k} is not a scalar`);
        fields[k] = x;
      }
      return pe.key(fields);
    }
    case 'i': {
      if (!/^-?\d+$/.test(body)) throw new PathElementError(`invalid path element ${JSON.stringify(text)}: not an index`);
      return pe.index(Number(body));
    }
    default:
      return undefined;
  }
}

function parseJson(text: string, body: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new PathElementError(`invalid path element ${JSON.stringify(text)}: not valid JSON`);
  }
  const tooDeep = findTooDeep(value);
  if (tooDeep) throw new PathElementError(`invalid path element ${JSON.stringify(text.slice(0, 64))}: ${tooDeepMessage(tooDeep)}`);
  return value;
}

/** An element as people read it in conflicts: `.name`, `[name="a",port=80]`, `[="x"]`, `[0]`. */
export function elementToString(e: PathElement): string {
  switch (e.kind) {
    case 'field':
      return `.${e.name}`;
    case 'key':
      return `[${e.fields.map((f) => `${f.name}=${valueToString(f.value)}`).join(',')}]`;
    case 'value':
      return `[=${valueToString(e.value)}]`;
    case 'index':
      return `[${e.index}]`;
  }
}

export function pathToString(p: Path): string {
  return p.map(elementToString).join('');
}
