/**
 * Audit annotations admission adds to the request's event. As in Kubernetes, a key once set keeps
 * its first value, and an annotation may ask for a higher audit level than Metadata before the
 * audit backends write it (a webhook's patch shows request content: Request).
 */
import type { AuditContext } from '../../machinery/request-context.js';

export function recordAuditAnnotation(audit: AuditContext | undefined, key: string, value: string, level: 'Metadata' | 'Request' = 'Metadata'): void {
  if (!audit || key in audit.annotations) return;
  audit.annotations[key] = value;
  if (level !== 'Metadata') (audit.annotationLevels ??= {})[key] = level;
}
