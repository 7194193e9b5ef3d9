/**
 * Names in the OpenAPI documents, all derived from the API names: definition names (Kubernetes
 * names them by Go package, io.k8s.api.core.v1.ConfigMap; ours come from the schema name
 * `core.v1.ConfigMap` so that under k8s.io they are exactly Kubernetes' names), vendor extension
 * keys, operation ids and tags.
 */
import type { ApiNames } from '../../machinery/api-names.js';

/**
 * Where a schema package lives in Kubernetes' Go module tree, when not under `api/` (the built-in
 * groups are all in k8s.io/api). `%p` stands for the short product prefix (`kube` under k8s.io).
 */
const PACKAGE_PATHS: Readonly<Record<string, string>> = {
  meta: 'apimachinery.pkg.apis.meta',
  runtime: 'apimachinery.pkg.runtime',
  intstr: 'apimachinery.pkg.util.intstr',
  resource: 'apimachinery.pkg.api.resource',
  version: 'apimachinery.pkg.version',
  apiextensions: 'apiextensions-apiserver.pkg.apis.apiextensions',
  apiregistration: '%p-aggregator.pkg.apis.apiregistration',
};

/** The OpenAPI extension keys the documents use, with the domain's prefix. */
export interface ExtensionKeys {
  groupVersionKind: string;
  action: string;
  listType: string;
  listMapKeys: string;
  mapType: string;
  patchStrategy: string;
  patchMergeKey: string;
  preserveUnknownFields: string;
}

export function extensionKeys(names: ApiNames): ExtensionKeys {
  const p = names.openapiExtensionPrefix;
  return {
    groupVersionKind: `${p}group-version-kind`,
    action: `${p}action`,
    listType: `${p}list-type`,
    listMapKeys: `${p}list-map-keys`,
    mapType: `${p}map-type`,
    patchStrategy: `${p}patch-strategy`,
    patchMergeKey: `${p}patch-merge-key`,
    preserveUnknownFields: `${p}preserve-unknown-fields`,
  };
}

/** `core.v1.ConfigMap` → `io.k8s.api.core.v1.ConfigMap`; `meta.v1.ObjectMeta` → `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`. */
export function definitionName(names: ApiNames, schemaName: string): string {
  const dot = schemaName.indexOf('.');
  const pkg = dot < 0 ? '' : schemaName.slice(0, dot);
  const path = PACKAGE_PATHS[pkg]?.replace('%p', names.prefix) ?? `api.${pkg}`;
  return `${names.openapiNamePrefix}.${path}${schemaName.slice(dot)}`;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The group as a word: `` → `core`, `rbac.authorization.k8s.io` → `rbacAuthorization`, `apps` → `apps`. */
export function groupWord(names: ApiNames, group: string): string {
  if (group === '') return 'core';
  const suffix = `.${names.domain}`;
  const base = group.endsWith(suffix) ? group.slice(0, -suffix.length) : group;
  const [first = '', ...rest] = base.split(/[.-]/).filter(Boolean);
  return first + rest.map(capitalize).join('');
}

/** The tag operations of a group-version carry: `core_v1`, `apps_v1`. */
export function tagOf(names: ApiNames, group: string, version: string): string {
  return `${groupWord(names, group)}_${version}`;
}

/** The part of an operation id after its verb: `CoreV1`, `RbacAuthorizationV1`. */
export function operationGroupVersion(names: ApiNames, group: string, version: string): string {
  return capitalize(groupWord(names, group)) + capitalize(version);
}
