/**
 * Kubernetes' admission.NewForbidden: a 403 naming the resource and the object, where the object's
 * name is its name, else its generateName (names are generated after admission in Kubernetes), else
 * "Unknown".
 */
import { errors, type StatusError } from '../machinery/errors.js';
import type { AdmissionAttributes } from '../registry/admission.js';

export function admissionForbidden(a: AdmissionAttributes, message: string): StatusError {
  const meta = a.object?.metadata;
  const name = meta ? meta.name || meta.generateName || 'Unknown' : a.name || 'Unknown';
  return errors.forbidden({ group: a.group, resource: a.resource }, name, message);
}

/** Go's errors aggregate text: repeated messages once, one message alone, several as `[a, b]`. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] as string) : `[${unique.join(', ')}]`;
}
