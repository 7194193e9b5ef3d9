/**
 * Ownership through a view subresource (`/scale`), as Kubernetes' scale handler keeps it: a write
 * to the view runs the field manager on the view (an autoscaling/v1 Scale) with the parent's
 * entries translated to it, and the outcome is translated back onto the parent, so the parent
 * stores every entry in its own terms (the Deployment's `spec.replicas`).
 *
 * - parent → view: only entries owning the parent's field, each reduced to the view's field at
 *   the view's apiVersion, keeping manager, operation, subresource and time.
 * - view → parent: parent entries not owning the field stay as they are; an owner missing from
 *   the view's entries lost the field and keeps the rest (dropped when nothing is left); view
 *   entries the parent does not have yet come back owning the parent's field at the request's
 *   apiVersion, without a time. Entries at an apiVersion the parent is not known at are dropped.
 *
 * Managers are told apart by identifier (managed-fields.ts), which for an update includes the
 * apiVersion entry carries. Update entries therefore never match across the translation, exactly
 * as in Kubernetes: an updater of the parent's field that keeps it through a view write comes back
 * as a second entry of the same manager owning just that field. Pure.
 */
import { FieldSet } from './field-set.js';
import { decodeManagedFields, emptyManaged, encodeManagedFields, ManagedFieldsError, type Managed, type ManagedFieldsEntry } from './managed-fields.js';
import type { Path } from './path.js';

export interface ViewFieldMapping {
  /** The field in the view (Scale: spec.replicas). */
  readonly viewPath: Path;
  /** `group/version` of the view (autoscaling/v1). */
  readonly viewApiVersion: string;
  /** The field in the parent, per apiVersion the parent is known at. */
  readonly parentPaths: ReadonlyMap<string, Path>;
  /** The parent's apiVersion of the request: entries coming from the view are written at it. */
  readonly parentApiVersion: string;
}

function decodeOrEmpty(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  try {
    return decodeManagedFields(entries);
  } catch (e) {
    // Stored entries were checked when written; anything else is treated as no bookkeeping.
    if (e instanceof ManagedFieldsError) return emptyManaged();
    throw e;
  }
}

function owns(set: FieldSet, path: Path | undefined): path is Path {
  return path !== undefined && set.has(path);
}

/** The view's managedFields: the parent's owners of the mapped field, in the view's terms. */
export function viewEntriesFromParent(parentEntries: readonly ManagedFieldsEntry[] | undefined, mapping: ViewFieldMapping): ManagedFieldsEntry[] | undefined {
  const parent = decodeOrEmpty(parentEntries);
  const out = emptyManaged();
  for (const [id, vs] of parent.fields) {
    if (!owns(vs.set, mapping.parentPaths.get(vs.apiVersion))) continue;
    out.fields.set(id, { set: FieldSet.of(mapping.viewPath), apiVersion: mapping.viewApiVersion, applied: vs.applied });
    out.times.set(id, parent.times.get(id));
  }
  return encodeManagedFields(out);
}

/** The parent's managedFields after a write through the view left the view's entries `viewEntries`. */
export function parentEntriesFromView(
  parentEntries: readonly ManagedFieldsEntry[] | undefined,
  viewEntries: readonly ManagedFieldsEntry[] | undefined,
  mapping: ViewFieldMapping,
): ManagedFieldsEntry[] | undefined {
  const parent = decodeOrEmpty(parentEntries);
  const view = decodeOrEmpty(viewEntries);
  const remaining = new Map(view.fields);
  const out = emptyManaged();
  for (const [id, vs] of parent.fields) {
    if (!mapping.parentPaths.has(vs.apiVersion)) continue;
    const path = mapping.parentPaths.get(vs.apiVersion);
    if (owns(vs.set, path) && !remaining.has(id)) {
      // The view write took the field from this manager: it keeps the rest.
      const rest = vs.set.difference(FieldSet.of(path));
      if (rest.empty) continue;
      out.fields.set(id, { ...vs, set: rest });
    } else {
      out.fields.set(id, vs);
      if (owns(vs.set, path)) remaining.delete(id);
    }
    out.times.set(id, parent.times.get(id));
  }
  const parentPath = mapping.parentPaths.get(mapping.parentApiVersion);
  if (parentPath) {
    for (const [id, vs] of remaining) {
      if (!vs.set.has(mapping.viewPath)) continue;
      out.fields.set(id, { set: FieldSet.of(parentPath), apiVersion: mapping.parentApiVersion, applied: vs.applied });
      // Kubernetes takes the time from the parent's entries, where a new manager has none.
      out.times.set(id, parent.times.get(id));
    }
  }
  return encodeManagedFields(out);
}
