/**
 * The request context every filter and handler shares: the transport (http/) plus typed fields the
 * filters set on the way in, in the chain's order (src/server/chain.ts). Never a string-keyed bag:
 * a new concern adds a field here, named and documented.
 */
import type { HttpContext } from '../http/context.js';
import type { HttpRequest, HttpResponse, TlsPeer } from '../http/listener.js';
import { parseRequestTarget, RequestTargetError, type RequestTarget } from '../http/request-target.js';
import { recordResponse } from '../http/response-recorder.js';
import type { RequestInfo } from './request-info.js';
import type { UserInfo } from './user-info.js';

/** How much of a request the audit policy records, least first (audit.<domain>/v1 Level). */
export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';

export interface AuditContext {
  /** The request's audit ID, set by the audit filter (the client's `Audit-ID` or a new one). */
  id?: string;
  /** Annotations that later stages (authorization, admission) add to the request's audit event. */
  readonly annotations: Record<string, string>;
  /**
   * The level the audit policy chose for this request, set by the audit filter after
   * authentication; absent while auditing is off. Handlers record bodies only at the levels that
   * ask for them (src/machinery/audit-record.ts), so an unaudited request pays nothing.
   */
  level?: AuditLevel;
  /** The policy asks for request and response objects without metadata.managedFields. */
  omitManagedFields?: boolean;
  /** What handlers recorded for the event (src/machinery/audit-record.ts); the audit filter reads them. */
  record?: AuditRecord;
}

/** What the handlers tell the audit event; each field only at the level that logs it. */
export interface AuditRecord {
  /** The decoded request body (Request level and above). */
  requestObject?: unknown;
  /** The answer's object (RequestResponse level). */
  responseObject?: unknown;
  /** The answer's Status, when the answer is one (Metadata level and above). */
  responseStatus?: { status?: string; message?: string; reason?: string; details?: unknown; code?: number };
  /** The request object's name, uid and resourceVersion complete the event's objectRef (Metadata and above). */
  objectName?: string;
  objectUid?: string;
  objectResourceVersion?: string;
}

export interface PriorityAssignment {
  readonly flowSchema: string;
  readonly priorityLevel: string;
}

export interface RequestContext extends HttpContext {
  /**
   * Verb, group, version, resource, subresource, namespace and name, set by withRequestInfo before
   * any filter that needs it. Reading it earlier is a bug in the chain and throws.
   */
  info: RequestInfo;
  /** Watches and the like: no deadline, counted apart in metrics. Set with `info`. */
  longRunning: boolean;
  /** When the request times out (epoch milliseconds); undefined for long-running requests. Set by withDeadline. */
  deadline: number | undefined;
  /** Who is asking; set by authentication (and impersonation), absent while authentication is off. */
  user?: UserInfo;
  readonly audit: AuditContext;
  /** The flow schema and priority level the request was classified into, set by flow control. */
  priority?: PriorityAssignment;
  /** The server's protobuf media type (`application/vnd.orch.protobuf`); protobuf is off without it. */
  protobufMediaType?: string;
  /**
   * Set by the resource router for a resource that has no protobuf form: none of its answers, its
   * errors included, is protobuf (as Kubernetes answers for custom resources).
   */
  protobufRefused?: boolean;
}

export interface RequestContextOptions {
  protobufMediaType?: string;
  /** Aborted when the client goes away; the deadline filter narrows it. */
  signal: AbortSignal;
  /** What the TLS handshake learned of the client; absent on plain HTTP. */
  tls?: TlsPeer;
}

/** A fresh context for one request, its response recorded from the first byte. */
export function createRequestContext(req: HttpRequest, res: HttpResponse, opts: RequestContextOptions): RequestContext {
  let info: RequestInfo | undefined;
  let target: RequestTarget;
  let targetError: string | undefined;
  try {
    target = parseRequestTarget(req.url ?? '/');
  } catch (e) {
    if (!(e instanceof RequestTargetError)) throw e;
    targetError = e.message;
    target = parseRequestTarget('/');
  }
  return {
    req,
    res,
    ...(opts.tls ? { tls: opts.tls } : {}),
    url: target.url,
    path: target.path,
    ...(targetError !== undefined ? { targetError } : {}),
    signal: opts.signal,
    startedAt: process.hrtime.bigint(),
    warnings: [],
    response: recordResponse(res),
    get info(): RequestInfo {
      if (!info) throw new Error('the request info was read before withRequestInfo parsed it');
      return info;
    },
    set info(value: RequestInfo) {
      info = value;
    },
    longRunning: false,
    deadline: undefined,
    audit: { annotations: {} },
    ...(opts.protobufMediaType ? { protobufMediaType: opts.protobufMediaType } : {}),
  };
}
