/**
 * Keeps a no-op write from touching managedFields timestamps. An apply whose configuration omits
 * defaulted fields of an atomic value (a binding's subject without apiGroup) replaces that value
 * and so counts as a change, stamping the applier's entry with the current second, although
 * defaulting then restores the very same object. Kubernetes drops such timestamp-only changes so
 * that a repeated apply neither writes nor bumps resourceVersion; so do we.
 */
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../schema/index.js';

type Entries = readonly { readonly time?: string }[] | undefined;

function withoutTimes(entries: Entries): unknown[] {
  return (entries ?? []).map(({ time: _time, ...rest }) => rest);
}

function withoutManagedFields(o: KubeObject): KubeObject {
  const { managedFields: _managed, ...metadata } = o.metadata ?? {};
  return { ...o, metadata };
}

/** `next` with `live`'s managedFields when the two differ in nothing but those timestamps. */
export function keepTimesWhenUnchanged<T extends KubeObject>(live: KubeObject | undefined, next: T): T {
  if (!live) return next;
  const before = live.metadata?.managedFields as Entries;
  const after = next.metadata?.managedFields as Entries;
  if (isDeepStrictEqual(before, after)) return next;
  if (!isDeepStrictEqual(withoutTimes(before), withoutTimes(after))) return next;
  if (!isDeepStrictEqual(withoutManagedFields(live), withoutManagedFields(next))) return next;
  return { ...next, metadata: { ...next.metadata, managedFields: before } };
}
