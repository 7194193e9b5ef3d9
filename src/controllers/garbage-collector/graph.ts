/**
 * The owner graph the garbage collector keeps: every live object by uid with the little it needs to
 * decide (identity, owner references, deletion state), and for every owner uid the uids of the
 * objects that name it. Owners that are not (or no longer) known keep their dependents' entries, so
 * a vanished owner still leads to everything that pointed at it.
 */
import type { GenericStore } from '../../registry/generic-store.js';
import type { KubeObject } from '../../schema/index.js';

/** The finalizers DELETE adds for the Orphan and Foreground propagation policies. */
export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface GraphNode {
  uid: string;
  store: GenericStore;
  /** '' for cluster-scoped objects. */
  namespace: string;
  name: string;
  owners: readonly OwnerRef[];
  /** deletionTimestamp is set. */
  deleting: boolean;
  finalizers: readonly string[];
}

export function nodeOf(store: GenericStore, obj: KubeObject): GraphNode | undefined {
  const uid = obj.metadata.uid;
  if (!uid) return undefined;
  return {
    uid,
    store,
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '',
    owners: (obj.metadata.ownerReferences ?? []) as OwnerRef[],
    deleting: !!obj.metadata.deletionTimestamp,
    finalizers: obj.metadata.finalizers ?? [],
  };
}

/** Being deleted in the foreground: it waits for its blocking dependents to go. */
export function waitsForDependents(n: { deleting: boolean; finalizers: readonly string[] }): boolean {
  return n.deleting && n.finalizers.includes(FOREGROUND_FINALIZER);
}

export class OwnerGraph {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly dependentsOf = new Map<string, Set<string>>();

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  /** Records the object's current state; returns what was known before. */
  upsert(node: GraphNode): GraphNode | undefined {
    const previous = this.nodes.get(node.uid);
    if (previous) this.unlinkOwners(previous);
    this.nodes.set(node.uid, node);
    for (const ref of node.owners) {
      let set = this.dependentsOf.get(ref.uid);
      if (!set) this.dependentsOf.set(ref.uid, (set = new Set()));
      set.add(node.uid);
    }
    return previous;
  }

  /** Forgets an object that is gone; its own dependents stay indexed under its uid. */
  remove(uid: string): GraphNode | undefined {
    const node = this.nodes.get(uid);
    if (!node) return undefined;
    this.unlinkOwners(node);
    this.nodes.delete(uid);
    return node;
  }

  /** Live objects whose ownerReferences name `uid`. */
  dependents(uid: string): GraphNode[] {
    const out: GraphNode[] = [];
    for (const d of this.dependentsOf.get(uid) ?? []) {
      const node = this.nodes.get(d);
      if (node) out.push(node);
    }
    return out;
  }

  /** The uids of the objects known for one store (to find what a fresh listing no longer has). */
  uidsIn(store: GenericStore): string[] {
    const out: string[] = [];
    for (const n of this.nodes.values()) if (n.store.prefix === store.prefix) out.push(n.uid);
    return out;
  }

  private unlinkOwners(node: GraphNode): void {
    for (const ref of node.owners) {
      const set = this.dependentsOf.get(ref.uid);
      if (!set) continue;
      set.delete(node.uid);
      if (set.size === 0) this.dependentsOf.delete(ref.uid);
    }
  }
}
