/**
 * How handlers feed the request's audit event, as Kubernetes' LogRequestObject and
 * LogResponseObject do: each call checks the level the policy chose and records only what that
 * level logs, taking a snapshot so later changes to the object do not leak into the event. Without
 * auditing (no level) every call returns at once. None of them throws.
 */
import type { AuditContext, AuditLevel, AuditRecord } from './request-context.js';

const RANK: Record<AuditLevel, number> = { None: 0, Metadata: 1, Request: 2, RequestResponse: 3 };

/** Whether `level` records at least as much as `min`; an absent level (auditing off) records nothing. */
export function auditLevelAtLeast(level: AuditLevel | undefined, min: AuditLevel): boolean {
  return level !== undefined && RANK[level] >= RANK[min];
}

function recordOf(audit: AuditContext): AuditRecord {
  return (audit.record ??= {});
}

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A deep copy for the event, without managedFields when the policy says so (objects, list items, table rows). */
export function auditSnapshot(value: unknown, omitManagedFields: boolean): unknown {
  const copy: unknown = structuredClone(value);
  if (omitManagedFields) dropManagedFields(copy);
  return copy;
}

function dropManagedFields(value: unknown): void {
  if (!isDict(value)) return;
  if (isDict(value.metadata)) delete value.metadata.managedFields;
  if (Array.isArray(value.items)) for (const item of value.items) dropManagedFields(item);
  if (Array.isArray(value.rows)) for (const row of value.rows) if (isDict(row)) dropManagedFields(row.object);
}

/** The request body as decoded: its name, uid and resourceVersion at Metadata level, the object itself from Request level. */
export function auditRequestObject(audit: AuditContext, value: unknown): void {
  if (!auditLevelAtLeast(audit.level, 'Metadata')) return;
  const record = recordOf(audit);
  const meta = isDict(value) && isDict(value.metadata) ? value.metadata : undefined;
  if (meta && typeof meta.name === 'string' && meta.name) record.objectName ??= meta.name;
  if (meta && typeof meta.uid === 'string' && meta.uid) record.objectUid ??= meta.uid;
  if (meta && typeof meta.resourceVersion === 'string' && meta.resourceVersion) record.objectResourceVersion ??= meta.resourceVersion;
  if (!auditLevelAtLeast(audit.level, 'Request')) return;
  record.requestObject = auditSnapshot(value, audit.omitManagedFields === true);
}

/** A patch body, recorded as the request object from Request level (Kubernetes' LogRequestPatch). */
export function auditRequestPatch(audit: AuditContext, patch: unknown): void {
  if (!auditLevelAtLeast(audit.level, 'Request')) return;
  recordOf(audit).requestObject = structuredClone(patch);
}

/** The answer: its Status fields at Metadata level when it is a Status, the whole object at RequestResponse. */
export function auditResponseObject(audit: AuditContext, value: unknown): void {
  if (!auditLevelAtLeast(audit.level, 'Metadata')) return;
  const record = recordOf(audit);
  if (isDict(value) && value.kind === 'Status' && typeof value.code === 'number') {
    const { status, message, reason, details, code } = value as Dict & { code: number };
    record.responseStatus = {
      ...(typeof status === 'string' && status ? { status } : {}),
      ...(typeof message === 'string' && message ? { message } : {}),
      ...(typeof reason === 'string' && reason ? { reason } : {}),
      ...(details !== undefined ? { details } : {}),
      code,
    };
  }
  if (!auditLevelAtLeast(audit.level, 'RequestResponse')) return;
  record.responseObject = auditSnapshot(value, audit.omitManagedFields === true);
}

/** An answer written as stored JSON text: parsed only when the level logs the response object. */
export function auditResponseText(audit: AuditContext, text: string): void {
  if (!auditLevelAtLeast(audit.level, 'RequestResponse')) return;
  try {
    auditResponseObject(audit, JSON.parse(text) as unknown);
  } catch {
    // Not JSON: nothing the event can carry.
  }
}
