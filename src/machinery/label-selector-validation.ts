/**
 * Validation of a structured label selector (metav1.LabelSelector) as Kubernetes applies it to the
 * selectors objects carry: label names and values well formed, operators known, values present
 * exactly where the operator needs them.
 */
import { fieldErr, type FieldError, type FieldPath } from './field-errors.js';
import { isQualifiedName, isValidLabelValue } from './name-validation.js';

export interface StructuredSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] }[];
}

export function validateLabelSelector(sel: StructuredSelector | undefined, path: FieldPath): FieldError[] {
  if (!sel) return [];
  const errs: FieldError[] = [];
  const labels = path.child('matchLabels');
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    for (const m of isQualifiedName(k)) errs.push(fieldErr.invalid(labels, k, m));
    for (const m of isValidLabelValue(v)) errs.push(fieldErr.invalid(labels, v, m));
  }
  (sel.matchExpressions ?? []).forEach((req, i) => {
    const at = path.child('matchExpressions').index(i);
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(fieldErr.required(at.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(fieldErr.forbidden(at.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(fieldErr.invalid(at.child('operator'), req.operator, 'not a valid selector operator'));
    }
    for (const m of isQualifiedName(req.key)) errs.push(fieldErr.invalid(at.child('key'), req.key, m));
    values.forEach((v, j) => {
      for (const m of isValidLabelValue(v)) errs.push(fieldErr.invalid(at.child('values').index(j), v, m));
    });
  });
  return errs;
}
