/** The registry of served resources: lookup by group, version and resource, and the group list. */
import type { GenericStore } from './generic-store.js';
import type { ResourceDefinition } from './define-resource.js';
import { compareVersions } from './runtime-config.js';

export interface RegisteredResource {
  readonly def: ResourceDefinition;
  readonly store: GenericStore;
}

export interface ServedGroup {
  name: string;
  /** Versions in preference order; the first is the preferred version. */
  versions: string[];
}

export class ResourceRegistry {
  private readonly byPath = new Map<string, RegisteredResource>();
  private readonly list: RegisteredResource[] = [];

  add(r: RegisteredResource): void {
    const key = `${r.def.group}/${r.def.version}/${r.def.resource}`;
    if (this.byPath.has(key)) throw new Error(`resource ${key} is defined twice`);
    this.byPath.set(key, r);
    this.list.push(r);
  }

  lookup(group: string, version: string, resource: string): RegisteredResource | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  all(): readonly RegisteredResource[] {
    return this.list;
  }

  inGroupVersion(group: string, version: string): RegisteredResource[] {
    return this.list.filter((r) => r.def.group === group && r.def.version === version);
  }

  /** Served groups in registration order (the core group first when present). */
  groups(): ServedGroup[] {
    const groups = new Map<string, Set<string>>();
    for (const r of this.list) {
      const set = groups.get(r.def.group) ?? new Set<string>();
      set.add(r.def.version);
      groups.set(r.def.group, set);
    }
    return [...groups].map(([name, versions]) => ({ name, versions: [...versions].sort(compareVersions) }));
  }

  /** One store per stored resource: the stores of every namespaced resource, for namespace cleanup. */
  namespacedStores(): GenericStore[] {
    const seen = new Set<string>();
    const out: GenericStore[] = [];
    for (const r of this.list) {
      if (!r.def.namespaced || seen.has(r.store.prefix)) continue;
      seen.add(r.store.prefix);
      out.push(r.store);
    }
    return out;
  }
}
