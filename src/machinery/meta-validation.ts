/**
 * Labels and annotations as Kubernetes validates them wherever they appear: an object's metadata,
 * the metadata of a template it carries (pods of a Deployment, claims of an ephemeral volume), a
 * Service selector or a pod's nodeSelector. Pure; returns FieldError[].
 */
import { fieldErr, type FieldError, type FieldPath } from './field-errors.js';
import { isQualifiedName, isValidLabelValue } from './name-validation.js';

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** Keys are qualified names and values label values; errors name the map itself, as Kubernetes' do. */
export function validateLabels(labels: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const m of isQualifiedName(k)) errs.push(fieldErr.invalid(path, k, m));
    for (const m of isValidLabelValue(v)) errs.push(fieldErr.invalid(path, v, m));
  }
  return errs;
}

/** Keys are qualified names (case-insensitively); keys and values together fit in 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(fieldErr.invalid(path, k, m));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
    errs.push({ type: 'FieldValueTooLong', field: String(path), detail: `must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes` });
  }
  return errs;
}
