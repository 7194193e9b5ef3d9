/**
 * Validation of the structured LabelSelector that object specs carry (`matchLabels`,
 * `matchExpressions`), with Kubernetes' messages and field paths. Pure; returns FieldError[].
 */
import { fieldErr, type FieldError, type FieldPath } from './field-errors.js';
import { validateLabels } from './meta-validation.js';
import { isQualifiedName, isValidLabelValue } from './name-validation.js';

/** The shape of `meta/v1` LabelSelector as decoded (operators are free strings until validated). */
export interface LabelSelectorValue {
  matchLabels?: Record<string, string>;
  matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] }[];
}

export interface LabelSelectorValidationOptions {
  /**
   * Tolerates `values` that are not valid label values. Only for updates of objects that already
   * hold such a selector, which older servers accepted.
   */
  allowInvalidLabelValueInSelector?: boolean;
}

export function validateLabelSelector(sel: LabelSelectorValue | undefined, path: FieldPath, opts: LabelSelectorValidationOptions = {}): FieldError[] {
  if (!sel) return [];
  const errs = validateLabels(sel.matchLabels, path.child('matchLabels'));
  (sel.matchExpressions ?? []).forEach((e, i) => {
    const p = path.child('matchExpressions').index(i);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(fieldErr.required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(fieldErr.forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(fieldErr.invalid(p.child('operator'), e.operator, 'not a valid selector operator'));
    }
    for (const m of isQualifiedName(e.key)) errs.push(fieldErr.invalid(p.child('key'), e.key, m));
    if (!opts.allowInvalidLabelValueInSelector) {
      values.forEach((v, j) => {
        for (const m of isValidLabelValue(v)) errs.push(fieldErr.invalid(p.child('values').index(j), v, m));
      });
    }
  });
  return errs;
}

/** Whether any expression of the selector lists a value that is not a valid label value. */
export function hasInvalidLabelValueInSelector(sel: LabelSelectorValue | undefined): boolean {
  return (sel?.matchExpressions ?? []).some((e) => (e.values ?? []).some((v) => isValidLabelValue(v).length > 0));
}

/**
 * Whether the selector converts to a label matcher at all (Kubernetes' LabelSelectorAsSelector):
 * known operators with the right number of values, and valid keys and values throughout.
 */
export function isConvertibleLabelSelector(sel: LabelSelectorValue | undefined): boolean {
  if (!sel) return true;
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    if (isQualifiedName(k).length || isValidLabelValue(v).length) return false;
  }
  for (const e of sel.matchExpressions ?? []) {
    const values = e.values ?? [];
    if (isQualifiedName(e.key).length) return false;
    if (e.operator === 'In' || e.operator === 'NotIn') {
      if (values.length === 0) return false;
    } else if (e.operator === 'Exists' || e.operator === 'DoesNotExist') {
      if (values.length > 0) return false;
    } else {
      return false;
    }
    if (values.some((v) => isValidLabelValue(v).length > 0)) return false;
  }
  return true;
}
