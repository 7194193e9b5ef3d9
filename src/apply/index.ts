/** Server-side apply: field sets, typed merging, ownership bookkeeping and managedFields. */
export { FieldSet } from './field-set.js';
export { isObject, type JsonObject, type JsonValue } from './value.js';
export { fromFieldsV1, toFieldsV1, FieldsV1Error } from './fields-v1.js';
export { pe, fieldPath, pathToString, elementKey, parseElementKey, type Path, type PathElement } from './path.js';
export { DEDUCED, type TypeRef } from './schema-view.js';
export { toFieldSet } from './to-field-set.js';
export { mergeValues } from './merge.js';
export { compareValues, type Comparison } from './compare.js';
export { removeItems } from './remove.js';
export { reconcileWithSchema } from './reconcile.js';
export { validateTyped } from './validate.js';
export { Updater, ConflictError, type Conflict, type ManagedFields, type VersionedSet } from './updater.js';
export { applyConflictError, conflictMessage } from './conflicts.js';
export {
  decodeManagedFields,
  encodeManagedFields,
  isResetRequest,
  managerIdentifier,
  ANCIENT_CHANGES,
  type ManagedFieldsEntry,
} from './managed-fields.js';
export { FieldManager, MAX_UPDATE_MANAGERS, type FieldManagerOptions, type WriteRequest, type ApplyRequest } from './field-manager.js';
export { validateFieldManager, managerFromUserAgent, FIELD_MANAGER_MAX_LENGTH } from './manager-name.js';
export { viewEntriesFromParent, parentEntriesFromView, type ViewFieldMapping } from './view-fields.js';
