/**
 * The garbage collector: follows every served resource, keeps the owner graph, and looks at an
 * object again whenever a change may concern it — it, an owner of it, or a dependent of it changed
 * or went away. Failures are retried with backoff and never stop it; stop() ends the watches, the
 * queue and every timer.
 */
import type { InProcessClient } from '../../client/in-process-client.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ResourceRegistry } from '../../registry/registry.js';
import type { KubeObject } from '../../schema/index.js';
import type { Logger } from '../../machinery/logger.js';
import { setMaxListeners } from 'node:events';
import { followStore } from './follow.js';
import { nodeOf, ORPHAN_FINALIZER, OwnerGraph, waitsForDependents, type GraphNode } from './graph.js';
import { OwnerResolver } from './owners.js';
import { processObject, type ProcessContext } from './process.js';
import { WorkQueue } from '../framework/work-queue.js';

export interface GarbageCollector {
  stop(): void;
}

const WORKERS = 4;
const RETRY_MIN_MS = 50;
const RETRY_MAX_MS = 10_000;

export function startGarbageCollector(deps: { client: InProcessClient; registry: ResourceRegistry; log: Logger }): GarbageCollector {
  const { client, registry, log } = deps;
  const abort = new AbortController();
  // One signal ends the watch of every served resource (dozens of them): not a listener leak.
  setMaxListeners(0, abort.signal);
  const graph = new OwnerGraph();
  const owners = new OwnerResolver(registry, client, graph);
  const queue = new WorkQueue(
    (uid) => processObject(ctx, uid),
    (uid, error, attempt) => {
      // Conflicts and races resolve themselves on a later look; only persistent trouble is worth a warning.
      const report = attempt >= 5 ? log.warn : log.debug;
      report('garbage collector: processing an object failed; retrying', { uid, attempt, error: (error as Error).message });
    },
    { workers: WORKERS, minRetryMs: RETRY_MIN_MS, maxRetryMs: RETRY_MAX_MS },
  );
  const ctx: ProcessContext = { graph, client, owners, enqueue: (uid) => queue.add(uid) };

  /** Owners of `node` deleted in the foreground may be waiting for exactly this change. */
  const wakeWaitingOwners = (node: GraphNode | undefined): void => {
    for (const ref of node?.owners ?? []) {
      const owner = graph.get(ref.uid);
      if (owner && waitsForDependents(owner)) queue.add(owner.uid);
    }
  };

  const changed = (store: GenericStore, obj: KubeObject): void => {
    const node = nodeOf(store, obj);
    if (!node) return;
    const previous = graph.upsert(node);
    wakeWaitingOwners(previous);
    wakeWaitingOwners(node);
    if (node.deleting) {
      if (waitsForDependents(node) || node.finalizers.includes(ORPHAN_FINALIZER)) queue.add(node.uid);
      return;
    }
    // Only references the graph cannot vouch for need a look; at start that is every owner not listed yet.
    if (node.owners.some((ref) => owners.knownState(node, ref) !== 'solid')) queue.add(node.uid);
  };

  const deleted = (uid: string): void => {
    const node = graph.remove(uid);
    wakeWaitingOwners(node);
    for (const dep of graph.dependents(uid)) queue.add(dep.uid);
  };

  const handlers = {
    listed(store: GenericStore, objects: KubeObject[]) {
      const present = new Set<string>();
      for (const obj of objects) {
        if (obj.metadata.uid) present.add(obj.metadata.uid);
        changed(store, obj);
      }
      // After a relist: whatever vanished while the watch was down is gone.
      for (const uid of graph.uidsIn(store)) if (!present.has(uid)) deleted(uid);
    },
    changed,
    deleted(_store: GenericStore, obj: KubeObject) {
      if (obj.metadata.uid) deleted(obj.metadata.uid);
    },
  };

  const seen = new Set<string>();
  for (const { store } of registry.all()) {
    if (seen.has(store.prefix)) continue;
    seen.add(store.prefix);
    void followStore(store, handlers, abort.signal, log).catch((e: unknown) => {
      log.error('garbage collector stopped following a resource', { resource: store.def.resource, error: (e as Error).message });
    });
  }

  return {
    stop() {
      abort.abort();
      queue.stop();
    },
  };
}
