/**
 * The garbage collector's writes. Each is aimed at one object by uid: if the name now belongs to a
 * replacement, or the object is already gone, there is nothing to do. Updates are transforms run
 * inside the store's compare-and-swap loop, so concurrent writers only cost a re-read.
 */
import type { InProcessClient } from '../../client/in-process-client.js';
import { StatusError } from '../../machinery/errors.js';
import type { KubeObject } from '../../schema/index.js';
import type { GraphNode } from './graph.js';

export type Propagation = 'Orphan' | 'Background' | 'Foreground';

class Replaced extends Error {}

const vanished = (e: unknown): boolean => e instanceof Replaced || (e instanceof StatusError && e.reason === 'NotFound');

/** Applies `change` to the object's metadata; returns false when the object is gone or replaced. */
export async function updateMetadata(client: InProcessClient, node: GraphNode, change: (obj: KubeObject) => void): Promise<boolean> {
  try {
    await client.forStore(node.store).update(node.namespace, node.name, (current) => {
      if (!current || current.metadata.uid !== node.uid) throw new Replaced();
      change(current);
      return current;
    });
    return true;
  } catch (e) {
    if (vanished(e)) return false;
    throw e;
  }
}

export function removeOwnerReferences(client: InProcessClient, node: GraphNode, uids: ReadonlySet<string>): Promise<boolean> {
  return updateMetadata(client, node, (obj) => {
    const kept = (obj.metadata.ownerReferences ?? []).filter((r) => !uids.has(r.uid));
    if (kept.length > 0) obj.metadata.ownerReferences = kept;
    else delete obj.metadata.ownerReferences;
  });
}

/** Makes every owner reference non-blocking, so owners deleted in the foreground need not wait for it. */
export function unblockOwnerReferences(client: InProcessClient, node: GraphNode): Promise<boolean> {
  return updateMetadata(client, node, (obj) => {
    for (const r of obj.metadata.ownerReferences ?? []) if (r.blockOwnerDeletion) r.blockOwnerDeletion = false;
  });
}

export function removeFinalizer(client: InProcessClient, node: GraphNode, finalizer: string): Promise<boolean> {
  return updateMetadata(client, node, (obj) => {
    const kept = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    if (kept.length > 0) obj.metadata.finalizers = kept;
    else delete obj.metadata.finalizers;
  });
}

/** Deletes the object with the given propagation, only if it is still the one with this uid. */
export async function deleteObject(client: InProcessClient, node: GraphNode, propagationPolicy: Propagation): Promise<void> {
  try {
    await client.forStore(node.store).delete(node.namespace, node.name, { propagationPolicy, preconditions: { uid: node.uid } });
  } catch (e) {
    // A uid precondition that fails means a new object took the name: not ours to delete.
    if (e instanceof StatusError && e.reason === 'Conflict') {
      const now = await client.forStore(node.store).get(node.namespace, node.name);
      if (!now || now.metadata.uid !== node.uid) return;
    }
    throw e;
  }
}
