/**
 * What a webhook call's outcome means for the metrics and for the request, shared by both
 * dispatchers: Kubernetes counts a rejection by error type, and turns a failed call into an
 * internal error (failurePolicy Fail) or lets the request go on (Ignore).
 */
import type { AdmissionOperation } from '../../registry/admission.js';
import { errors, StatusError } from '../../machinery/errors.js';
import { CallingWebhookError, WebhookRejection } from './errors.js';
import type { WebhookMetrics, WebhookStep } from './metrics.js';

/** Records the call in the metrics; returns whether it failed open (a failed call under Ignore). */
export function observeOutcome(metrics: WebhookMetrics, name: string, step: WebhookStep, operation: AdmissionOperation, ignore: boolean, seconds: number, err: unknown): boolean {
  if (err === undefined) {
    metrics.observeWebhook(name, step, operation, seconds, false, 200);
    return false;
  }
  if (err instanceof CallingWebhookError) {
    if (!ignore) metrics.observeRejection(name, step, operation, 'calling_webhook_error', err.status.code);
    metrics.observeWebhook(name, step, operation, seconds, !ignore, err.status.code);
    if (ignore) metrics.observeFailOpen(name, step);
    return ignore;
  }
  if (err instanceof WebhookRejection) {
    metrics.observeRejection(name, step, operation, 'no_error', err.status.code);
    metrics.observeWebhook(name, step, operation, seconds, true, err.status.code);
    return false;
  }
  metrics.observeRejection(name, step, operation, 'apiserver_internal_error', 0);
  metrics.observeWebhook(name, step, operation, seconds, true, 0);
  return false;
}

/** The error the request fails with, for an outcome that did not fail open. */
export function requestError(err: unknown): StatusError {
  if (err instanceof CallingWebhookError) return errors.internal(err.message);
  if (err instanceof WebhookRejection) return err.status;
  if (err instanceof StatusError) return err;
  return errors.internal(err instanceof Error ? err.message : String(err));
}

export const seconds = (startNs: bigint): number => Number(process.hrtime.bigint() - startNs) / 1e9;
