/**
 * Which repeated keys of a typed body count as duplicate fields: Go's strict decoder notices a
 * repeat only where it decodes the key, that is a field the struct knows or a key of a map. Keys
 * inside unknown fields, raw JSON (RawExtension, FieldsV1) or kept-unknown content are never
 * decoded field by field, so their repeats go unnoticed.
 */
import { resolveSchema, type Schema } from './dsl.js';

type Segment = string | number;

/** The schema of the object at `container`, or undefined where the schema stops describing it. */
function schemaAt(root: Schema, container: readonly Segment[]): Schema | undefined {
  let s: Schema | undefined = root;
  for (const seg of container) {
    if (!s) return undefined;
    const r = resolveSchema(s);
    if (r.type === 'object') {
      if (typeof seg !== 'string' || !Object.prototype.hasOwnProperty.call(r.fields, seg)) return undefined;
      s = r.fields[seg]?.schema;
    } else if (r.type === 'map') {
      if (typeof seg !== 'string') return undefined;
      s = r.values;
    } else if (r.type === 'list') {
      if (typeof seg !== 'number') return undefined;
      s = r.items;
    } else {
      return undefined;
    }
  }
  return s;
}

/** Whether decoding a body with `root` would notice `key` repeated in the object at `container`. */
export function isDecodedKey(root: Schema, container: readonly Segment[], key: string): boolean {
  const s = schemaAt(root, container);
  if (!s) return false;
  const r = resolveSchema(s);
  if (r.type === 'map') return true;
  return r.type === 'object' && Object.prototype.hasOwnProperty.call(r.fields, key);
}
