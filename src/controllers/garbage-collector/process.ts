/**
 * One look at one object, by uid, from what the graph knows:
 * - deleted with the `orphan` finalizer: strip the references to it from its dependents, then drop
 *   the finalizer;
 * - deleted with `foregroundDeletion`: have its dependents looked at (they see an owner waiting and
 *   are deleted), and drop the finalizer once no dependent blocks it;
 * - otherwise, with owner references: keep it while some owner lives, dropping references to owners
 *   that are gone or waiting; delete it when none lives.
 */
import type { InProcessClient } from '../../client/in-process-client.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, waitsForDependents, type GraphNode, type OwnerGraph, type OwnerRef } from './graph.js';
import type { OwnerResolver, OwnerState } from './owners.js';
import { deleteObject, removeFinalizer, removeOwnerReferences, unblockOwnerReferences, type Propagation } from './writes.js';

export interface ProcessContext {
  graph: OwnerGraph;
  client: InProcessClient;
  owners: OwnerResolver;
  /** Schedules another look at an object. */
  enqueue(uid: string): void;
}

/** Does what the object needs now; later changes that concern it enqueue it again. */
export async function processObject(ctx: ProcessContext, uid: string): Promise<void> {
  const node = ctx.graph.get(uid);
  if (!node) return;
  if (node.deleting) {
    if (node.finalizers.includes(ORPHAN_FINALIZER)) await orphanDependents(ctx, node);
    else if (node.finalizers.includes(FOREGROUND_FINALIZER)) await finishForeground(ctx, node);
    return;
  }
  if (node.owners.length > 0) await collectIfUnowned(ctx, node);
}

async function orphanDependents(ctx: ProcessContext, owner: GraphNode): Promise<void> {
  const self = new Set([owner.uid]);
  for (const dep of ctx.graph.dependents(owner.uid)) await removeOwnerReferences(ctx.client, dep, self);
  await removeFinalizer(ctx.client, owner, ORPHAN_FINALIZER);
}

async function finishForeground(ctx: ProcessContext, owner: GraphNode): Promise<void> {
  const dependents = ctx.graph.dependents(owner.uid);
  for (const dep of dependents) if (!dep.deleting) ctx.enqueue(dep.uid);
  const blocking = dependents.some((d) => d.owners.some((r) => r.uid === owner.uid && r.blockOwnerDeletion === true));
  if (!blocking) await removeFinalizer(ctx.client, owner, FOREGROUND_FINALIZER);
}

async function collectIfUnowned(ctx: ProcessContext, node: GraphNode): Promise<void> {
  const byState = new Map<OwnerState, OwnerRef[]>();
  for (const ref of node.owners) {
    const state = await ctx.owners.state(node, ref);
    byState.set(state, [...(byState.get(state) ?? []), ref]);
  }
  const count = (s: OwnerState): number => byState.get(s)?.length ?? 0;
  const dropped = [...(byState.get('dangling') ?? []), ...(byState.get('waiting') ?? [])];
  // An owner kind this server does not serve counts as alive: nothing proves it gone.
  if (count('solid') + count('unknown') > 0) {
    if (dropped.length > 0) await removeOwnerReferences(ctx.client, node, new Set(dropped.map((r) => r.uid)));
    return;
  }
  const dependents = ctx.graph.dependents(node.uid);
  if (count('waiting') > 0 && dependents.length > 0) {
    // An owner waits for us and we have dependents: go in the foreground too, so the owner waits for
    // the whole subtree. If a dependent of ours also waits, references may form a cycle; unblocking
    // our owners breaks it (as Kubernetes does).
    if (dependents.some(waitsForDependents)) await unblockOwnerReferences(ctx.client, node);
    await deleteObject(ctx.client, node, 'Foreground');
    return;
  }
  await deleteObject(ctx.client, node, ownPolicy(node));
}

/** A finalizer set at creation chooses how the object's own dependents are treated. */
function ownPolicy(node: GraphNode): Propagation {
  if (node.finalizers.includes(ORPHAN_FINALIZER)) return 'Orphan';
  if (node.finalizers.includes(FOREGROUND_FINALIZER)) return 'Foreground';
  return 'Background';
}
