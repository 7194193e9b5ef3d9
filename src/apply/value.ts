/**
 * Plain JSON values as the apply core sees them, with the total order, equality and printing that
 * field paths need. Numbers are JSON numbers: 1 and 1.0 are one value, as in structured-merge-diff.
 */
export type JsonScalar = null | boolean | number | string;
export type JsonValue = JsonScalar | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isScalar(v: unknown): v is JsonScalar {
  return v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string';
}

/** Rank of a value's type in the total order: numbers, strings, booleans, lists, maps, null. */
function rank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isObject(v)) return 4;
  return 5;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A total order over JSON values (used to sort set members and key fields). */
export function orderValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = orderValues(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).sort(compareStrings);
    const kb = Object.keys(b).sort(compareStrings);
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      const c = compareStrings(ka[i] as string, kb[i] as string) || orderValues(a[ka[i] as string], b[kb[i] as string]);
      if (c !== 0) return c;
    }
    return ka.length === kb.length ? 0 : ka.length < kb.length ? -1 : 1;
  }
  return 0;
}

/** Deep equality of JSON values; map key order does not matter. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && valuesEqual(a[k], b[k]));
  }
  return false;
}

/**
 * JSON text as Go's encoding/json writes it (HTML-safe escapes, sorted map keys), so that the
 * `k:` and `v:` keys of FieldsV1 read the same as a Kubernetes server's.
 */
export function goJson(v: unknown): string {
  if (typeof v === 'string') return goJsonString(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  if (isObject(v)) {
    return `{${Object.keys(v)
      .sort(compareStrings)
      .map((k) => `${goJsonString(k)}:${goJson(v[k])}`)
      .join(',')}}`;
  }
  if (v === undefined) return 'null';
  return JSON.stringify(v);
}

function goJsonString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A value as structured-merge-diff prints it inside a path: strings quoted, maps as `k=v`. */
export function valueToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  if (isObject(v)) return Object.entries(v).map(([k, x]) => `${k}=${valueToString(x)}`).join('');
  return String(v);
}
