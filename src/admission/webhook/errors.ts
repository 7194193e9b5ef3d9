/**
 * The three ways a webhook call goes wrong, as Kubernetes tells them apart (for failurePolicy and
 * the rejection metric): the call failed (CallingWebhookError, subject to failurePolicy), the
 * webhook said no (WebhookRejection), or anything else (a StatusError, always fatal).
 */
import { errors, StatusError, type Status, type StatusReason } from '../../machinery/errors.js';

/** A failure to talk to the webhook or to understand its answer; `status` gives the metric's code. */
export class CallingWebhookError extends Error {
  constructor(
    readonly webhookName: string,
    readonly reason: string,
    readonly status: StatusError,
  ) {
    super(`failed calling webhook "${webhookName}": ${reason}`);
    this.name = 'CallingWebhookError';
  }
}

/** The webhook answered `allowed: false`. */
export class WebhookRejection extends Error {
  constructor(readonly status: StatusError) {
    super(status.message);
    this.name = 'WebhookRejection';
  }
}

/**
 * The error a user sees for a webhook's denial: its status, with a code of at least 400 and the
 * message prefixed with who denied it (Kubernetes' ToStatusErr).
 */
export function toStatusErr(webhookName: string, result: unknown): StatusError {
  const r = (result && typeof result === 'object' ? result : {}) as Partial<Status> & { reason?: unknown; message?: unknown; code?: unknown; details?: unknown };
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const code = typeof r.code === 'number' && Number.isInteger(r.code) && r.code >= 400 ? r.code : 400;
  const reason = typeof r.reason === 'string' ? r.reason : '';
  const given = typeof r.message === 'string' ? r.message : '';
  const message = given ? `${deniedBy}: ${given}` : reason ? `${deniedBy}: ${reason}` : `${deniedBy} without explanation`;
  const err = new StatusError(code, 'BadRequest', message);
  // The webhook's own reason (any text) and details travel to the client unchanged.
  if (reason) err.status.reason = reason as StatusReason;
  else delete err.status.reason;
  if (r.details && typeof r.details === 'object' && !Array.isArray(r.details)) err.status.details = r.details as Status['details'] & object;
  return err;
}

export function dryRunUnsupported(webhookName: string): StatusError {
  return errors.badRequest(`admission webhook "${webhookName}" does not support dry run`);
}
