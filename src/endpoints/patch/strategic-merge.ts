/**
 * Strategic merge patch (`application/strategic-merge-patch+json`): a JSON merge patch whose lists
 * follow the schema. A list declared `patchStrategy: merge` merges item by item (objects matched
 * by `patchMergeKey`, primitives as a set); other lists are replaced. Directives in the patch:
 * - `$patch: replace` (object: replace it whole; list item: replace the list with the other items),
 *   `$patch: delete` (object: remove it; list item: remove the items with its merge key);
 *   `$patch: merge` is refused, as Kubernetes refuses it;
 * - `$retainKeys: [...]` clears the keys of an object that the list does not name;
 * - `$setElementOrder/<list>: [...]` orders the merged list;
 * - `$deleteFromPrimitiveList/<list>: [...]` removes values from a list of primitives;
 * - `null` removes a field.
 * The semantics are those of Kubernetes' strategicpatch package applying a patch on the server.
 *
 * Pure: works on copies of the original and the patch. Throws StrategicMergeError.
 */
import type { Schema } from '../../schema/dsl.js';
import { smpErrors, StrategicMergeError } from './strategic-errors.js';
import { fieldMeta, itemSchema, typeName } from './strategic-meta.js';
import { findByKey, isObject, normalizeElementOrder, partition, type ItemIdentity, type JsonObject } from './strategic-order.js';

export { StrategicMergeError };

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

/** Applies a strategic merge patch to an object described by `schema`. */
export function applyStrategicMergePatch(original: unknown, patch: JsonObject, schema: Schema | undefined): JsonObject {
  const base = isObject(original) ? (structuredClone(original) as JsonObject) : {};
  return mergeMap(base, structuredClone(patch), schema);
}

/** The list field a `$prefix/field` key names; 400 when the key is not written that way. */
function directiveTarget(key: string, prefix: string, malformed: () => StrategicMergeError): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) throw malformed();
  return key.slice(slash + 1);
}

/** Drops list items and object values that carry `$patch` (nothing to merge them with). Mutates. */
function removeDirectives(v: unknown): { keep: boolean; value: unknown } {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const item of v) {
      const r = removeDirectives(item);
      if (r.keep) out.push(r.value);
    }
    return { keep: true, value: out };
  }
  if (isObject(v)) {
    if (Object.prototype.hasOwnProperty.call(v, DIRECTIVE)) return { keep: false, value: undefined };
    for (const [k, item] of Object.entries(v)) {
      const r = removeDirectives(item);
      if (r.keep) v[k] = r.value;
      else delete v[k];
    }
  }
  return { keep: true, value: v };
}

/** Removes null-valued keys at every depth: a null that matches nothing deletes nothing. Mutates. */
function discardNulls(v: unknown): void {
  if (Array.isArray(v)) {
    for (const item of v) discardNulls(item);
  } else if (isObject(v)) {
    for (const [k, item] of Object.entries(v)) {
      if (item === null) delete v[k];
      else discardNulls(item);
    }
  }
}

/** A patch value for a key the original lacks (or holds with another type): taken as written, cleaned. */
function setFromPatch(original: JsonObject, key: string, value: unknown): void {
  discardNulls(value);
  const r = removeDirectives(value);
  if (r.keep) original[key] = r.value;
  else delete original[key];
}

function kindOf(v: unknown): 'object' | 'list' | 'scalar' {
  if (Array.isArray(v)) return 'list';
  return isObject(v) ? 'object' : 'scalar';
}

function mergeMap(original: JsonObject, patch: JsonObject, schema: Schema | undefined): JsonObject {
  if (Object.prototype.hasOwnProperty.call(patch, DIRECTIVE)) {
    const directive = patch[DIRECTIVE];
    if (directive === 'replace') {
      delete patch[DIRECTIVE];
      return patch;
    }
    if (directive === 'delete') return {};
    throw smpErrors.badPatchType(directive, patch);
  }
  applyRetainKeys(original, patch);
  applySetElementOrder(original, patch, schema);

  for (const [patchKey, patchValue] of Object.entries(patch)) {
    let key = patchKey;
    let deleteList = false;
    if (patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      key = directiveTarget(patchKey, DELETE_FROM_PRIMITIVE_LIST, smpErrors.badPrimitiveList);
      deleteList = true;
    }
    if (patchValue === null) {
      delete original[key];
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(original, key) || kindOf(original[key]) !== kindOf(patchValue)) {
      // Nothing to merge with: a deletion list deletes nothing, anything else is taken as written.
      if (!deleteList) setFromPatch(original, key, patchValue);
      continue;
    }
    const meta = fieldMeta(schema, key);
    const current = original[key];
    if (isObject(current)) {
      original[key] = meta.strategy === 'replace' ? patchValue : mergeMap(current, patchValue as JsonObject, meta.schema);
    } else if (Array.isArray(current)) {
      original[key] = mergeListField(current, patchValue as unknown[], itemSchema(meta.schema), meta.strategy, meta.mergeKey, deleteList);
    } else {
      original[key] = patchValue;
    }
  }
  return original;
}

/** `$retainKeys`: every key the patch sets must be listed; keys of the original not listed go. */
function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!Object.prototype.hasOwnProperty.call(patch, RETAIN_KEYS)) return;
  const retain = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(retain)) throw smpErrors.badRetainKeys();
  const kept = new Set<unknown>(retain);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!kept.has(k)) throw smpErrors.badRetainKeys();
  }
  for (const k of Object.keys(original)) if (!kept.has(k)) delete original[k];
}

/**
 * `$setElementOrder/<list>`: merges the list named (with the patch's list of that name, if any)
 * and orders the result by the directive; both keys leave the patch.
 */
function applySetElementOrder(original: JsonObject, patch: JsonObject, schema: Schema | undefined): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw smpErrors.expectedList(order);
    const field = directiveTarget(key, SET_ELEMENT_ORDER, smpErrors.badSetElementOrder);
    const hasOriginal = Object.prototype.hasOwnProperty.call(original, field);
    const hasPatch = Object.prototype.hasOwnProperty.call(patch, field);
    const originalList = hasOriginal ? original[field] : undefined;
    const patchList = hasPatch ? patch[field] : undefined;
    if (hasOriginal && !Array.isArray(originalList)) throw smpErrors.expectedList(originalList);
    if (hasPatch && !Array.isArray(patchList)) throw smpErrors.expectedList(patchList);
    const meta = fieldMeta(schema, field);
    const items = itemSchema(meta.schema);
    checkOrderCoversPatch((patchList as unknown[] | undefined) ?? [], order, meta.mergeKey);

    let merged: unknown[];
    if (hasOriginal && hasPatch) merged = mergeListField(originalList as unknown[], patchList as unknown[], items, meta.strategy, meta.mergeKey, false);
    else if (hasOriginal) merged = originalList as unknown[];
    else if (hasPatch) merged = removeDirectives(patchList).value as unknown[];
    else continue;

    const maps = elementKind((originalList as unknown[] | undefined) ?? [], (patchList as unknown[] | undefined) ?? []) === 'object';
    const id: ItemIdentity = { maps, mergeKey: meta.mergeKey };
    const [named, others] = partition(merged, order, id);
    original[field] = normalizeElementOrder(named, others, order, (originalList as unknown[] | undefined) ?? [], id);
    delete patch[field];
  }
}

/**
 * The patch list, less its deletions, must name its items in the directive's order (the directive
 * may name more). Directive markers are skipped.
 */
function checkOrderCoversPatch(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (!patchList.length || !order.length) return;
  const items = mergeKey
    ? patchList.filter((v) => {
        if (!isObject(v)) throw smpErrors.expectedMap(v);
        return v[DIRECTIVE] !== 'delete';
      })
    : patchList;
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    const item = items[p];
    if (isObject(item) && Object.prototype.hasOwnProperty.call(item, DIRECTIVE)) {
      p++;
      continue;
    }
    if (sameItem(item, order[o], mergeKey)) p++;
    o++;
  }
  if (p < items.length) throw smpErrors.orderMismatch(patchList, order);
}

function sameItem(a: unknown, b: unknown, mergeKey: string): boolean {
  if (!mergeKey) return a === b;
  if (!isObject(a)) throw smpErrors.expectedMap(a);
  if (!isObject(b)) throw smpErrors.expectedMap(b);
  if (!Object.prototype.hasOwnProperty.call(a, mergeKey)) throw smpErrors.noMergeKey(a, mergeKey);
  if (!Object.prototype.hasOwnProperty.call(b, mergeKey)) throw smpErrors.noMergeKey(b, mergeKey);
  return a[mergeKey] === b[mergeKey];
}

/** What the items of the lists are: objects or primitives. Lists of lists and mixed lists are refused. */
function elementKind(...lists: unknown[][]): 'object' | 'scalar' {
  let kind: string | undefined;
  for (const list of lists) {
    for (const v of list) {
      const k = v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v;
      if (kind === undefined) {
        if (k === 'list') throw smpErrors.listOfLists();
        kind = k;
      } else if (k !== kind) {
        throw smpErrors.mixedElements(lists);
      }
    }
  }
  if (kind === undefined) throw smpErrors.noElements();
  return kind === 'object' ? 'object' : 'scalar';
}

/** A list field: merged under `merge` (or as a deletion list), otherwise replaced by the patch. */
function mergeListField(original: unknown[], patch: unknown[], items: Schema | undefined, strategy: string, mergeKey: string, deleteList: boolean): unknown[] {
  if (strategy !== 'merge' && !deleteList) return patch;
  return mergeList(original, patch, items, mergeKey, deleteList);
}

function mergeList(original: unknown[], patch: unknown[], items: Schema | undefined, mergeKey: string, deleteList: boolean): unknown[] {
  if (!original.length && !patch.length) return original;
  const kind = elementKind(original, patch);
  let base = original;
  let rest = patch;
  let merged: unknown[];
  if (kind === 'scalar') {
    if (deleteList) {
      const gone = new Set(patch);
      return original.filter((v) => !gone.has(v));
    }
    // A set: each value once, in an order fixed below.
    merged = [...new Set([...original, ...patch])];
  } else {
    if (!mergeKey) throw smpErrors.noMergeKeyDeclared(typeName(items));
    [base, rest] = applyItemDirectives(original, patch, mergeKey);
    merged = mergeItems(base, rest, mergeKey, items);
  }
  const id: ItemIdentity = { maps: kind === 'object', mergeKey };
  const [named, others] = partition(merged, rest, id);
  return normalizeElementOrder(named, others, rest, base, id);
}

/**
 * Handles the list items that carry `$patch`: `delete` removes every original item with its merge
 * key; `replace` makes the other patch items the whole list. Returns the original and the patch
 * items left to merge.
 */
function applyItemDirectives(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  let base = original;
  const plain: unknown[] = [];
  let replace = false;
  for (const v of patch) {
    const item = v as JsonObject;
    if (!Object.prototype.hasOwnProperty.call(item, DIRECTIVE)) {
      plain.push(item);
      continue;
    }
    const directive = item[DIRECTIVE];
    if (directive === 'delete') {
      if (!Object.prototype.hasOwnProperty.call(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
      const value = item[mergeKey];
      base = base.filter((o, i) => {
        if (!isObject(o)) throw smpErrors.notAMap(i);
        return !(Object.prototype.hasOwnProperty.call(o, mergeKey) && o[mergeKey] === value);
      });
    } else if (directive === 'replace') {
      // Other directives in the list still count, so keep looking.
      replace = true;
    } else if (directive === 'merge') {
      throw smpErrors.mergeInList();
    } else {
      throw smpErrors.badPatchType(directive, item);
    }
  }
  return replace ? [plain, []] : [base, plain];
}

/** Merges each patch item into the original item with the same merge key, or appends it. */
function mergeItems(original: unknown[], patch: unknown[], mergeKey: string, items: Schema | undefined): unknown[] {
  const out = [...original];
  for (const v of patch) {
    const item = v as JsonObject;
    if (!Object.prototype.hasOwnProperty.call(item, mergeKey)) throw smpErrors.noMergeKey(item, mergeKey);
    const at = findByKey(out, mergeKey, item[mergeKey]);
    if (at >= 0) out[at] = mergeMap(out[at] as JsonObject, item, items);
    else out.push(item);
  }
  return out;
}
