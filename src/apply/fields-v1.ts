/**
 * The FieldsV1 encoding of a field set: a JSON object whose keys are element texts (`f:`, `k:`,
 * `v:`, `i:`); an element that is itself a member and also has children carries `".": {}`; a
 * member without children is `{}`. Keys come out in structured-merge-diff's element order. Pure.
 */
import { FieldSet } from './field-set.js';
import { elementKey, parseElementKey, PathElementError, type PathElement } from './path.js';
import { isObject, type JsonObject } from './value.js';

export class FieldsV1Error extends Error {}

export function toFieldsV1(set: FieldSet): JsonObject {
  const out: JsonObject = {};
  for (const { element, member, children } of set.elements()) {
    if (children && !children.empty) {
      out[elementKey(element)] = member ? { '.': {}, ...toFieldsV1(children) } : toFieldsV1(children);
    } else if (member) {
      out[elementKey(element)] = {};
    }
  }
  return out;
}

/** Reads FieldsV1; throws FieldsV1Error when it is not an object tree of valid element keys. */
export function fromFieldsV1(value: unknown): FieldSet {
  if (!isObject(value)) throw new FieldsV1Error('fieldsV1 must be a JSON object');
  const set = new FieldSet();
  read(value, [], set);
  return set;
}

function read(node: JsonObject, prefix: PathElement[], set: FieldSet): void {
  for (const [key, child] of Object.entries(node)) {
    if (key === '.') continue;
    let e: PathElement | undefined;
    try {
      e = parseElementKey(key);
    } catch (err) {
      if (err instanceof PathElementError) throw new FieldsV1Error(err.message);
      throw err;
    }
    if (!e) continue;
    if (!isObject(child)) throw new FieldsV1Error(`the value of ${JSON.stringify(key)} must be a JSON object`);
    const path = [...prefix, e];
    const keys = Object.keys(child);
    // A leaf (`{}`) or an explicit "." is a member; other keys go on below it.
    if (keys.length === 0 || keys.includes('.')) set.insert(path);
    if (keys.some((k) => k !== '.')) read(child, path, set);
  }
}
