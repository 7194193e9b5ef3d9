/** The server's Prometheus metrics, in a registry of its own (many servers may share a process). */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ApiMetrics } from '../machinery/metrics.js';

/** The metrics the request path records, and the registry `/metrics` exposes them from. */
export interface ServerMetrics extends ApiMetrics {
  readonly registry: Registry;
}

const REQUEST_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];

export function createApiMetrics(): ServerMetrics {
  const registry = new Registry();
  return {
    registry,
    requests: new Counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: [...REQUEST_LABELS, 'code'],
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: REQUEST_LABELS,
      buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
      registers: [registry],
    }),
    inflight: new Gauge({ name: 'apiserver_current_inflight_requests', help: 'Number of requests currently being served.', registers: [registry] }),
    longRunning: new Gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component.',
      labelNames: ['verb', 'group', 'version', 'resource', 'scope', 'component'],
      registers: [registry],
    }),
    deprecatedApis: new Gauge({
      name: 'apiserver_requested_deprecated_apis',
      help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
      registers: [registry],
    }),
    watchEvents: new Counter({
      name: 'apiserver_watch_events_total',
      help: 'Number of events sent in watch clients',
      labelNames: ['group', 'version', 'kind'],
      registers: [registry],
    }),
  };
}
