/** Group/version/kind and group/resource identities, and their printed forms. */
export interface GroupVersion {
  group: string;
  version: string;
}
export interface GroupVersionKind extends GroupVersion {
  kind: string;
}
export interface GroupResource {
  group: string;
  resource: string;
}
export interface GroupKind {
  group: string;
  kind: string;
}

/** `v1` for the core group, else `group/version`: the value of `apiVersion`. */
export function apiVersionOf(gv: GroupVersion): string {
  return gv.group ? `${gv.group}/${gv.version}` : gv.version;
}

export function parseApiVersion(apiVersion: string): GroupVersion {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** `deployments.apps`, or `configmaps` for the core group: how Kubernetes names a resource in messages. */
export function qualifiedResource(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

/** `Deployment.apps`, or `ConfigMap` for the core group. */
export function qualifiedKind(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}
