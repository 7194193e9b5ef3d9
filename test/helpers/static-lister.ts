/**
 * A lister over a fixed, editable array of objects, for unit tests of code that reads through the
 * lister seam (authenticators, subresources). HTTP and e2e tests use the server's real listers.
 */
import type { Lister, ListerSource } from '../../src/machinery/lister.js';

interface Named {
  metadata: { name?: string; namespace?: string };
}

export function staticLister<T extends Named>(objects: T[]): Lister<T> & { objects: T[] } {
  return {
    objects,
    get: (ns, name) => objects.find((o) => (o.metadata.namespace ?? '') === ns && o.metadata.name === name),
    list: (ns) => objects.filter((o) => !ns || o.metadata.namespace === ns),
    byIndex: () => [],
    onChange: () => () => undefined,
    synced: async () => undefined,
  };
}

/** Listers by `group/resource`, each over its own array. */
export function staticListers(byResource: Record<string, Named[]>): ListerSource {
  return { for: <T>(group: string, resource: string) => staticLister((byResource[`${group}/${resource}`] ??= []) as Named[]) as unknown as Lister<T> };
}
