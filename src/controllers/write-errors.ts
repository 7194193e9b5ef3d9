/** Refusals a controller's write may meet that mean "nothing left to do here", not "try again". */
import { isStatusError } from '../machinery/errors.js';

/** NamespaceLifecycle's refusal of new content in a namespace being deleted. */
export function isNamespaceTerminating(e: unknown): boolean {
  return isStatusError(e, 'Forbidden') && (e.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}
