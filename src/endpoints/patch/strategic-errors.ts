/**
 * Why a strategic merge patch could not apply, in the words of Kubernetes' patch library. `status`
 * is the answer: 400 where Kubernetes answers BadRequest (a directive written wrongly), 422 for a
 * patch that does not fit the object (Kubernetes answers some of those with a bare 500; a client's
 * mistake is never a 500 here).
 */
import { goTypeName, goValue } from './go-format.js';

export class StrategicMergeError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 422,
  ) {
    super(message);
  }
}

const bad = (message: string): StrategicMergeError => new StrategicMergeError(message, 400);
const unfit = (message: string): StrategicMergeError => new StrategicMergeError(message, 422);

export const smpErrors = {
  badPrimitiveList: () => bad('invalid patch format of primitive list'),
  badRetainKeys: () => bad('invalid patch format of retainKeys'),
  badSetElementOrder: () => bad('invalid patch format of setElementOrder list'),
  listOfLists: () => unfit('lists of lists are not supported'),
  noMergeKey: (m: unknown, key: string) => unfit(`map: ${goValue(m)} does not contain declared merge key: ${key}`),
  expectedMap: (actual: unknown) => unfit(`expected a map[string]interface {}, but received a ${goTypeName(actual)}`),
  expectedList: (actual: unknown) => unfit(`expected a []interface {}, but received a ${goTypeName(actual)}`),
  badPatchType: (directive: unknown, m: unknown) => unfit(`unknown patch type: ${goValue(directive)} in map: ${goValue(m)}`),
  mergeInList: () => unfit('merging lists cannot yet be specified in the patch'),
  mixedElements: (lists: readonly unknown[][]) => unfit(`list element types are not identical: ${goValue(lists)}`),
  noElements: () => unfit('no elements in any of the given slices'),
  noMergeKeyDeclared: (typeName: string) => unfit(`cannot merge lists without merge key for ${typeName}`),
  notAMap: (index: number) => unfit(`value for key ${index} is not a map`),
  orderMismatch: (patchList: unknown, order: unknown) =>
    unfit(`The order in patch list:\n${goValue(patchList)}\n doesn't match $setElementOrder list:\n${goValue(order)}\n`),
  badStrategy: (strategies: readonly string[]) => unfit(`unexpected patch strategy: ${goValue(strategies)}`),
  notAList: (kind: string) => unfit(`expected slice or array type, but got: ${kind}`),
};
