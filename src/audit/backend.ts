/**
 * Where audit events go. A backend takes events and answers whether it stored them; only a
 * blocking-strict backend's `false` matters to the request (it then fails, as in Kubernetes).
 * Backends never throw: a failure is logged and counted in `apiserver_audit_error_total`.
 */
import type { AuditEvent } from './types.js';

export interface AuditBackend {
  /** The plugin name errors are counted under: `log`, `webhook`, `buffered`. */
  readonly name: string;
  /** Takes the events; the backend may keep them (events are never changed after). Never throws. */
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean>;
  /** Delivers what it holds, within a bound, then releases its resources. */
  shutdown(): Promise<void>;
}

/** The counters Kubernetes keeps about auditing (src/server/metrics.ts backs them). */
export interface AuditMetrics {
  /** apiserver_audit_event_total: events generated and handed to the backends. */
  eventGenerated(): void;
  /** apiserver_audit_error_total{plugin}: events a backend failed to store, or dropped. */
  eventsFailed(plugin: string, count: number): void;
  /** apiserver_audit_level_total{level}: one per request, the level the policy chose. */
  levelChosen(level: string): void;
  /** apiserver_audit_requests_rejected_total: requests refused because their event could not be stored. */
  requestRejected(): void;
}

export const NO_AUDIT_METRICS: AuditMetrics = {
  eventGenerated: () => undefined,
  eventsFailed: () => undefined,
  levelChosen: () => undefined,
  requestRejected: () => undefined,
};

/** Every backend gets every event; stored only when all stored it. */
export function unionBackends(backends: readonly AuditBackend[]): AuditBackend {
  if (backends.length === 1) return backends[0] as AuditBackend;
  return {
    name: backends.map((b) => b.name).join(','),
    processEvents(events) {
      const results = backends.map((b) => b.processEvents(events));
      if (results.every((r): r is boolean => typeof r === 'boolean')) return results.every(Boolean);
      return Promise.all(results).then((all) => all.every(Boolean));
    },
    async shutdown() {
      await Promise.all(backends.map((b) => b.shutdown()));
    },
  };
}

/** Blocking mode: the request waits for the backend, but a failure does not fail it. */
export function ignoreErrors(backend: AuditBackend): AuditBackend {
  return {
    name: backend.name,
    processEvents(events) {
      const r = backend.processEvents(events);
      return typeof r === 'boolean' ? true : r.then(() => true);
    },
    shutdown: () => backend.shutdown(),
  };
}
