/**
 * What the schema says about merging a field in a strategic merge patch: its patch strategies
 * (`merge`, `replace`, `retainKeys`) and, for lists of objects, the merge key. Where the schema
 * stops describing a value (raw JSON, map values without structure, unknown fields), nothing is
 * declared: objects still merge key by key and lists are replaced.
 */
import { resolveSchema, type Schema } from '../../schema/dsl.js';
import { smpErrors } from './strategic-errors.js';

export interface FieldPatchMeta {
  /** The field's own schema (for a list, the list), undefined where none is known. */
  schema: Schema | undefined;
  /** The strategy other than retainKeys (`merge`, `replace` or ''). */
  strategy: string;
  mergeKey: string;
}

const NONE: FieldPatchMeta = { schema: undefined, strategy: '', mergeKey: '' };

/** A field's strategies as Kubernetes splits the tag: retainKeys may stand beside one other. */
function mainStrategy(tag: string | undefined): string {
  const strategies = tag ? tag.split(',') : [];
  if (strategies.length <= 1) return strategies[0] === 'retainKeys' ? '' : (strategies[0] ?? '');
  if (strategies.length === 2 && strategies.includes('retainKeys')) return strategies.find((s) => s !== 'retainKeys') as string;
  throw smpErrors.badStrategy(strategies);
}

/** The merge rules of `key` inside a value described by `container`. */
export function fieldMeta(container: Schema | undefined, key: string): FieldPatchMeta {
  if (!container) return NONE;
  const c = resolveSchema(container);
  if (c.type === 'map') return { schema: c.values, strategy: '', mergeKey: '' };
  if (c.type !== 'object' || !Object.prototype.hasOwnProperty.call(c.fields, key)) return NONE;
  const spec = c.fields[key];
  if (!spec) return NONE;
  const s = resolveSchema(spec.schema);
  if (s.type === 'list') {
    return { schema: s, strategy: mainStrategy(s.patchStrategy ?? spec.patchStrategy), mergeKey: s.patchMergeKey ?? '' };
  }
  return { schema: s, strategy: mainStrategy(spec.patchStrategy), mergeKey: '' };
}

/** The schema of a list's items; an error when the schema says the field is not a list. */
export function itemSchema(list: Schema | undefined): Schema | undefined {
  if (!list) return undefined;
  const s = resolveSchema(list);
  if (s.type === 'list') return s.items;
  if (s.type === 'raw') return undefined;
  throw smpErrors.notAList(s.type === 'object' ? 'struct' : s.type);
}

/** A short name of the type a schema describes, for messages. */
export function typeName(s: Schema | undefined): string {
  if (!s) return 'interface';
  const r = resolveSchema(s);
  return r.type === 'object' ? r.name : r.type;
}
