/**
 * Living beside client-side apply (kubectl's last-applied-configuration annotation) when the
 * manager is `kubectl`, as Kubernetes does: a server-side apply may take over fields the annotation
 * says kubectl applied before (upgrade without conflicts), and keeps the annotation current when the
 * object has one (so a later client-side apply still works). Pure.
 */
import { findTooDeep } from '../machinery/codec/nesting.js';
import { compareValues } from './compare.js';
import { FieldSet } from './field-set.js';
import type { TypeRef } from './schema-view.js';
import { toFieldSet } from './to-field-set.js';
import { isObject, type JsonObject } from './value.js';

export const KUBECTL_MANAGER = 'kubectl';

function annotationOf(obj: unknown, key: string): string | undefined {
  if (!isObject(obj) || !isObject(obj.metadata) || !isObject(obj.metadata.annotations)) return undefined;
  const v = obj.metadata.annotations[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * Fields the annotation claims with the value they still have live: conflicts on them are allowed.
 * Undefined when there is no usable annotation.
 */
export function fieldsFromLastApplied(type: TypeRef, live: unknown, key: string, apiVersion: string): FieldSet | undefined {
  const text = annotationOf(live, key);
  if (!text) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  // A hand-written annotation nested past what a request may carry is not one kubectl wrote.
  if (!isObject(last) || last.apiVersion !== apiVersion || findTooDeep(last)) return undefined;
  const c = compareValues(type, last, live);
  return toFieldSet(type, last).difference(c.modified).difference(c.added).difference(c.removed);
}

/** Sets the annotation of `obj` to the applied configuration when `live` has one. Mutates `obj`. */
export function syncLastApplied(obj: JsonObject, live: unknown, config: JsonObject, key: string): void {
  if (!annotationOf(live, key)) return;
  const copy = structuredClone(config);
  if (isObject(copy.metadata) && isObject(copy.metadata.annotations)) {
    delete copy.metadata.annotations[key];
    if (Object.keys(copy.metadata.annotations).length === 0) delete copy.metadata.annotations;
  }
  const meta = isObject(obj.metadata) ? obj.metadata : (obj.metadata = {});
  const annotations = isObject(meta.annotations) ? meta.annotations : (meta.annotations = {});
  annotations[key] = JSON.stringify(copy);
}
