/**
 * What changed between two values of one type, as three field sets: paths added, removed and
 * modified. Leaves (scalars, atomic lists and maps, containers empty on both sides) are compared
 * as values; granular maps and associative lists are compared entry by entry, and a container
 * appearing or disappearing is itself added or removed. Pure.
 */
import { FieldSet } from './field-set.js';
import { elementKey, pe, type PathElement } from './path.js';
import { atomOf, DEDUCED, entryType, ListItemError, listItemElement, type Atom, type TypeRef } from './schema-view.js';
import { isObject, valuesEqual } from './value.js';

export interface Comparison {
  added: FieldSet;
  removed: FieldSet;
  modified: FieldSet;
}

export function compareValues(type: TypeRef, lhs: unknown, rhs: unknown): Comparison {
  const c: Comparison = { added: new FieldSet(), removed: new FieldSet(), modified: new FieldSet() };
  walk(type, lhs, rhs, [], c);
  return c;
}

export function isSame(c: Comparison): boolean {
  return c.added.empty && c.removed.empty && c.modified.empty;
}

/** Leaves out the given fields and everything below them (fields a write does not own). */
export function excludeFields(c: Comparison, fields: FieldSet | undefined): Comparison {
  if (!fields || fields.empty) return c;
  return { added: c.added.recursiveDifference(fields), removed: c.removed.recursiveDifference(fields), modified: c.modified.recursiveDifference(fields) };
}

const isEmptyOrNull = (v: unknown): boolean =>
  v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);

function leaf(lhs: unknown, rhs: unknown, path: PathElement[], c: Comparison): void {
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
  else if (!valuesEqual(lhs, rhs)) c.modified.insert(path);
}

function walk(type: TypeRef, lhs: unknown, rhs: unknown, path: PathElement[], c: Comparison): void {
  if (lhs === undefined && rhs === undefined) return;
  const la = lhs === undefined ? undefined : atomOf(type, lhs);
  const ra = rhs === undefined ? undefined : atomOf(type, rhs);
  const atom = la && ra && la.kind !== ra.kind ? undefined : (ra ?? la);
  if (!atom || atom.kind === 'scalar' || atom.atomic || (isEmptyOrNull(lhs) && isEmptyOrNull(rhs))) return leaf(lhs, rhs, path, c);
  if (atom.kind === 'map') {
    const l = isObject(lhs) ? lhs : {};
    const r = isObject(rhs) ? rhs : {};
    if ((lhs !== undefined && lhs !== null && !isObject(lhs)) || (rhs !== undefined && rhs !== null && !isObject(rhs))) return leaf(lhs, rhs, path, c);
    for (const k of new Set([...Object.keys(l), ...Object.keys(r)])) {
      walk(entryType(atom, k) ?? DEDUCED, own(l, k), own(r, k), [...path, pe.field(k)], c);
    }
  } else {
    if ((lhs !== undefined && lhs !== null && !Array.isArray(lhs)) || (rhs !== undefined && rhs !== null && !Array.isArray(rhs))) return leaf(lhs, rhs, path, c);
    if (!compareList(atom, Array.isArray(lhs) ? lhs : [], Array.isArray(rhs) ? rhs : [], path, c)) return leaf(lhs, rhs, path, c);
  }
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
}

function own(o: Record<string, unknown>, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

/** Items grouped by key, in first-seen order; undefined when an item has no usable key. */
function group(atom: Extract<Atom, { kind: 'list' }>, items: unknown[], into: Map<string, { e: PathElement; l: unknown[]; r: unknown[] }>, side: 'l' | 'r'): boolean {
  for (const item of items) {
    let e: PathElement;
    try {
      e = listItemElement(atom, item);
    } catch (err) {
      if (err instanceof ListItemError) return false;
      throw err;
    }
    const key = elementKey(e);
    let g = into.get(key);
    if (!g) {
      g = { e, l: [], r: [] };
      into.set(key, g);
    }
    g[side].push(item);
  }
  return true;
}

function compareList(atom: Extract<Atom, { kind: 'list' }>, lhs: unknown[], rhs: unknown[], path: PathElement[], c: Comparison): boolean {
  const groups = new Map<string, { e: PathElement; l: unknown[]; r: unknown[] }>();
  if (!group(atom, lhs, groups, 'l') || !group(atom, rhs, groups, 'r')) return false;
  for (const { e, l, r } of groups.values()) {
    const p = [...path, e];
    if (l.length <= 1 && r.length <= 1) {
      walk(atom.element, l[0], r[0], p, c);
    } else if (l.length >= 2 && r.length >= 2) {
      // Duplicated items are compared as a whole.
      if (!valuesEqual(l, r)) c.modified.insert(p);
    } else if (l.length >= 2) {
      if (r.length) walk(atom.element, undefined, r[0], p, c);
      c.removed.insert(p);
    } else {
      if (l.length) walk(atom.element, l[0], undefined, p, c);
      c.added.insert(p);
    }
  }
  return true;
}
