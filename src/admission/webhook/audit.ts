/**
 * Audit annotations admission adds to the request's event. As in Kubernetes, a key once set keeps
 * its first value. The level each needs is the audit writer's to apply: a webhook's patch
 * (`patch.webhook.admission.<domain>/...`, request content) is written from level Request only, as
 * Kubernetes' AddAnnotationWithLevel(LevelRequest) has it (src/audit/event.ts); the rest from Metadata.
 */
import type { AuditContext } from '../../machinery/request-context.js';

export function recordAuditAnnotation(audit: AuditContext | undefined, key: string, value: string): void {
  if (!audit || key in audit.annotations) return;
  audit.annotations[key] = value;
}
