/**
 * Brings a manager's field set in line with the current schema after a topology change: where a
 * list, map or struct became atomic, ownership of any of its parts becomes ownership of the whole,
 * so later changes by others conflict. The reverse change (atomic to granular) needs nothing: the
 * owner keeps the whole, and the parts have no owner to derive. Pure.
 */
import { FieldSet } from './field-set.js';
import type { Path } from './path.js';
import { atomOf, DEDUCED, entryType, type TypeRef } from './schema-view.js';

/** The reconciled set, or the same set when nothing changed. */
export function reconcileWithSchema(type: TypeRef, set: FieldSet): FieldSet {
  const toRemove = new FieldSet();
  const toAdd = new FieldSet();
  walk(type, set, [], false, toRemove, toAdd);
  if (toRemove.empty && toAdd.empty) return set;
  return set.recursiveDifference(toRemove).union(toAdd);
}

function walk(type: TypeRef, set: FieldSet | undefined, path: Path, ownedWhole: boolean, toRemove: FieldSet, toAdd: FieldSet): void {
  if (type === DEDUCED) return;
  const atom = atomOf(type, undefined);
  if (atom.kind === 'scalar') return;
  if (atom.atomic) {
    if (!ownedWhole && set && !set.empty) {
      toRemove.insert(path);
      toAdd.insert(path);
    }
    return;
  }
  if (!set) return;
  for (const { element, member, children } of set.elements()) {
    let child: TypeRef | undefined;
    if (atom.kind === 'map') child = element.kind === 'field' ? entryType(atom, element.name) : undefined;
    else child = element.kind === 'index' ? undefined : atom.element;
    if (child === undefined) continue;
    walk(child, children, [...path, element], member && !children, toRemove, toAdd);
  }
}
