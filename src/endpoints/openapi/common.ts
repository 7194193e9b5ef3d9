/** Pieces both OpenAPI builders share: document info, kind registration and the sorting of paths. */
import type { ApiNames } from '../../machinery/api-names.js';
import { DeleteOptions, Status, WatchEvent } from '../../schema/index.js';
import type { ApiModel, GroupVersionModel, OperationSpec } from './api-model.js';
import type { JsonObject, SchemaConverter } from './schema-convert.js';

export interface DocumentInfo {
  /** The server's version, as /version reports it (gitVersion). */
  readonly version: string;
}

export function infoObject(names: ApiNames, info: DocumentInfo): JsonObject {
  const product = names.product.charAt(0).toUpperCase() + names.product.slice(1);
  return { title: product, version: info.version };
}

/**
 * Defines the kinds of the given group-versions with their group-version-kind extensions, and the
 * meta types every group-version shares (DeleteOptions, WatchEvent, Status), marked with the GVK
 * they have in each group-version, as Kubernetes does.
 */
export function defineKinds(conv: SchemaConverter, model: ApiModel, groupVersions: readonly GroupVersionModel[]): void {
  for (const gv of groupVersions) {
    for (const k of gv.kinds) {
      conv.addGroupVersionKind(k.schema, k.gvk);
      conv.addGroupVersionKind(k.listSchema, k.listGvk);
    }
  }
  for (const gv of model.groupVersions) {
    conv.addGroupVersionKind(DeleteOptions, { group: gv.group, version: gv.version, kind: 'DeleteOptions' });
    conv.addGroupVersionKind(WatchEvent, { group: gv.group, version: gv.version, kind: 'WatchEvent' });
  }
  conv.addGroupVersionKind(Status, { group: '', version: 'v1', kind: 'Status' });
}

/** The extensions of an operation that belongs to a kind: its action and group-version-kind. */
export function operationExtensions(conv: SchemaConverter, op: OperationSpec): JsonObject {
  const out: JsonObject = {};
  if (op.action) out[conv.ext.action] = op.action;
  if (op.gvk) out[conv.ext.groupVersionKind] = { group: op.gvk.group, kind: op.gvk.kind, version: op.gvk.version };
  return out;
}

export function comparePaths(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
