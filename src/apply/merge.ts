/**
 * Merging an applied configuration (rhs) into a live object (lhs): where both set a leaf (a scalar,
 * an atomic list or map, or a container empty on both sides) the configuration wins; granular maps
 * merge by key and associative lists by item, keeping the live order and placing new items where
 * the configuration puts them. Pure: returns a new value, undefined when both sides are absent.
 */
import { elementKey, type PathElement } from './path.js';
import { atomOf, DEDUCED, entryType, ListItemError, listItemElement, type Atom, type TypeRef } from './schema-view.js';
import { isObject } from './value.js';

type ListAtom = Extract<Atom, { kind: 'list' }>;

/** The atom both sides share; undefined when they disagree (an untyped value changing shape). */
function sharedAtom(type: TypeRef, lhs: unknown, rhs: unknown): Atom | undefined {
  if (rhs === undefined) return atomOf(type, lhs);
  const r = atomOf(type, rhs);
  if (lhs === undefined) return r;
  const l = atomOf(type, lhs);
  return l.kind === r.kind && (l.kind === 'scalar' || l.atomic === (r as { atomic: boolean }).atomic) ? r : undefined;
}

const isEmptyOrNull = (v: unknown): boolean =>
  v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);

export function mergeValues(type: TypeRef, lhs: unknown, rhs: unknown): unknown {
  if (lhs === undefined && rhs === undefined) return undefined;
  const leaf = (): unknown => (rhs !== undefined ? structuredClone(rhs) : structuredClone(lhs));
  const atom = sharedAtom(type, lhs, rhs);
  if (!atom || atom.kind === 'scalar' || atom.atomic || (isEmptyOrNull(lhs) && isEmptyOrNull(rhs))) return leaf();
  if (atom.kind === 'map') {
    const l = isObject(lhs) ? lhs : lhs === null || lhs === undefined ? {} : undefined;
    const r = isObject(rhs) ? rhs : rhs === null || rhs === undefined ? {} : undefined;
    if (!l || !r) return leaf();
    const out: Record<string, unknown> = {};
    for (const k of new Set([...Object.keys(l), ...Object.keys(r)])) {
      const v = mergeValues(entryType(atom, k) ?? DEDUCED, own(l, k), own(r, k));
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  const l = Array.isArray(lhs) ? lhs : lhs === null || lhs === undefined ? [] : undefined;
  const r = Array.isArray(rhs) ? rhs : rhs === null || rhs === undefined ? [] : undefined;
  if (!l || !r) return leaf();
  return mergeList(atom, l, r) ?? leaf();
}

function own(o: Record<string, unknown>, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

interface Indexed {
  elements: PathElement[];
  keys: string[];
  /** First item per key; null when the key is duplicated (duplicates merge as a whole, not by field). */
  byKey: Map<string, unknown>;
}

function index(atom: ListAtom, items: unknown[]): Indexed | undefined {
  const out: Indexed = { elements: [], keys: [], byKey: new Map() };
  for (const item of items) {
    let e: PathElement;
    try {
      e = listItemElement(atom, item);
    } catch (err) {
      if (err instanceof ListItemError) return undefined;
      throw err;
    }
    const key = elementKey(e);
    out.byKey.set(key, out.byKey.has(key) ? null : item);
    out.elements.push(e);
    out.keys.push(key);
  }
  return out;
}

/**
 * Merges associative lists item by item. Items only in the live list keep their place; items of
 * the configuration come in its order, interleaved so that shared items keep the configuration's
 * relative order. Undefined when an item has no usable key (the caller then replaces the list).
 */
function mergeList(atom: ListAtom, lhs: unknown[], rhs: unknown[]): unknown[] | undefined {
  const L = index(atom, lhs);
  const R = index(atom, rhs);
  if (!L || !R) return undefined;
  const shared = R.keys.filter((k) => L.byKey.has(k));
  let nextShared = 0;
  const merged = new Set<string>();
  const out: unknown[] = [];
  const emit = (l: unknown, r: unknown): void => {
    const v = mergeValues(atom.element, l, r);
    if (v !== undefined) out.push(v);
  };
  let li = 0;
  let ri = 0;
  while (li < L.keys.length || ri < R.keys.length) {
    const lk = L.keys[li];
    const rk = R.keys[ri];
    if (lk !== undefined && rk !== undefined) {
      if (lk === rk) {
        merged.add(lk);
        emit(L.byKey.get(lk), R.byKey.get(rk));
        li++;
        ri++;
        if (shared[nextShared] === lk) nextShared++;
        continue;
      }
      if (R.byKey.has(lk) && shared[nextShared] !== lk) {
        // A shared item whose turn has not come: it is placed when the configuration reaches it.
        li++;
        continue;
      }
    }
    if (lk !== undefined) {
      if (!R.byKey.has(lk)) {
        emit(lhs[li], undefined);
        li++;
        continue;
      }
      if (merged.has(lk)) li++;
    }
    if (rk !== undefined) {
      merged.add(rk);
      emit(L.byKey.get(rk), R.byKey.get(rk));
      ri++;
      if (shared[nextShared] === rk) nextShared++;
    }
  }
  return out;
}
