/**
 * StatusError and the constructors for every reason clients know. `toStatus` is the one place where
 * any thrown value becomes a Status; unknown errors become a 500 without internals.
 */
import { fieldErrorBody, fieldErrorText, type FieldError } from './field-errors.js';
import { qualifiedKind, qualifiedResource, type GroupKind, type GroupResource } from './gvk.js';

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'Gone'
  | 'Expired'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Timeout'
  | 'ServerTimeout';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

export class StatusError extends Error {
  readonly status: Status;
  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails) {
    super(message);
    this.name = 'StatusError';
    this.status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
    if (details && Object.keys(details).length) this.status.details = details;
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): StatusReason | undefined {
    return this.status.reason;
  }
}

export function isStatusError(e: unknown, reason?: StatusReason): e is StatusError {
  return e instanceof StatusError && (reason === undefined || e.status.reason === reason);
}

// Status details omit an empty group, as Kubernetes' `omitempty` does for the core group.
const grDetails = (gr: GroupResource, name?: string): StatusDetails => ({
  ...(name ? { name } : {}),
  ...(gr.group ? { group: gr.group } : {}),
  kind: gr.resource,
});

export const errors = {
  notFound(gr: GroupResource, name: string): StatusError {
    return new StatusError(404, 'NotFound', `${qualifiedResource(gr)} "${name}" not found`, grDetails(gr, name));
  },
  alreadyExists(gr: GroupResource, name: string): StatusError {
    return new StatusError(409, 'AlreadyExists', `${qualifiedResource(gr)} "${name}" already exists`, grDetails(gr, name));
  },
  generateNameConflict(gr: GroupResource, name: string, retryAfterSeconds: number): StatusError {
    return new StatusError(
      409,
      'AlreadyExists',
      `${qualifiedResource(gr)} "${name}" already exists, the server was not able to generate a unique name for the object`,
      { ...grDetails(gr, name), retryAfterSeconds },
    );
  },
  conflict(gr: GroupResource, name: string, why: string): StatusError {
    return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`, grDetails(gr, name));
  },
  /** The optimistic-concurrency conflict, in the words clients match on. */
  modified(gr: GroupResource, name: string): StatusError {
    return errors.conflict(gr, name, 'the object has been modified; please apply your changes to the latest version and try again');
  },
  invalid(gk: GroupKind, name: string, errs: readonly FieldError[]): StatusError {
    const list = errs.map(fieldErrorText);
    const summary = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
    return new StatusError(422, 'Invalid', `${qualifiedKind(gk)} "${name}" is invalid: ${summary}`, {
      ...(name ? { name } : {}),
      ...(gk.group ? { group: gk.group } : {}),
      ...(gk.kind ? { kind: gk.kind } : {}),
      causes: errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
    });
  },
  badRequest(message: string): StatusError {
    return new StatusError(400, 'BadRequest', message);
  },
  unauthorized(message = 'Unauthorized'): StatusError {
    return new StatusError(401, 'Unauthorized', message);
  },
  forbidden(gr: GroupResource, name: string, why: string): StatusError {
    // A non-resource path names no resource: Kubernetes says just "forbidden: ...".
    if (!gr.group && !gr.resource) return new StatusError(403, 'Forbidden', `forbidden: ${why}`, {});
    const subject = name ? `${qualifiedResource(gr)} "${name}"` : qualifiedResource(gr);
    return new StatusError(403, 'Forbidden', `${subject} is forbidden: ${why}`, grDetails(gr, name));
  },
  methodNotAllowed(message = 'the server does not allow this method on the requested resource'): StatusError {
    return new StatusError(405, 'MethodNotAllowed', message);
  },
  notAcceptable(supported: readonly string[]): StatusError {
    return new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${supported.join(', ')}`);
  },
  /** In Kubernetes' words, which do not repeat the type sent. */
  unsupportedMediaType(supported: readonly string[]): StatusError {
    return new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${supported.join(', ')}`);
  },
  gone(message: string): StatusError {
    return new StatusError(410, 'Gone', message);
  },
  expired(message: string): StatusError {
    return new StatusError(410, 'Expired', message);
  },
  requestEntityTooLarge(limit: number): StatusError {
    return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
  },
  tooManyRequests(message: string, retryAfterSeconds: number): StatusError {
    return new StatusError(429, 'TooManyRequests', message, { retryAfterSeconds });
  },
  internal(message: string): StatusError {
    return new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
  },
  serviceUnavailable(message: string): StatusError {
    return new StatusError(503, 'ServiceUnavailable', message);
  },
  timeout(message: string, retryAfterSeconds = 0): StatusError {
    return new StatusError(504, 'Timeout', `Timeout: ${message}`, retryAfterSeconds ? { retryAfterSeconds } : undefined);
  },
  tooLargeResourceVersion(requested: number, current: number, retryAfterSeconds: number): StatusError {
    const e = errors.timeout(`Too large resource version: ${requested}, current: ${current}`, retryAfterSeconds);
    e.status.details = { ...e.status.details, causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] };
    return e;
  },
};

/** The one place where anything thrown becomes a Status. Never leaks internals of unknown errors. */
export function toStatus(err: unknown): Status {
  if (err instanceof StatusError) return err.status;
  return errors.internal('an unexpected error happened while serving the request; the server log has the details').status;
}
