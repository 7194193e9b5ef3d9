/** A Lister over a plain array, for the RBAC unit tests (the real one needs a watch cache). */
import type { Lister } from '../../machinery/lister.js';
import { BINDINGS_BY_SUBJECT, bindingSubjectKeys } from './rule-resolver.js';

type Named = { metadata: { name?: string; namespace?: string } };

/** Keeps the index the rule resolver asks the binding listers for, computed on each call. */
export function arrayLister<T extends Named>(items: T[]): Lister<T> {
  return {
    get: (namespace, name) => items.find((i) => (i.metadata.namespace ?? '') === namespace && i.metadata.name === name),
    list: (namespace) => items.filter((i) => !namespace || i.metadata.namespace === namespace),
    byIndex: (index, key) => {
      if (index !== BINDINGS_BY_SUBJECT) throw new Error(`no index ${index} on this lister`);
      return items.filter((i) => bindingSubjectKeys(i).includes(key));
    },
    onChange: () => () => undefined,
    synced: async () => undefined,
  };
}
