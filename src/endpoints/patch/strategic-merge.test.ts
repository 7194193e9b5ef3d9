/**
 * Strategic merge patch semantics as data: an original, a patch and the result (or the error) per
 * case, one table per directive and one for the common merges. The test type mirrors the shapes
 * Kubernetes' own patch tests use: merging and replacing lists of objects and of primitives, a map,
 * a field with the replace strategy and structs with retainKeys.
 */
import { describe, expect, it } from 'vitest';
import { t, type Schema, type StructSchema } from '../../schema/dsl.js';
import { applyStrategicMergePatch, StrategicMergeError } from './strategic-merge.js';

const RetainItem: StructSchema = t.struct('test.RetainKeysItem', {
  name: t.field(1, t.string()),
  value: t.field(2, t.string()),
  other: t.field(3, t.string()),
  simpleMap: t.field(4, t.map(t.string())),
  mergingIntList: t.field(5, t.list(t.int64(), { patchStrategy: 'merge' })),
  mergingList: t.field(6, t.list(t.lazy(() => Item), { patchStrategy: 'merge', patchMergeKey: 'name' })),
  nonMergingList: t.field(7, t.list(t.lazy(() => Item))),
});

const Item: StructSchema = t.struct('test.MergeItem', {
  name: t.field(1, t.string()),
  value: t.field(2, t.string()),
  other: t.field(3, t.string()),
  mergingList: t.field(4, t.list(t.lazy(() => Item), { patchStrategy: 'merge', patchMergeKey: 'name' })),
  nonMergingList: t.field(5, t.list(t.lazy(() => Item))),
  mergingIntList: t.field(6, t.list(t.int64(), { patchStrategy: 'merge' })),
  nonMergingIntList: t.field(7, t.list(t.int64())),
  mergeItemPtr: t.field(8, t.lazy(() => Item), { pointer: true }),
  simpleMap: t.field(9, t.map(t.string())),
  replacingItem: t.field(10, t.raw(), { patchStrategy: 'replace' }),
  retainKeysMap: t.field(11, RetainItem, { patchStrategy: 'retainKeys' }),
  retainKeysMergingList: t.field(12, t.list(t.lazy(() => Item), { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' })),
  raw: t.field(13, t.raw()),
});

interface Case {
  name: string;
  original: Record<string, unknown>;
  patch: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { status: 400 | 422; message: string | RegExp };
}

function run(c: Case, schema: Schema = Item): void {
  const original = structuredClone(c.original);
  const patch = structuredClone(c.patch);
  if (c.error) {
    let thrown: unknown;
    try {
      applyStrategicMergePatch(original, patch, schema);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(StrategicMergeError);
    const err = thrown as StrategicMergeError;
    expect(err.status).toBe(c.error.status);
    if (typeof c.error.message === 'string') expect(err.message).toBe(c.error.message);
    else expect(err.message).toMatch(c.error.message);
    return;
  }
  expect(applyStrategicMergePatch(original, patch, schema)).toEqual(c.result);
  // Pure: neither input changes.
  expect(original).toEqual(c.original);
  expect(patch).toEqual(c.patch);
}

function table(title: string, cases: Case[]): void {
  describe(title, () => {
    it.each(cases.map((c) => [c.name, c] as const))('%s', (_, c) => run(c));
  });
}

table('fields and maps', [
  { name: 'adds and changes fields', original: { name: 'a', value: '1' }, patch: { value: '2', other: 'x' }, result: { name: 'a', value: '2', other: 'x' } },
  { name: 'an empty patch changes nothing', original: { name: 'a', simpleMap: { k: 'v' } }, patch: {}, result: { name: 'a', simpleMap: { k: 'v' } } },
  { name: 'null removes a field', original: { name: 'a', value: '1' }, patch: { value: null }, result: { name: 'a' } },
  { name: 'null for an absent field adds nothing', original: { name: 'a' }, patch: { value: null }, result: { name: 'a' } },
  {
    name: 'maps merge key by key, null removing a key',
    original: { simpleMap: { a: '1', b: '2' } },
    patch: { simpleMap: { b: null, c: '3' } },
    result: { simpleMap: { a: '1', c: '3' } },
  },
  {
    name: 'an object the original lacks is taken as written, less its nulls',
    original: {},
    patch: { mergeItemPtr: { name: 'p', value: null, simpleMap: { a: null, b: '2' } } },
    result: { mergeItemPtr: { name: 'p', simpleMap: { b: '2' } } },
  },
  {
    name: 'a new list keeps its items, less those carrying directives',
    original: {},
    patch: { mergingList: [{ name: 'a' }, { name: 'b', $patch: 'delete' }] },
    result: { mergingList: [{ name: 'a' }] },
  },
  { name: 'a value of another type replaces the original', original: { simpleMap: { a: '1' } }, patch: { simpleMap: 'text' }, result: { simpleMap: 'text' } },
  {
    name: 'raw JSON without a strategy merges as plain objects',
    original: { raw: { a: { x: 1 }, b: [1, 2] } },
    patch: { raw: { a: { y: 2 }, b: [3] } },
    result: { raw: { a: { x: 1, y: 2 }, b: [3] } },
  },
  {
    name: 'a field with the replace strategy is replaced whole',
    original: { replacingItem: { a: 1, b: { c: 2 } } },
    patch: { replacingItem: { b: { d: 3 } } },
    result: { replacingItem: { b: { d: 3 } } },
  },
  {
    name: 'unknown keys and unknown $-keys are kept for field validation to report',
    original: { name: 'a' },
    patch: { bogus: 1, $foo: 'x' },
    result: { name: 'a', bogus: 1, $foo: 'x' },
  },
]);

table('$patch on objects', [
  { name: 'delete empties the object', original: { simpleMap: { a: '1' }, name: 'n' }, patch: { simpleMap: { $patch: 'delete' } }, result: { simpleMap: {}, name: 'n' } },
  {
    name: 'replace takes the patch object instead of merging',
    original: { mergeItemPtr: { name: 'a', value: '1', other: 'o' } },
    patch: { mergeItemPtr: { $patch: 'replace', name: 'b' } },
    result: { mergeItemPtr: { name: 'b' } },
  },
  { name: 'replace at the top replaces everything', original: { name: 'a', value: '1' }, patch: { $patch: 'replace', other: 'x' }, result: { other: 'x' } },
  { name: 'delete at the top leaves an empty object', original: { name: 'a', value: '1' }, patch: { $patch: 'delete' }, result: {} },
  { name: 'a directive for an absent object adds nothing', original: {}, patch: { mergeItemPtr: { $patch: 'replace', name: 'b' } }, result: {} },
  { name: 'merge is refused', original: { simpleMap: { a: '1' } }, patch: { simpleMap: { $patch: 'merge' } }, error: { status: 422, message: 'unknown patch type: merge in map: map[$patch:merge]' } },
  { name: 'an unknown directive is refused', original: { simpleMap: {} }, patch: { simpleMap: { $patch: 'frob', x: '1' } }, error: { status: 422, message: 'unknown patch type: frob in map: map[$patch:frob x:1]' } },
]);

table('lists without a merge strategy', [
  { name: 'a list of objects is replaced', original: { nonMergingList: [{ name: 'a' }, { name: 'b' }] }, patch: { nonMergingList: [{ name: 'c' }] }, result: { nonMergingList: [{ name: 'c' }] } },
  { name: 'a list of primitives is replaced', original: { nonMergingIntList: [1, 2, 3] }, patch: { nonMergingIntList: [3, 4] }, result: { nonMergingIntList: [3, 4] } },
  { name: 'an empty list empties it', original: { nonMergingIntList: [1, 2] }, patch: { nonMergingIntList: [] }, result: { nonMergingIntList: [] } },
  { name: 'null removes it', original: { nonMergingIntList: [1, 2] }, patch: { nonMergingIntList: null }, result: {} },
]);

table('merging lists of primitives', [
  { name: 'values are united as a set', original: { mergingIntList: [1, 2] }, patch: { mergingIntList: [2, 3] }, result: { mergingIntList: [1, 2, 3] } },
  { name: 'repeated values collapse', original: { mergingIntList: [1, 1, 2] }, patch: { mergingIntList: [2, 2, 3] }, result: { mergingIntList: [1, 2, 3] } },
  { name: 'the patch order wins for the values it names', original: { mergingIntList: [1, 2, 3] }, patch: { mergingIntList: [3, 1, 2] }, result: { mergingIntList: [3, 1, 2] } },
  { name: 'server-only values keep their place before the patch values', original: { mergingIntList: [1, 2, 3] }, patch: { mergingIntList: [3, 1] }, result: { mergingIntList: [2, 3, 1] } },
  { name: 'an empty patch list changes nothing', original: { mergingIntList: [1, 2] }, patch: { mergingIntList: [] }, result: { mergingIntList: [1, 2] } },
  { name: 'a list of lists is refused', original: { mergingIntList: [1] }, patch: { mergingIntList: [[2]] }, error: { status: 422, message: 'list element types are not identical: [[1] [[2]]]' } },
  { name: 'a list starting with a list is refused', original: { mergingIntList: [] }, patch: { mergingIntList: [[2]] }, error: { status: 422, message: 'lists of lists are not supported' } },
  {
    name: 'a replace directive among primitives is refused (mixed element types)',
    original: { mergingIntList: [1, 2] },
    patch: { mergingIntList: [{ $patch: 'replace' }, 3] },
    error: { status: 422, message: /^list element types are not identical/ },
  },
]);

table('merging lists of objects', [
  {
    name: 'items merge by key and new ones are added',
    original: { mergingList: [{ name: 'a', value: '1' }, { name: 'b', value: '2' }] },
    patch: { mergingList: [{ name: 'b', other: 'x' }, { name: 'c', value: '3' }] },
    result: { mergingList: [{ name: 'a', value: '1' }, { name: 'b', value: '2', other: 'x' }, { name: 'c', value: '3' }] },
  },
  {
    // Kubernetes places items the server does not know before the server's own, unless a
    // $setElementOrder list (which kubectl sends) says where they go.
    name: 'a new item goes first when the patch names no server item',
    original: { mergingList: [{ name: 'a' }, { name: 'b' }] },
    patch: { mergingList: [{ name: 'c' }] },
    result: { mergingList: [{ name: 'c' }, { name: 'a' }, { name: 'b' }] },
  },
  { name: 'a new value goes first too', original: { mergingIntList: [1, 2] }, patch: { mergingIntList: [3] }, result: { mergingIntList: [3, 1, 2] } },
  {
    name: 'the patch order holds for the items it names',
    original: { mergingList: [{ name: '1' }, { name: '2', value: 'b' }, { name: '3' }] },
    patch: { mergingList: [{ name: '3', value: 'c' }, { name: '1', value: 'a' }, { name: '2', other: 'x' }] },
    result: { mergingList: [{ name: '3', value: 'c' }, { name: '1', value: 'a' }, { name: '2', value: 'b', other: 'x' }] },
  },
  {
    name: 'server-only items keep their place',
    original: { mergingList: [{ name: '1' }, { name: '2', value: 'b' }, { name: '3' }] },
    patch: { mergingList: [{ name: '3', value: 'c' }, { name: '1', value: 'a' }] },
    result: { mergingList: [{ name: '2', value: 'b' }, { name: '3', value: 'c' }, { name: '1', value: 'a' }] },
  },
  {
    name: 'null removes a field of an item',
    original: { mergingList: [{ name: 'a', value: '1', other: 'o' }] },
    patch: { mergingList: [{ name: 'a', value: null }] },
    result: { mergingList: [{ name: 'a', other: 'o' }] },
  },
  {
    name: 'lists inside items merge or replace by their own strategy',
    original: { mergingList: [{ name: 'a', mergingList: [{ name: 'x', value: '1' }], nonMergingList: [{ name: 'p' }] }] },
    patch: { mergingList: [{ name: 'a', mergingList: [{ name: 'x', other: '2' }, { name: 'y' }], nonMergingList: [{ name: 'q' }] }] },
    result: { mergingList: [{ name: 'a', mergingList: [{ name: 'x', value: '1', other: '2' }, { name: 'y' }], nonMergingList: [{ name: 'q' }] }] },
  },
  {
    name: 'a merge list nested in a replaced list is replaced with it',
    original: { nonMergingList: [{ name: 'a', mergingList: [{ name: 'x' }] }] },
    patch: { nonMergingList: [{ name: 'a', mergingList: [{ name: 'y' }] }] },
    result: { nonMergingList: [{ name: 'a', mergingList: [{ name: 'y' }] }] },
  },
  { name: 'an empty patch list changes nothing', original: { mergingList: [{ name: 'a' }] }, patch: { mergingList: [] }, result: { mergingList: [{ name: 'a' }] } },
  { name: 'both empty stays empty', original: { mergingList: [] }, patch: { mergingList: [] }, result: { mergingList: [] } },
  {
    name: 'an item without the merge key is refused',
    original: { mergingList: [{ name: 'a', value: '1' }] },
    patch: { mergingList: [{ value: 'b' }] },
    error: { status: 422, message: 'map: map[value:b] does not contain declared merge key: name' },
  },
]);

table('$patch in list items', [
  {
    name: 'delete removes every item with the key',
    original: { mergingList: [{ name: '1' }, { name: '1' }, { name: '2', value: 'a' }, { name: '3' }, { name: '3' }] },
    patch: { mergingList: [{ name: '1', $patch: 'delete' }, { name: '3', $patch: 'delete' }] },
    result: { mergingList: [{ name: '2', value: 'a' }] },
  },
  {
    name: 'delete of a missing item is fine',
    original: { mergingList: [{ name: 'a' }] },
    patch: { mergingList: [{ name: 'zzz', $patch: 'delete' }] },
    result: { mergingList: [{ name: 'a' }] },
  },
  {
    name: 'delete and add in one list',
    original: { mergingList: [{ name: 'a' }, { name: 'b' }] },
    patch: { mergingList: [{ name: 'a', $patch: 'delete' }, { name: 'c' }] },
    result: { mergingList: [{ name: 'c' }, { name: 'b' }] },
  },
  {
    name: 'delete without the merge key is refused',
    original: { mergingList: [{ name: 'a' }] },
    patch: { mergingList: [{ $patch: 'delete', value: 'x' }] },
    error: { status: 422, message: 'map: map[$patch:delete value:x] does not contain declared merge key: name' },
  },
  { name: 'replace alone empties the list', original: { mergingList: [{ name: 'a' }, { name: 'b' }] }, patch: { mergingList: [{ $patch: 'replace' }] }, result: { mergingList: [] } },
  {
    name: 'replace makes the other items the whole list',
    original: { mergingList: [{ name: 'a', value: '1' }, { name: 'b' }] },
    patch: { mergingList: [{ name: 'c' }, { $patch: 'replace' }, { name: 'a' }] },
    result: { mergingList: [{ name: 'c' }, { name: 'a' }] },
  },
  { name: 'merge is refused', original: { mergingList: [{ name: 'a' }] }, patch: { mergingList: [{ $patch: 'merge' }] }, error: { status: 422, message: 'merging lists cannot yet be specified in the patch' } },
  { name: 'an unknown directive is refused', original: { mergingList: [{ name: 'a' }] }, patch: { mergingList: [{ name: 'a', $patch: 'x' }] }, error: { status: 422, message: 'unknown patch type: x in map: map[$patch:x name:a]' } },
  {
    name: 'a directive item in a list without a merge strategy stays for validation to report',
    original: { nonMergingList: [{ name: 'a' }] },
    patch: { nonMergingList: [{ name: 'a', $patch: 'delete' }] },
    result: { nonMergingList: [{ name: 'a', $patch: 'delete' }] },
  },
]);

table('$deleteFromPrimitiveList', [
  { name: 'removes the values', original: { mergingIntList: [1, 2, 3, 2] }, patch: { '$deleteFromPrimitiveList/mergingIntList': [2] }, result: { mergingIntList: [1, 3] } },
  { name: 'a value not in the list changes nothing', original: { mergingIntList: [1, 2] }, patch: { '$deleteFromPrimitiveList/mergingIntList': [3] }, result: { mergingIntList: [1, 2] } },
  { name: 'an absent list is not created', original: { name: 'a' }, patch: { '$deleteFromPrimitiveList/mergingIntList': [3] }, result: { name: 'a' } },
  { name: 'works on a list without a merge strategy too', original: { nonMergingIntList: [1, 2, 3] }, patch: { '$deleteFromPrimitiveList/nonMergingIntList': [2] }, result: { nonMergingIntList: [1, 3] } },
  {
    name: 'beside additions to the same list',
    original: { mergingIntList: [1, 2, 3] },
    patch: { mergingIntList: [4], '$deleteFromPrimitiveList/mergingIntList': [1] },
    result: { mergingIntList: [4, 2, 3] },
  },
  { name: 'a key without the slash is refused', original: { mergingIntList: [1] }, patch: { $deleteFromPrimitiveList: [1] }, error: { status: 400, message: 'invalid patch format of primitive list' } },
  { name: 'another prefix is refused', original: { mergingIntList: [1] }, patch: { '$deleteFromPrimitiveListX/mergingIntList': [1] }, error: { status: 400, message: 'invalid patch format of primitive list' } },
]);

table('$setElementOrder', [
  {
    name: 'orders a list of objects without changing its items',
    original: { mergingList: [{ name: '1' }, { name: '3', value: '3' }, { name: '4', value: '4' }, { name: '2', value: '2' }] },
    patch: { '$setElementOrder/mergingList': [{ name: '4' }, { name: '2' }, { name: '3' }, { name: '1' }] },
    result: { mergingList: [{ name: '4', value: '4' }, { name: '2', value: '2' }, { name: '3', value: '3' }, { name: '1' }] },
  },
  {
    name: 'server-only items stay after the item they followed',
    original: { mergingList: [{ name: '1', other: 'a' }, { name: '2' }, { name: '7' }, { name: '9' }, { name: '8' }, { name: '3' }, { name: '4' }] },
    patch: { '$setElementOrder/mergingList': [{ name: '2' }, { name: '1' }, { name: '4' }, { name: '3' }] },
    result: { mergingList: [{ name: '2' }, { name: '1', other: 'a' }, { name: '7' }, { name: '9' }, { name: '8' }, { name: '4' }, { name: '3' }] },
  },
  {
    name: 'orders the merge with the patch list',
    original: { mergingList: [{ name: '1' }, { name: '2', value: 'b' }] },
    patch: { '$setElementOrder/mergingList': [{ name: '3' }, { name: '2' }, { name: '1' }], mergingList: [{ name: '3', value: 'c' }, { name: '1', value: 'a' }] },
    result: { mergingList: [{ name: '3', value: 'c' }, { name: '2', value: 'b' }, { name: '1', value: 'a' }] },
  },
  {
    name: 'may name items that are not there',
    original: { mergingList: [{ name: '1' }, { name: '3' }] },
    patch: { '$setElementOrder/mergingList': [{ name: '3' }, { name: '2' }, { name: '1' }], mergingList: [{ name: '3', value: '3' }, { name: '1', value: '1' }] },
    result: { mergingList: [{ name: '3', value: '3' }, { name: '1', value: '1' }] },
  },
  {
    name: 'deletions in the patch list do not need a place',
    original: { mergingList: [{ name: '1' }, { name: '2' }, { name: '3' }] },
    patch: { '$setElementOrder/mergingList': [{ name: '3' }, { name: '1' }], mergingList: [{ name: '2', $patch: 'delete' }] },
    result: { mergingList: [{ name: '3' }, { name: '1' }] },
  },
  { name: 'orders a list of primitives', original: { mergingIntList: [1, 3, 2] }, patch: { '$setElementOrder/mergingIntList': [3, 2, 1] }, result: { mergingIntList: [3, 2, 1] } },
  { name: 'orders primitives it partly names', original: { mergingIntList: [1, 3] }, patch: { '$setElementOrder/mergingIntList': [3, 2, 1] }, result: { mergingIntList: [3, 1] } },
  {
    name: 'with additions to a primitive list',
    original: { mergingIntList: [1, 2] },
    patch: { '$setElementOrder/mergingIntList': [3, 1, 2], mergingIntList: [3] },
    result: { mergingIntList: [3, 1, 2] },
  },
  {
    name: 'a patch list in another order is refused',
    original: { mergingList: [{ name: '1' }, { name: '3' }, { name: '2' }] },
    patch: { '$setElementOrder/mergingList': [{ name: '1' }, { name: '2' }, { name: '3' }], mergingList: [{ name: '3', value: '3' }, { name: '1', value: '1' }] },
    error: { status: 422, message: /doesn't match \$setElementOrder list/ },
  },
  {
    name: 'a primitive patch list in another order is refused',
    original: { mergingIntList: [1, 3, 2] },
    patch: { '$setElementOrder/mergingIntList': [1, 2, 3], mergingIntList: [3, 1] },
    error: { status: 422, message: /doesn't match \$setElementOrder list/ },
  },
  {
    name: 'an entry without the merge key is refused',
    original: { mergingList: [{ name: '1' }] },
    patch: { '$setElementOrder/mergingList': [{ value: 'x' }] },
    error: { status: 422, message: 'map: map[value:x] does not contain declared merge key: name' },
  },
  { name: 'a key without the slash is refused', original: { mergingIntList: [1] }, patch: { $setElementOrder: [1] }, error: { status: 400, message: 'invalid patch format of setElementOrder list' } },
  { name: 'a value that is not a list is refused', original: { mergingIntList: [1] }, patch: { '$setElementOrder/mergingIntList': 'x' }, error: { status: 422, message: 'expected a []interface {}, but received a string' } },
]);

table('$retainKeys', [
  {
    name: 'clears the keys it does not list',
    original: { retainKeysMap: { name: 'a', value: 'b', other: 'c' } },
    patch: { retainKeysMap: { $retainKeys: ['name', 'other'], other: 'd' } },
    result: { retainKeysMap: { name: 'a', other: 'd' } },
  },
  {
    name: 'a switch of one-of members (as Deployment.strategy)',
    original: { retainKeysMap: { name: 'RollingUpdate', simpleMap: { maxSurge: '1' } } },
    patch: { retainKeysMap: { $retainKeys: ['name'], name: 'Recreate' } },
    result: { retainKeysMap: { name: 'Recreate' } },
  },
  {
    name: 'nested values still merge',
    original: { retainKeysMap: { name: 'a', simpleMap: { x: '1' }, mergingIntList: [1] } },
    patch: { retainKeysMap: { $retainKeys: ['simpleMap', 'mergingIntList'], simpleMap: { y: '2' }, mergingIntList: [2] } },
    result: { retainKeysMap: { simpleMap: { x: '1', y: '2' }, mergingIntList: [2, 1] } },
  },
  {
    name: 'nulls and other directives need not be listed',
    original: { retainKeysMap: { name: 'a', value: 'b', mergingIntList: [1, 2] } },
    patch: { retainKeysMap: { $retainKeys: ['name', 'mergingIntList'], value: null, '$deleteFromPrimitiveList/mergingIntList': [1] } },
    result: { retainKeysMap: { name: 'a', mergingIntList: [2] } },
  },
  {
    name: 'works in items of a merging list',
    original: { retainKeysMergingList: [{ name: 'a', value: '1', other: 'o' }, { name: 'b', value: '2' }] },
    patch: { retainKeysMergingList: [{ name: 'a', $retainKeys: ['name', 'value'], value: '3' }] },
    result: { retainKeysMergingList: [{ name: 'a', value: '3' }, { name: 'b', value: '2' }] },
  },
  {
    name: 'without the directive the map merges as usual',
    original: { retainKeysMap: { name: 'a', value: 'b' } },
    patch: { retainKeysMap: { other: 'c' } },
    result: { retainKeysMap: { name: 'a', value: 'b', other: 'c' } },
  },
  {
    name: 'a key set by the patch but not listed is refused',
    original: { retainKeysMap: { name: 'a' } },
    patch: { retainKeysMap: { $retainKeys: ['name'], value: 'x' } },
    error: { status: 400, message: 'invalid patch format of retainKeys' },
  },
  { name: 'a value that is not a list is refused', original: { retainKeysMap: { name: 'a' } }, patch: { retainKeysMap: { $retainKeys: 'name' } }, error: { status: 400, message: 'invalid patch format of retainKeys' } },
]);

describe('schema lookups', () => {
  it('a list of objects declared merge without a merge key cannot merge', () => {
    const Bad = t.struct('test.Bad', { items: t.field(1, t.list(t.struct('test.Entry', { a: t.field(1, t.string()) }), { patchStrategy: 'merge' })) });
    run({ name: '', original: { items: [{ a: '1' }] }, patch: { items: [{ a: '2' }] }, error: { status: 422, message: 'cannot merge lists without merge key for test.Entry' } }, Bad);
  });

  it('a field with more than one strategy besides retainKeys is refused', () => {
    const Bad = t.struct('test.Bad', { items: t.field(1, t.list(t.string(), { patchStrategy: 'merge,replace' })) });
    run({ name: '', original: { items: ['a'] }, patch: { items: ['b'] }, error: { status: 422, message: 'unexpected patch strategy: [merge replace]' } }, Bad);
  });

  it('metadata: finalizers merge as a set and ownerReferences by uid', async () => {
    const { ObjectMeta } = await import('../../schema/meta.js');
    const Obj = t.struct('test.Obj', { metadata: t.field(1, ObjectMeta) });
    run(
      {
        name: '',
        original: { metadata: { finalizers: ['a', 'b'], ownerReferences: [{ uid: '1', name: 'x' }, { uid: '2', name: 'y' }], labels: { k: 'v' } } },
        patch: { metadata: { finalizers: ['c'], ownerReferences: [{ uid: '2', kind: 'K' }], labels: { k: null, l: 'w' } } },
        result: {
          metadata: { finalizers: ['c', 'a', 'b'], ownerReferences: [{ uid: '1', name: 'x' }, { uid: '2', name: 'y', kind: 'K' }], labels: { l: 'w' } },
        },
      },
      Obj,
    );
  });
});
