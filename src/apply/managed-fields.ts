/**
 * `metadata.managedFields` to and from the bookkeeping form: one entry per manager identifier,
 * where the identifier is the entry's manager, operation, subresource and (for updates only)
 * apiVersion, so that an applier keeps one entry across versions while updaters get one per
 * version. Entries come out sorted as Kubernetes sorts them. Pure.
 */
import { fromFieldsV1, FieldsV1Error, toFieldsV1 } from './fields-v1.js';
import type { ManagedFields, VersionedSet } from './updater.js';
import { isObject, type JsonObject } from './value.js';

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

/** Manager identifier → time of its last change (undefined when the entry carried none). */
export type ManagerTimes = Map<string, string | undefined>;

export interface Managed {
  fields: ManagedFields;
  times: ManagerTimes;
}

export class ManagedFieldsError extends Error {}

interface ManagerInfo {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  subresource?: string;
}

/** The identifier of an entry: its JSON without time and fields (and apiVersion for Apply). */
export function managerIdentifier(info: ManagerInfo): string {
  const id: Record<string, string> = {};
  if (info.manager) id.manager = info.manager;
  if (info.operation) id.operation = info.operation;
  if (info.apiVersion && info.operation !== 'Apply') id.apiVersion = info.apiVersion;
  if (info.subresource) id.subresource = info.subresource;
  return JSON.stringify(id);
}

export function parseIdentifier(id: string): ManagerInfo {
  try {
    const v: unknown = JSON.parse(id);
    if (isObject(v)) return v as ManagerInfo;
  } catch {
    // Not an identifier we made: treat it as a bare manager name.
  }
  return { manager: id };
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

/** Reads entries; throws ManagedFieldsError for an entry Kubernetes would not accept. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  const out = emptyManaged();
  (entries ?? []).forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsError('apiVersion must not be empty');
    if (!e.fieldsType) throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new ManagedFieldsError(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    let set;
    try {
      set = fromFieldsV1(e.fieldsV1 ?? {});
    } catch (err) {
      if (err instanceof FieldsV1Error) throw new ManagedFieldsError(`error decoding set of entry ${i}: ${err.message}`);
      throw err;
    }
    const id = managerIdentifier(e);
    const vs: VersionedSet = { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' };
    out.fields.set(id, vs);
    out.times.set(id, e.time);
  });
  return out;
}

function seconds(time: string | undefined): number {
  const ms = time ? Date.parse(time) : NaN;
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** Writes the entries, sorted by operation, time, manager, apiVersion and subresource; undefined when none. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const info = parseIdentifier(id);
    const time = managed.times.get(id);
    const fieldsV1: JsonObject = toFieldsV1(vs.set);
    // Keys in this order: manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource.
    const entry: ManagedFieldsEntry = {};
    if (info.manager) entry.manager = info.manager;
    entry.operation = vs.applied ? 'Apply' : (info.operation ?? 'Update');
    entry.apiVersion = vs.apiVersion;
    if (time) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = fieldsV1;
    if (info.subresource) entry.subresource = info.subresource;
    entries.push(entry);
  }
  if (entries.length < 2) return entries;
  const cmp = (a: string | undefined, b: string | undefined): number => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0);
  return entries.sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource, q.subresource),
  );
}

/**
 * Whether a write asks to clear managedFields: exactly one entry, and it is empty. An empty list
 * does not reset, so clients unaware of the field never strip it by accident.
 */
export function isResetRequest(entries: unknown): boolean {
  return Array.isArray(entries) && entries.length === 1 && isObject(entries[0]) && Object.keys(entries[0]).length === 0;
}

export const ANCIENT_CHANGES = 'ancient-changes';

/**
 * Keeps at most `max` Update entries by merging the oldest ones of each apiVersion into one
 * `ancient-changes` entry per version (Kubernetes' cap on update managers). Mutates `managed`.
 */
export function capUpdateManagers(managed: Managed, max: number): void {
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => seconds(managed.times.get(a)) - seconds(managed.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let count = updaters.length;
  for (const id of updaters) {
    if (count <= max) break;
    const vs = managed.fields.get(id) as VersionedSet;
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: vs.apiVersion });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, id);
      continue;
    }
    if (!managed.fields.has(bucket)) {
      managed.fields.set(bucket, managed.fields.get(first) as VersionedSet);
      managed.fields.delete(first);
    }
    const into = managed.fields.get(bucket) as VersionedSet;
    managed.fields.set(bucket, { set: vs.set.union(into.set), apiVersion: vs.apiVersion, applied: false });
    managed.fields.delete(id);
    managed.times.set(bucket, managed.times.get(id));
    count--;
  }
}
