/**
 * Field manager names: the `fieldManager` parameter's rules (at most 128 characters, all
 * printable) and the default Kubernetes derives from the User-Agent (the part before the first
 * '/', unprintable characters dropped, cut to the limit). Pure.
 */
import type { FieldError } from '../machinery/field-errors.js';

export const FIELD_MANAGER_MAX_LENGTH = 128;

/** Printable as Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrintable(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

export function validateFieldManager(name: string): FieldError[] {
  const errs: FieldError[] = [];
  if (name.length > FIELD_MANAGER_MAX_LENGTH) {
    errs.push({ type: 'FieldValueTooLong', field: 'fieldManager', value: name, detail: `may not be more than ${FIELD_MANAGER_MAX_LENGTH} bytes` });
  }
  let i = 0;
  for (const ch of name) {
    if (!isPrintable(ch)) {
      const code = ch.codePointAt(0) as number;
      const hex = code.toString(16).toUpperCase().padStart(4, '0');
      errs.push({ type: 'FieldValueInvalid', field: 'fieldManager', value: name, detail: `invalid character U+${hex} (at position ${i})` });
    }
    i += Buffer.byteLength(ch);
  }
  return errs;
}

/** The manager name of a write that names none: what the User-Agent starts with. */
export function managerFromUserAgent(userAgent: string | undefined): string {
  const head = (userAgent ?? '').split('/')[0] ?? '';
  let out = '';
  for (const ch of head) {
    if (!isPrintable(ch)) continue;
    if (Buffer.byteLength(out + ch) > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
  }
  return out;
}
