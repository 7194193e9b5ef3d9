/**
 * The registry of served resources. Its state is an immutable snapshot (lookup by group, version
 * and resource, the group list); a change (a CustomResourceDefinition established or deleted)
 * builds a new snapshot and swaps it in one assignment, so a request that took the snapshot at its
 * start sees either the whole change or none of it. Views derived from a snapshot (routes,
 * discovery, OpenAPI) are memoized per snapshot with `derived`, so they follow every swap.
 *
 * The API is small on purpose; every change goes through `change`:
 * - `current()`: the snapshot now; read once per request.
 * - `change({ add, remove })`: adds and removes resources in one step; listeners run after the swap.
 * - `onChange(fn)`: told of every swap (after it), with the new snapshot.
 * - `derived(make)`: a function giving `make(snapshot)` for the current snapshot, made once per snapshot.
 */
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

/** `group/version/resource`: the key of a served resource. */
export function resourceKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/** One immutable state of the served resources. */
export class RegistrySnapshot {
  private readonly byPath: ReadonlyMap<string, RegisteredResource>;
  private groupList: ServedGroup[] | undefined;

  /** @param generation grows by one with every swap; equal generations are the same snapshot. */
  constructor(
    private readonly list: readonly RegisteredResource[],
    readonly generation: number,
  ) {
    const byPath = new Map<string, RegisteredResource>();
    for (const r of list) {
      const key = resourceKey(r.def.group, r.def.version, r.def.resource);
      if (byPath.has(key)) throw new Error(`resource ${key} is defined twice`);
      byPath.set(key, r);
    }
    this.byPath = byPath;
  }

  lookup(group: string, version: string, resource: string): RegisteredResource | undefined {
    return this.byPath.get(resourceKey(group, version, resource));
  }

  all(): readonly RegisteredResource[] {
    return this.list;
  }

  inGroupVersion(group: string, version: string): RegisteredResource[] {
    return this.list.filter((r) => r.def.group === group && r.def.version === version);
  }

  /** Served groups in registration order (the core group first when present). */
  groups(): ServedGroup[] {
    if (this.groupList) return this.groupList;
    const groups = new Map<string, Set<string>>();
    for (const r of this.list) {
      const set = groups.get(r.def.group) ?? new Set<string>();
      set.add(r.def.version);
      groups.set(r.def.group, set);
    }
    // Kubernetes-aware version order (v1 before v1beta1 before v1alpha1), custom groups too.
    this.groupList = [...groups].map(([name, versions]) => ({ name, versions: [...versions].sort(compareVersions) }));
    return this.groupList;
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

export interface RegistryChange {
  readonly add?: readonly RegisteredResource[];
  /** Keys (`resourceKey`) of resources no longer served. */
  readonly remove?: readonly string[];
}

/** What views read of a registry: a snapshot, or the registry's current one. */
export type RegistryView = Pick<RegistrySnapshot, 'lookup' | 'all' | 'inGroupVersion' | 'groups' | 'namespacedStores'>;

export type RegistryListener = (snapshot: RegistrySnapshot) => void;

export class ResourceRegistry {
  private snapshot = new RegistrySnapshot([], 0);
  private readonly listeners = new Set<RegistryListener>();

  current(): RegistrySnapshot {
    return this.snapshot;
  }

  /**
   * Adds and removes resources in one swap. Throws (changing nothing) when an added resource is
   * already served. Listeners are told after the swap; a listener that throws does not undo it.
   */
  change(c: RegistryChange): RegistrySnapshot {
    const removed = new Set(c.remove ?? []);
    const kept = this.snapshot.all().filter((r) => !removed.has(resourceKey(r.def.group, r.def.version, r.def.resource)));
    const next = new RegistrySnapshot([...kept, ...(c.add ?? [])], this.snapshot.generation + 1);
    this.snapshot = next;
    for (const fn of this.listeners) fn(next);
    return next;
  }

  /** Adds one resource (the composition root, at start). */
  add(r: RegisteredResource): void {
    this.change({ add: [r] });
  }

  /** Calls `fn` after every swap with the new snapshot; returns the function that stops it. */
  onChange(fn: RegistryListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** A view of the current snapshot, made on first use and again after each swap. */
  derived<T>(make: (snapshot: RegistrySnapshot) => T): () => T {
    let made: { for: RegistrySnapshot; value: T } | undefined;
    return () => {
      const snap = this.snapshot;
      if (made?.for !== snap) made = { for: snap, value: make(snap) };
      return made.value;
    };
  }

  // Reads of the current snapshot, for callers that read once (controllers, the in-process client).
  lookup(group: string, version: string, resource: string): RegisteredResource | undefined {
    return this.snapshot.lookup(group, version, resource);
  }

  all(): readonly RegisteredResource[] {
    return this.snapshot.all();
  }

  inGroupVersion(group: string, version: string): RegisteredResource[] {
    return this.snapshot.inGroupVersion(group, version);
  }

  groups(): ServedGroup[] {
    return this.snapshot.groups();
  }

  namespacedStores(): GenericStore[] {
    return this.snapshot.namespacedStores();
  }
}
