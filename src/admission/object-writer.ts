/**
 * How an admission plugin writes another stored object (ResourceQuota charges a quota's
 * `status.used`). Plugins are built before the stores exist, so the server hands them a deferred
 * writer and binds it to its in-process client once the stores are open.
 */
import type { KubeObject } from '../schema/index.js';

export interface ObjectWriter {
  /**
   * Updates a stored object as the server itself (validation and admission run). `transform` gets a
   * copy of the current object and returns the next one; the write is a compare-and-swap on its
   * resourceVersion, and `transform` runs again on a lost race, so it must be pure apart from
   * throwing (a StatusError it throws is the write's answer). Throws NotFound for a missing object.
   */
  update(group: string, resource: string, namespace: string, name: string, subresource: string, transform: (current: KubeObject) => KubeObject): Promise<KubeObject>;
}

export interface DeferredObjectWriter extends ObjectWriter {
  bind(writer: ObjectWriter): void;
}

export function deferredObjectWriter(): DeferredObjectWriter {
  let bound: ObjectWriter | undefined;
  return {
    bind(w) {
      bound = w;
    },
    update(...args) {
      if (!bound) throw new Error('an admission plugin wrote an object before the stores were open');
      return bound.update(...args);
    },
  };
}
