/** A Lister over a plain array, for the RBAC unit tests (the real one needs a watch cache). */
import type { Lister } from '../../machinery/lister.js';

export function arrayLister<T extends { metadata: { name?: string; namespace?: string } }>(items: T[]): Lister<T> {
  return {
    get: (namespace, name) => items.find((i) => (i.metadata.namespace ?? '') === namespace && i.metadata.name === name),
    list: (namespace) => items.filter((i) => !namespace || i.metadata.namespace === namespace),
    byIndex: () => [],
    onChange: () => () => undefined,
    synced: async () => undefined,
  };
}
