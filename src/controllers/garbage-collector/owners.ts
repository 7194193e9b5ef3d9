/**
 * Classifies a dependent's owner references. The graph answers when it knows the owner; otherwise
 * the owner is read from the store at the newest revision (by name, in the dependent's namespace
 * for a namespaced owner kind, cluster-wide for a cluster-scoped one) and must carry the same uid.
 * A dependent may see its owner before the graph does, so absence from the graph proves nothing.
 */
import type { InProcessClient } from '../../client/in-process-client.js';
import type { RegisteredResource, ResourceRegistry } from '../../registry/registry.js';
import { waitsForDependents, type GraphNode, type OwnerGraph, type OwnerRef } from './graph.js';

/**
 * solid: the owner exists and is not waiting for its dependents. waiting: it exists, deleted in the
 * foreground. dangling: it is gone (or never was). unknown: its kind is not served here, so nothing
 * can be concluded and the reference is left alone.
 */
export type OwnerState = 'solid' | 'waiting' | 'dangling' | 'unknown';

export class OwnerResolver {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly client: InProcessClient,
    private readonly graph: OwnerGraph,
  ) {}

  /** The served resource of a reference's apiVersion and kind (any served version of the group). */
  resourceOf(ref: OwnerRef): RegisteredResource | undefined {
    const slash = ref.apiVersion.indexOf('/');
    const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
    const version = slash < 0 ? ref.apiVersion : ref.apiVersion.slice(slash + 1);
    const candidates = this.registry.all().filter((r) => r.def.group === group && r.def.kind === ref.kind);
    return candidates.find((r) => r.def.version === version) ?? candidates[0];
  }

  /** Where the owner must live for this dependent, or undefined when it cannot be found anywhere. */
  private ownerNamespace(dependent: GraphNode, owner: RegisteredResource): string | undefined {
    if (!owner.def.namespaced) return '';
    // A cluster-scoped object cannot be owned by a namespaced one: such a reference never resolves.
    return dependent.store.def.namespaced ? dependent.namespace : undefined;
  }

  /** What the graph alone says; undefined when the store must be asked. */
  knownState(dependent: GraphNode, ref: OwnerRef): OwnerState | undefined {
    const owner = this.resourceOf(ref);
    if (!owner) return 'unknown';
    const namespace = this.ownerNamespace(dependent, owner);
    if (namespace === undefined) return 'dangling';
    const node = this.graph.get(ref.uid);
    if (!node || node.store.prefix !== owner.store.prefix || node.namespace !== namespace || node.name !== ref.name) return undefined;
    return waitsForDependents(node) ? 'waiting' : 'solid';
  }

  async state(dependent: GraphNode, ref: OwnerRef): Promise<OwnerState> {
    const known = this.knownState(dependent, ref);
    if (known) return known;
    const owner = this.resourceOf(ref) as RegisteredResource;
    const live = await this.client.forStore(owner.store).get(this.ownerNamespace(dependent, owner) as string, ref.name);
    if (!live || live.metadata.uid !== ref.uid) return 'dangling';
    return waitsForDependents({ deleting: !!live.metadata.deletionTimestamp, finalizers: live.metadata.finalizers ?? [] }) ? 'waiting' : 'solid';
  }
}
