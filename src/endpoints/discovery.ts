/**
 * Discovery documents: /api, /apis, /apis/{group}, /api/v1 and /apis/{group}/{version}, and the
 * aggregated form of /api and /apis (discovery-aggregated.ts). Built from one registry snapshot;
 * the server builds them again for each new snapshot (registry.derived), so ETags follow changes.
 */
import { createHash } from 'node:crypto';
import { ALL_VERBS } from '../registry/define-resource.js';
import type { RegisteredResource, RegistryView } from '../registry/registry.js';
import { aggregatedDocument, type AggregatedDocument } from './discovery-aggregated-doc.js';

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  /** Set when the resource is another group's kind (a /scale subresource answers autoscaling/v1 Scale). */
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

export interface DiscoveryDocuments {
  /** Body of /api. The server address is filled per request. */
  apiVersions(serverAddress: string): unknown;
  apiGroupList(): unknown;
  apiGroup(group: string): unknown | undefined;
  resourceList(group: string, version: string): unknown | undefined;
  /** The aggregated document of /api (the core group) or /apis (every other group). */
  aggregated(root: 'api' | 'apis'): AggregatedDocument;
}

/**
 * A short stable hash of the storage identity, as Kubernetes publishes for storage migration tools.
 * Every served version of a kind shares it: it names the version stored (the hub), not the one served.
 */
function storageVersionHash(r: RegisteredResource): string {
  const stored = r.store.def;
  const id = `${stored.group}/${stored.version}/${stored.kind}`;
  return createHash('sha256').update(id).digest().subarray(0, 8).toString('base64');
}

function resourceEntries(resources: RegisteredResource[]): APIResource[] {
  const out: APIResource[] = [];
  for (const r of resources) {
    const { def } = r;
    out.push({
      name: def.resource,
      singularName: def.singular,
      namespaced: def.namespaced,
      kind: def.kind,
      verbs: [...(def.verbs ?? ALL_VERBS)].sort(),
      ...(def.shortNames?.length ? { shortNames: [...def.shortNames] } : {}),
      ...(def.categories?.length ? { categories: [...def.categories] } : {}),
      storageVersionHash: storageVersionHash(r),
    });
    for (const [name, sub] of Object.entries(def.subresources ?? {})) {
      // A view or named create of another group names it (Scale, TokenRequest); an action's body is of the parent's group.
      const shown = sub.kind === 'view' ? sub.view : sub.kind === 'create' ? sub.request : undefined;
      const other = shown ? { group: shown.group, version: shown.version } : {};
      const kind = shown ? shown.kind : sub.kind === 'action' ? sub.body.kind : def.kind;
      out.push({ name: `${def.resource}/${name}`, singularName: '', namespaced: def.namespaced, ...other, kind, verbs: [...sub.verbs].sort() });
    }
  }
  return out;
}

export function buildDiscovery(registry: RegistryView): DiscoveryDocuments {
  const groups = registry.groups();
  // One resource list per group-version, shared by the plain and the aggregated documents.
  const entries = new Map<string, APIResource[]>();
  const entriesOf = (group: string, version: string): APIResource[] => {
    const key = `${group}/${version}`;
    let list = entries.get(key);
    if (!list) entries.set(key, (list = resourceEntries(registry.inGroupVersion(group, version))));
    return list;
  };
  const aggregated = new Map<'api' | 'apis', AggregatedDocument>();
  const gv = (group: string, version: string): string => (group ? `${group}/${version}` : version);
  const groupDoc = (name: string, versions: string[]) => ({
    name,
    versions: versions.map((v) => ({ groupVersion: gv(name, v), version: v })),
    preferredVersion: { groupVersion: gv(name, versions[0] as string), version: versions[0] as string },
  });
  const namedGroups = groups.filter((g) => g.name !== '');
  const core = groups.find((g) => g.name === '');
  return {
    apiVersions: (serverAddress) => ({
      kind: 'APIVersions',
      versions: core?.versions ?? [],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    }),
    apiGroupList: () => ({ kind: 'APIGroupList', apiVersion: 'v1', groups: namedGroups.map((g) => groupDoc(g.name, g.versions)) }),
    apiGroup(group) {
      const g = namedGroups.find((x) => x.name === group);
      return g ? { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(g.name, g.versions) } : undefined;
    },
    resourceList(group, version) {
      const resources = entriesOf(group, version);
      if (resources.length === 0) return undefined;
      return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv(group, version), resources };
    },
    aggregated(root) {
      let doc = aggregated.get(root);
      if (!doc) {
        const served = root === 'api' ? (core ? [core] : []) : namedGroups;
        aggregated.set(root, (doc = aggregatedDocument(served, entriesOf)));
      }
      return doc;
    },
  };
}
