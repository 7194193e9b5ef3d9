/**
 * The seam through which resources are added and removed while the server runs (custom resources
 * from CustomResourceDefinitions; later, aggregated APIs). A set is the resources one owner serves
 * (one CRD's versions), replaced as a whole: the server builds their stores exactly as it builds a
 * built-in's (a GenericStore over the store, registered with the watch cache), waits until the
 * cache holds their objects, and only then swaps the registry, so no request sees half a change.
 */
import type { ResourceDefinition } from './define-resource.js';

export interface ResourceSets {
  /**
   * Serves exactly `defs` for the set `id`, replacing what the set served before. Among `defs`,
   * the definitions without `conversion` are storage versions (one per group/resource); the others
   * share its store. Resolves once served. Throws, changing nothing, when a definition
   * is already served by another set or by the server itself.
   */
  serve(id: string, defs: readonly ResourceDefinition[]): Promise<void>;
  /** Stops serving the set (its objects stay in the store); a no-op for an unknown set. */
  remove(id: string): Promise<void>;
}
