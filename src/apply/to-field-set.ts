/**
 * The set of fields a value sets: every scalar, every atomic list or map, every list item, every
 * map entry that is not a named struct field, and struct fields holding null or an empty object.
 * Named struct fields with content are implied by the paths below them. Pure.
 */
import { FieldSet } from './field-set.js';
import { elementKey, pe, type PathElement } from './path.js';
import { atomOf, DEDUCED, entryType, isNamedField, ListItemError, listItemElement, type TypeRef } from './schema-view.js';
import { isObject } from './value.js';

export function toFieldSet(type: TypeRef, value: unknown): FieldSet {
  const set = new FieldSet();
  walk(type, value, [], set);
  return set;
}

function walk(type: TypeRef, value: unknown, path: PathElement[], set: FieldSet): void {
  const atom = atomOf(type, value);
  if (atom.kind === 'scalar' || atom.atomic) {
    set.insert(path);
    return;
  }
  if (atom.kind === 'list') {
    if (!Array.isArray(value)) return;
    const elements = value.map((item) => {
      try {
        return listItemElement(atom, item);
      } catch (e) {
        if (e instanceof ListItemError) return undefined;
        throw e;
      }
    });
    const counts = new Map<string, number>();
    for (const e of elements) if (e) counts.set(elementKey(e), (counts.get(elementKey(e)) ?? 0) + 1);
    elements.forEach((e, i) => {
      if (!e) return;
      const p = [...path, e];
      // Duplicated items cannot be told apart: each is owned as a whole, never field by field.
      if ((counts.get(elementKey(e)) ?? 0) < 2) walk(atom.element, value[i], p, set);
      set.insert(p);
    });
    return;
  }
  if (!isObject(value)) return;
  for (const [k, v] of Object.entries(value)) {
    const e = pe.field(k);
    const p = [...path, e];
    const child = entryType(atom, k);
    // A field the schema does not declare (only possible in stored data) is read as untyped.
    walk(child ?? DEDUCED, v, p, set);
    if (v === null || (isObject(v) && Object.keys(v).length === 0) || !isNamedField(atom, e)) set.insert(p);
  }
}
