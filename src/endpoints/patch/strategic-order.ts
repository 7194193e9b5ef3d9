/**
 * The order of a merged list in a strategic merge patch. Items named by the patch (or by its
 * `$setElementOrder` list) keep the patch's order; items only the server has keep theirs; the two
 * runs are interleaved so that each server-only item stays before the patch items that followed
 * it on the server. Items are matched by their merge key (lists of objects) or by value.
 */
import { smpErrors } from './strategic-errors.js';

export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How list items are told apart: by a merge key (lists of objects) or by their value. */
export interface ItemIdentity {
  maps: boolean;
  mergeKey: string;
}

function identity(item: unknown, id: ItemIdentity): unknown {
  if (!id.maps) return item;
  return isObject(item) ? item[id.mergeKey] : undefined;
}

/** Where an item with the same identity first appears in `list`, or -1. */
export function indexIn(list: readonly unknown[], item: unknown, id: ItemIdentity): number {
  const want = identity(item, id);
  return list.findIndex((x) => identity(x, id) === want);
}

/** Objects in `list` that have `mergeKey` set to `value`; errors on items that are not objects. */
export function findByKey(list: readonly unknown[], mergeKey: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!isObject(item)) throw smpErrors.notAMap(i);
    if (Object.prototype.hasOwnProperty.call(item, mergeKey) && item[mergeKey] === value) return i;
  }
  return -1;
}

/** Splits `merged` into the items `by` names and the others, keeping their order. */
export function partition(merged: readonly unknown[], by: readonly unknown[], id: ItemIdentity): [unknown[], unknown[]] {
  const named: unknown[] = [];
  const others: unknown[] = [];
  if (!id.maps || !id.mergeKey) {
    const inBy = new Set(by);
    for (const v of merged) (inBy.has(v) ? named : others).push(v);
    return [named, others];
  }
  for (const v of merged) {
    if (!isObject(v)) throw smpErrors.expectedMap(v);
    if (!Object.prototype.hasOwnProperty.call(v, id.mergeKey)) throw smpErrors.noMergeKey(v, id.mergeKey);
    (findByKey(by, id.mergeKey, v[id.mergeKey]) >= 0 ? named : others).push(v);
  }
  return [named, others];
}

function requireMergeKeys(mergeKey: string, ...lists: readonly unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isObject(item)) throw smpErrors.expectedMap(item);
      if (!Object.prototype.hasOwnProperty.call(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
    }
  }
}

/**
 * Sorts `items` by their position in `order`. Items `order` does not name are what Kubernetes'
 * sort meets only in odd patches; they are placed as its insertion sort places them.
 */
function sortByOrder(items: unknown[], order: readonly unknown[], id: ItemIdentity): unknown[] {
  const keyed = items.map((item) => ({ item, at: indexIn(order, item, id) }));
  if (keyed.every((k) => k.at >= 0)) return keyed.sort((a, b) => a.at - b.at).map((k) => k.item);
  const less = (a: { at: number }, b: { at: number }): boolean => (a.at >= 0 && b.at >= 0 ? a.at < b.at : true);
  for (let i = 1; i < keyed.length; i++) {
    for (let j = i; j > 0 && less(keyed[j] as { at: number }, keyed[j - 1] as { at: number }); j--) {
      [keyed[j], keyed[j - 1]] = [keyed[j - 1] as (typeof keyed)[number], keyed[j] as (typeof keyed)[number]];
    }
  }
  return keyed.map((k) => k.item);
}

function normalizeSliceOrder(toSort: unknown[], order: unknown[], id: ItemIdentity): unknown[] {
  if (!id.maps) return sortByOrder(toSort, order, id);
  requireMergeKeys(id.mergeKey, toSort, order);
  // Deletion markers carry no position; they go last.
  const kept = toSort.filter((v) => (v as JsonObject).$patch !== 'delete');
  const deletions = toSort.filter((v) => (v as JsonObject).$patch === 'delete');
  return [...sortByOrder(kept, order, id), ...deletions];
}

/**
 * Interleaves two sorted runs: takes the server-only item first only when the server had it
 * before the next patch item; otherwise the patch item.
 */
function mergeSorted(serverOnly: unknown[], patchItems: unknown[], serverOrder: readonly unknown[], id: ItemIdentity): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patchItems.length) {
    if (i >= serverOnly.length) out.push(patchItems[j++]);
    else if (j >= patchItems.length) out.push(serverOnly[i++]);
    else {
      const li = indexIn(serverOrder, serverOnly[i], id);
      const ri = indexIn(serverOrder, patchItems[j], id);
      if (li >= 0 && ri >= 0 && li < ri) out.push(serverOnly[i++]);
      else out.push(patchItems[j++]);
    }
  }
  return out;
}

/** The final order of a merged list: patch items by `patchOrder`, server-only items by `serverOrder`. */
export function normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  id: ItemIdentity,
): unknown[] {
  const p = normalizeSliceOrder(patchItems, patchOrder, id);
  const s = normalizeSliceOrder(serverOnly, serverOrder, id);
  return mergeSorted(s, p, serverOrder, id);
}
