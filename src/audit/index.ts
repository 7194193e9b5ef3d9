/**
 * Auditing (document 3, Events; Kubernetes' audit): the policy decides per request how much is
 * recorded (None, Metadata, Request, RequestResponse) and at which stages (RequestReceived,
 * ResponseStarted for long-running requests, ResponseComplete, Panic); events go to a log file
 * and/or a webhook. The filters (src/filters/with-audit*.ts) build the events; handlers add the
 * request and response objects through src/machinery/audit-record.ts.
 */
export type { AuditEvent, AuditLevel, AuditPolicy, AuditStage, PolicyRule, RequestAuditConfig, ResponseStatus } from './types.js';
export { AUDIT_LEVELS, AUDIT_STAGES } from './types.js';
export { NO_AUDIT_METRICS, type AuditBackend, type AuditMetrics } from './backend.js';
export { BACKEND_MODES, createAuditor, DEFAULT_LOG_BATCH, DEFAULT_WEBHOOK_BATCH, type AuditConfig, type AuditLogOptions, type Auditor, type AuditWebhookOptions, type BackendMode } from './auditor.js';
export type { BatchConfig } from './buffered-backend.js';
export { LOG_FORMATS, type LogFormat } from './log-backend.js';
export { loadPolicyFile, parsePolicy } from './policy-file.js';
export { createPolicyChecker, ruleMatches, type AuditAttributes, type CredentialResource, type PolicyChecker } from './policy-checker.js';
export { receivedAtMs, stageEvent } from './event.js';
export type { WebhookTarget } from './webhook-backend.js';
