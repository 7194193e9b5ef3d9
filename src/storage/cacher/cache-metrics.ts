/**
 * The watch cache's watchers in Prometheus metrics, read when scraped (nothing on the event path):
 * Kubernetes' `apiserver_registered_watchers` and `apiserver_terminated_watchers_total` (watchers
 * closed because they fell too far behind), and what is queued for the registered ones.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { WatchCache } from './cache.js';

export function registerWatchCacheMetrics(registry: Registry, cache: WatchCache): void {
  const labelled = () => cache.watcherStats().filter((s) => s.labels !== undefined);
  new Gauge({
    name: 'apiserver_registered_watchers',
    help: 'Number of currently registered watchers for a given resources',
    labelNames: ['group', 'version', 'kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of labelled()) if (s.labels) this.set({ group: s.labels.group, version: s.labels.version, kind: s.labels.kind }, s.watchers);
    },
  });
  new Counter({
    name: 'apiserver_terminated_watchers_total',
    help: 'Counter of watchers closed due to unresponsiveness broken by resource type.',
    labelNames: ['resource'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of labelled()) if (s.labels && s.terminated > 0) this.inc({ resource: resourceLabel(s.labels) }, s.terminated);
    },
  });
  new Gauge({
    name: 'apiserver_watch_cache_queued_events',
    help: 'Events queued for registered watchers and not yet taken by them, broken by resource type.',
    labelNames: ['resource'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of labelled()) if (s.labels) this.set({ resource: resourceLabel(s.labels) }, s.queuedEvents);
    },
  });
  new Gauge({
    name: 'apiserver_watch_cache_queued_bytes',
    help: 'Length of the object text of the events queued for registered watchers, broken by resource type.',
    labelNames: ['resource'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of labelled()) if (s.labels) this.set({ resource: resourceLabel(s.labels) }, s.queuedBytes);
    },
  });
}

/** `resource.group`, or the resource alone in the core group, as Kubernetes labels it. */
function resourceLabel(l: { group: string; resource: string }): string {
  return l.group ? `${l.resource}.${l.group}` : l.resource;
}
