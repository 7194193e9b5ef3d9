/**
 * Admission metrics with Kubernetes' names and labels: webhook latency, requests, rejections and
 * fail-open counts, and the per-plugin latency. Each is taken from the registry when another part of
 * the server registered it first, so the chain and the webhook plugins can share one.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { AdmissionOperation } from '../../registry/admission.js';

/** `admit` for mutating webhooks, `validating` for validating ones, as Kubernetes labels them. */
export type WebhookStep = 'admit' | 'validating';
export type RejectionErrorType = 'calling_webhook_error' | 'no_error' | 'apiserver_internal_error';

export interface WebhookMetrics {
  observeWebhook(name: string, step: WebhookStep, operation: AdmissionOperation, seconds: number, rejected: boolean, code: number): void;
  observeRejection(name: string, step: WebhookStep, operation: AdmissionOperation, errorType: RejectionErrorType, code: number): void;
  observeFailOpen(name: string, step: WebhookStep): void;
  /** One admission plugin's phase: `type` is `admit` or `validate`. */
  observePlugin(name: string, type: 'admit' | 'validate', operation: AdmissionOperation, seconds: number, rejected: boolean): void;
}

const BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];

/** Codes above 600 are cut to 600, to keep the label's values bounded. */
const capped = (code: number): string => String(Math.min(code, 600));

function histogram(registry: Registry, name: string, help: string, labelNames: string[]): Histogram {
  const existing = registry.getSingleMetric(name);
  if (existing instanceof Histogram) return existing;
  return new Histogram({ name, help, labelNames, buckets: BUCKETS, registers: [registry] });
}

function counter(registry: Registry, name: string, help: string, labelNames: string[]): Counter {
  const existing = registry.getSingleMetric(name);
  if (existing instanceof Counter) return existing;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

export function createWebhookMetrics(registry: Registry): WebhookMetrics {
  const webhookLatency = histogram(
    registry,
    'apiserver_admission_webhook_admission_duration_seconds',
    'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    ['name', 'type', 'operation', 'rejected'],
  );
  const requests = counter(
    registry,
    'apiserver_admission_webhook_request_total',
    'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
    ['name', 'type', 'operation', 'code', 'rejected'],
  );
  const rejections = counter(
    registry,
    'apiserver_admission_webhook_rejection_count',
    'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
    ['name', 'type', 'operation', 'error_type', 'rejection_code'],
  );
  const failOpen = counter(
    registry,
    'apiserver_admission_webhook_fail_open_count',
    'Admission webhook fail open count, identified by name and broken out for each admission type (validating or mutating).',
    ['name', 'type'],
  );
  const pluginLatency = histogram(
    registry,
    'apiserver_admission_controller_admission_duration_seconds',
    'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    ['name', 'type', 'operation', 'rejected'],
  );
  return {
    observeWebhook(name, step, operation, seconds, rejected, code) {
      requests.inc({ name, type: step, operation, code: capped(code), rejected: String(rejected) });
      webhookLatency.observe({ name, type: step, operation, rejected: String(rejected) }, seconds);
    },
    observeRejection(name, step, operation, errorType, code) {
      rejections.inc({ name, type: step, operation, error_type: errorType, rejection_code: capped(code) });
    },
    observeFailOpen(name, step) {
      failOpen.inc({ name, type: step });
    },
    observePlugin(name, type, operation, seconds, rejected) {
      pluginLatency.observe({ name, type, operation, rejected: String(rejected) }, seconds);
    },
  };
}
