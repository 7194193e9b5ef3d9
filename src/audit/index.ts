/**
 * The audit seam: a sink receives a request at each stage Kubernetes audits (RequestReceived, then
 * ResponseComplete, or Panic when a stage failed unexpectedly). The policy that decides what is
 * recorded and the backends (log file, webhook) implement it.
 */
import type { RequestContext } from '../machinery/request-context.js';

export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export interface AuditSink {
  /**
   * Records one stage of a request. Must not throw and must not block the request: a slow backend
   * buffers or drops, as Kubernetes' batching backends do. Reads the context, never mutates it
   * (except `ctx.audit`).
   */
  record(stage: AuditStage, ctx: RequestContext): void;
}
