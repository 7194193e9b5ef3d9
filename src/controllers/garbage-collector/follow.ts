/**
 * Follows one store through the watch cache: a listing, then the watch from the listing's
 * revision. When the watch breaks (too slow, 410, the store failing) it lists again after a backoff
 * and reports the full listing, so the caller can forget objects that vanished in between.
 */
import type { GenericStore } from '../../registry/generic-store.js';
import type { KubeObject } from '../../schema/index.js';
import type { Logger } from '../../machinery/logger.js';
import { EncodedObject } from '../../machinery/encoded-object.js';

export interface FollowHandlers {
  /** Every object the store holds at one revision (the start, and after each relist). */
  listed(store: GenericStore, objects: KubeObject[]): void;
  changed(store: GenericStore, obj: KubeObject): void;
  deleted(store: GenericStore, obj: KubeObject): void;
}

const RETRY_MIN_MS = 200;
const RETRY_MAX_MS = 10_000;

export async function followStore(store: GenericStore, handlers: FollowHandlers, signal: AbortSignal, log: Logger): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    try {
      const listing = await store.list({ namespace: '', signal, resourceVersion: '0' });
      handlers.listed(store, listing.items.map((e) => e.object.parse<KubeObject>()));
      const events = await store.watch({ namespace: '', signal, resourceVersion: listing.resourceVersion }, (revision) =>
        EncodedObject.of({ kind: 'Status', metadata: { resourceVersion: String(revision) } }),
      );
      for await (const ev of events) {
        failures = 0;
        if (ev.type === 'ADDED' || ev.type === 'MODIFIED') handlers.changed(store, ev.object.parse<KubeObject>());
        else if (ev.type === 'DELETED') handlers.deleted(store, ev.object.parse<KubeObject>());
        else if (ev.type === 'ERROR') break;
      }
      if (signal.aborted) return;
      log.debug('garbage collector: watch ended; listing again', { resource: store.def.resource });
    } catch (e) {
      if (signal.aborted) return;
      log.debug('garbage collector: following a resource failed; retrying', { resource: store.def.resource, error: (e as Error).message });
    }
    failures++;
    await sleep(Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.min(failures - 1, 10)), signal);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts; leaves no timer behind. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
