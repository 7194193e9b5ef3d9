/**
 * Removing a set of fields from a value, and the helpers prune needs around it. Pure: returns new
 * values and sets.
 */
import { FieldSet } from './field-set.js';
import { pe, type Path, type PathElement } from './path.js';
import { atomOf, DEDUCED, entryType, isNamedField, ListItemError, listItemElement, type TypeRef } from './schema-view.js';
import { isObject } from './value.js';

/**
 * The value without the fields of `set`. A map or list this walks into and leaves empty becomes
 * null, as structured-merge-diff leaves it; decoding then treats it as unset.
 */
export function removeItems(type: TypeRef, value: unknown, set: FieldSet): unknown {
  if (set.empty) return value;
  const atom = atomOf(type, value);
  if (atom.kind === 'scalar' || atom.atomic) return value;
  if (atom.kind === 'map') {
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const e = pe.field(k);
      if (set.hasMember(e)) continue;
      const below = set.withPrefix(e);
      out[k] = below.empty ? v : removeItems(entryType(atom, k) ?? DEDUCED, v, below);
    }
    return Object.keys(out).length ? out : null;
  }
  if (!Array.isArray(value)) return value;
  const out: unknown[] = [];
  for (const item of value) {
    let e: PathElement;
    try {
      e = listItemElement(atom, item);
    } catch (err) {
      if (err instanceof ListItemError) {
        out.push(item);
        continue;
      }
      throw err;
    }
    if (set.hasMember(e)) continue;
    const below = set.withPrefix(e);
    out.push(below.empty ? item : removeItems(atom.element, item, below));
  }
  return out.length ? out : null;
}

/**
 * The set with every named struct field that has paths below it made a member too, so that
 * removing the set removes such fields whole (structured-merge-diff's EnsureNamedFieldsAreMembers).
 */
export function withNamedFieldsAsMembers(type: TypeRef, set: FieldSet): FieldSet {
  const extra = new FieldSet();
  collect(type, set, [], extra);
  return extra.empty ? set : set.union(extra);
}

function collect(type: TypeRef, set: FieldSet, prefix: Path, extra: FieldSet): void {
  // Untyped values have no named fields; their type cannot be known without the value.
  if (type === DEDUCED) return;
  const atom = atomOf(type, undefined);
  for (const { element, children } of set.elements()) {
    if (!children) continue;
    const p = [...prefix, element];
    if (isNamedField(atom, element)) extra.insert(p);
    let child: TypeRef | undefined;
    if (atom.kind === 'map' && element.kind === 'field') child = entryType(atom, element.name);
    else if (atom.kind === 'list' && element.kind === 'key') child = atom.element;
    if (child !== undefined) collect(child, children, p, extra);
  }
}
