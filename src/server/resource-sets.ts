/**
 * ResourceSets (registry/resource-sets.ts) over this server's store, cache and registry: the one
 * place where resources added at run time get their stores, made exactly as the built-ins' are.
 * Changes are serialized, so two sets never race for the registry.
 */
import type { Admission } from '../registry/admission.js';
import type { ApiNames } from '../machinery/api-names.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import { GenericStore } from '../registry/generic-store.js';
import { resourceKey, type RegisteredResource, type ResourceRegistry } from '../registry/registry.js';
import type { ResourceSets } from '../registry/resource-sets.js';
import type { WatchCache } from '../storage/cacher/cache.js';
import type { RevisionedKV } from '../storage/kv.js';

export interface ResourceSetDeps {
  registry: ResourceRegistry;
  kv: RevisionedKV;
  cache: WatchCache;
  admission: Admission;
  names: ApiNames;
  /** Storage versions by `group/resource`, shared with the listers and the in-process client. */
  hubs: Map<string, GenericStore>;
  keyPrefixOf(group: string, resource: string): string;
}

interface ServedSet {
  keys: string[];
  /** `group/resource` of the hubs this set made, with their cache prefixes. */
  hubs: Map<string, string>;
}

export function createResourceSets(deps: ResourceSetDeps): ResourceSets {
  const { registry, cache } = deps;
  const sets = new Map<string, ServedSet>();
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };

  async function serve(id: string, defs: readonly ResourceDefinition[]): Promise<void> {
    const previous = sets.get(id);
    const ownKeys = new Set(previous?.keys ?? []);
    const snapshot = registry.current();
    for (const def of defs) {
      const key = resourceKey(def.group, def.version, def.resource);
      if (!ownKeys.has(key) && snapshot.lookup(def.group, def.version, def.resource)) throw new Error(`resource ${key} is served already`);
    }
    const storeFor = new Map<string, GenericStore>();
    const newCachePrefixes: string[] = [];
    try {
      for (const def of defs.filter((d) => !d.conversion)) {
        const gr = `${def.group}/${def.resource}`;
        const prefix = deps.keyPrefixOf(def.group, def.resource);
        storeFor.set(gr, new GenericStore({ def, names: deps.names, kv: deps.kv, cache, admission: deps.admission, prefix }));
        if (!cache.has(prefix)) {
          // The cache keeps what a set served before: a changed schema needs no reload of the objects.
          await cache.registerLive(prefix, (storeFor.get(gr) as GenericStore).makeEntry, { group: def.group, version: def.version, kind: def.kind, resource: def.resource });
          newCachePrefixes.push(prefix);
        }
      }
    } catch (e) {
      for (const prefix of newCachePrefixes) cache.unregister(prefix);
      throw e;
    }
    const add: RegisteredResource[] = defs.map((def) => {
      const store = storeFor.get(`${def.group}/${def.resource}`);
      if (!store) throw new Error(`${def.group}/${def.version} ${def.kind} has no storage version in its set`);
      return { def, store };
    });
    for (const [gr, store] of storeFor) deps.hubs.set(gr, store);
    registry.change({ add, remove: previous?.keys ?? [] });
    const hubs = new Map([...storeFor].map(([gr, store]) => [gr, store.prefix] as const));
    // Hubs the set no longer has stop being cached, after the swap: no request can reach them now.
    for (const [gr, prefix] of previous?.hubs ?? []) {
      if (hubs.has(gr)) continue;
      deps.hubs.delete(gr);
      cache.unregister(prefix);
    }
    sets.set(id, { keys: add.map((r) => resourceKey(r.def.group, r.def.version, r.def.resource)), hubs });
  }

  async function remove(id: string): Promise<void> {
    const set = sets.get(id);
    if (!set) return;
    sets.delete(id);
    registry.change({ remove: set.keys });
    for (const [gr, prefix] of set.hubs) {
      deps.hubs.delete(gr);
      cache.unregister(prefix);
    }
  }

  return {
    serve: (id, defs) => serialized(() => serve(id, defs)),
    remove: (id) => serialized(() => remove(id)),
  };
}
