/**
 * The aggregated discovery document (apidiscovery APIGroupDiscoveryList) built from the same
 * per-version resource lists as plain discovery: subresources fold into their parent, scope
 * becomes Cluster/Namespaced, and each version is marked Current (this server's own resources are
 * never stale). The ETag is a hash of the JSON without type metadata, so v2 and v2beta1 (and every
 * encoding) share it, as in Kubernetes; `Vary: Accept` keeps caches from mixing them up.
 */
import { createHash } from 'node:crypto';
import type { ServedGroup } from '../registry/registry.js';
import type { APIResource } from './discovery.js';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface APISubresourceDiscovery {
  subresource: string;
  responseKind: GroupVersionKind;
  verbs: string[];
}

export interface APIResourceDiscovery {
  resource: string;
  responseKind: GroupVersionKind;
  scope: 'Cluster' | 'Namespaced';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

export interface APIGroupDiscovery {
  metadata: { name?: string };
  versions: { version: string; resources: APIResourceDiscovery[]; freshness: 'Current' }[];
}

export interface AggregatedDocument {
  /** The list without kind and apiVersion: the caller names the version the client asked for. */
  readonly body: { metadata: Record<string, never>; items: APIGroupDiscovery[] };
  /** Quoted, ready for the ETag header. */
  readonly etag: string;
}

/** Empty group and version mean the group-version the resource is listed in, as plain discovery says. */
function responseKind(r: APIResource): GroupVersionKind {
  return { group: r.group ?? '', version: r.version ?? '', kind: r.kind };
}

export function toResourceDiscovery(list: readonly APIResource[]): APIResourceDiscovery[] {
  const out: APIResourceDiscovery[] = [];
  const parents = new Map<string, APIResourceDiscovery>();
  for (const r of list) {
    if (r.name.includes('/')) continue;
    const entry: APIResourceDiscovery = {
      resource: r.name,
      responseKind: responseKind(r),
      scope: r.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: r.singularName,
      verbs: r.verbs,
      ...(r.shortNames ? { shortNames: r.shortNames } : {}),
      ...(r.categories ? { categories: r.categories } : {}),
    };
    out.push(entry);
    parents.set(r.name, entry);
  }
  for (const r of list) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const parent = parents.get(r.name.slice(0, slash));
    // Every subresource here belongs to a resource of the same list (discovery.ts emits them together).
    if (!parent) continue;
    (parent.subresources ??= []).push({ subresource: r.name.slice(slash + 1), responseKind: responseKind(r), verbs: r.verbs });
  }
  return out;
}

export function aggregatedDocument(groups: readonly ServedGroup[], entriesOf: (group: string, version: string) => APIResource[]): AggregatedDocument {
  const items: APIGroupDiscovery[] = groups.map((g) => ({
    metadata: g.name ? { name: g.name } : {},
    versions: g.versions.map((version) => ({ version, resources: toResourceDiscovery(entriesOf(g.name, version)), freshness: 'Current' as const })),
  }));
  const body = { metadata: {}, items };
  const hash = createHash('sha512').update(JSON.stringify(body)).digest('hex').toUpperCase();
  return { body, etag: `"${hash}"` };
}
