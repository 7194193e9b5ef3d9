/** The status of both flowcontrol kinds: conditions keyed by type, written only through `/status`. */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { type PartialSubresource, statusSubresource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/index.js';

/** Each condition needs a type, and no two share one. */
export function validateConditions(conditions: readonly { type?: string }[] | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const at = FieldPath.root('status').child('conditions').index(i).child('type');
    const type = c.type ?? '';
    if (seen.has(type)) errs.push(fieldErr.duplicate(at, type));
    seen.add(type);
    if (!type) errs.push(fieldErr.required(at, 'must not be empty'));
  });
  return errs;
}

/**
 * `/status` of FlowSchema and PriorityLevelConfiguration: as in Kubernetes, a status write changes
 * status alone; the spec and the metadata (but for managedFields, which record the write) stay as
 * stored.
 */
export function flowcontrolStatus<T extends KubeObject & { status: { conditions?: { type?: string }[] } }>(): PartialSubresource<T> {
  return statusSubresource<T>({
    prepareForUpdate(obj, old) {
      const managedFields = obj.metadata.managedFields;
      obj.metadata = structuredClone(old.metadata);
      if (managedFields === undefined) delete obj.metadata.managedFields;
      else obj.metadata.managedFields = managedFields;
    },
    validateUpdate: (obj) => validateConditions(obj.status.conditions),
  });
}
