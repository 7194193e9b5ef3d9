/**
 * Reading stored API objects at run time (DESIGN §3a): one lister per kind, fed by the watch cache
 * and shared by every reader (authenticators, authorizers, admission, flow control, controllers),
 * instead of a storage read per request or a hand-built closure.
 */

/** A change as a lister tells it: the object after (for DELETED, its last state) and before. */
export interface ListerEvent<T> {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: T;
  readonly oldObject?: T;
}

/** What an index files an object under (role bindings by subject, secrets by type, ...). */
export type IndexFunction<T> = (obj: T) => readonly string[];

export interface Lister<T> {
  /**
   * The object, or undefined. Objects are the cache's current state, shared and frozen: never
   * mutate them (copy first). Synchronous and cheap: no I/O.
   */
  get(namespace: string, name: string): T | undefined;
  /** Every object, or a namespace's objects, in key order. */
  list(namespace?: string): readonly T[];
  /** The objects an index files under `key`; throws for an index the lister was not given. */
  byIndex(index: string, key: string): readonly T[];
  /** Calls `fn` after each change, synchronously; returns the function that stops it. */
  onChange(fn: (event: ListerEvent<T>) => void): () => void;
  /**
   * Resolves once the lister holds everything the store had committed when called (a consistent
   * read), for a reader that must see a write made an instant ago. Rejects when `signal` aborts.
   */
  synced(signal?: AbortSignal): Promise<void>;
}

/** Where a reader finds the lister of a stored resource (`group` '' is the core group). */
export interface ListerSource {
  for<T>(group: string, resource: string): Lister<T>;
}

/**
 * A lister source whose listers may be handed out before the real source exists (authentication is
 * built before the store opens, so that a bad flag leaves nothing open): each lister finds its real
 * counterpart on first use. Using one before `bind` throws.
 */
export interface DeferredListerSource extends ListerSource {
  bind(source: ListerSource): void;
}

export function deferredListerSource(): DeferredListerSource {
  let bound: ListerSource | undefined;
  const source = (): ListerSource => {
    if (!bound) throw new Error('a lister was used before the listers were made');
    return bound;
  };
  return {
    bind(s) {
      bound = s;
    },
    for<T>(group: string, resource: string): Lister<T> {
      let real: Lister<T> | undefined;
      const lister = (): Lister<T> => (real ??= source().for<T>(group, resource));
      return {
        get: (namespace, name) => lister().get(namespace, name),
        list: (namespace) => lister().list(namespace),
        byIndex: (index, key) => lister().byIndex(index, key),
        onChange: (fn) => lister().onChange(fn),
        synced: (signal) => lister().synced(signal),
      };
    },
  };
}
