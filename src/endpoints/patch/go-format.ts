/**
 * JSON values printed as Go prints the `interface{}` values its JSON decoder makes, for messages
 * that Kubernetes builds with `%v` (strategic merge patch errors, the patch in a Strict failure).
 */

/** Go's shortest `%v` of a float64: exponent form below 1e-4 and from 1e21, two-digit exponents. */
function goFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const s = String(n);
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

/** `%v` of a decoded JSON value: `map[k:v ...]` with sorted keys, `[a b]`, bare strings, `<nil>`. */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort();
    return `map[${keys.map((k) => `${k}:${goValue(o[k])}`).join(' ')}]`;
  }
  if (typeof v === 'number') return goFloat(v);
  return String(v);
}

/** Go's name of the dynamic type of a decoded JSON value, as `reflect.TypeOf` prints it. */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Number.isInteger(v) ? 'int64' : 'float64';
}
