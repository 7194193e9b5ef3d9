/**
 * ControllerRevision (apps/v1): an immutable snapshot of state that controllers keep for updates and
 * rollback. `data` (any JSON object) is required and can never change; the object can be deleted.
 */
import { isDeepStrictEqual } from 'node:util';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { controllerRevisionTable } from './tables.js';

export const ControllerRevisionSchema = t.struct('apps.v1.ControllerRevision', {
  ...objectHeader,
  data: t.field(2, t.raw({ name: 'runtime.RawExtension' }), { description: 'The serialized state; its clients encode and decode it. Immutable.' }),
  revision: t.required(3, t.int64(), { always: true, description: 'The revision of the state in data.' }),
}, { description: 'An immutable snapshot of state data, used by controllers for updates and rollback.' });
export type ControllerRevision = ObjectOf<typeof ControllerRevisionSchema>;

function validateRevision(cr: ControllerRevision): FieldError[] {
  const errs: FieldError[] = [];
  // An absent RawExtension decodes to null; Kubernetes insists on a value.
  if (cr.data === null || cr.data === undefined) errs.push(fieldErr.required(FieldPath.root('data'), 'data is mandatory'));
  if (cr.revision < 0) errs.push(fieldErr.invalid(FieldPath.root('revision'), cr.revision, 'must be greater than or equal to 0'));
  return errs;
}

export const controllerRevisionResource = defineResource<ControllerRevision>(() => ({
  group: 'apps',
  version: 'v1',
  kind: 'ControllerRevision',
  resource: 'controllerrevisions',
  singular: 'controllerrevision',
  namespaced: true,
  schema: ControllerRevisionSchema,
  table: controllerRevisionTable,
  fixture: () => ({ data: { spec: { template: { metadata: { labels: { app: 'web' } } } } }, revision: 1 }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    validate: validateRevision,
    validateUpdate(cr, old) {
      return isDeepStrictEqual(cr.data, old.data) ? [] : [fieldErr.immutable(FieldPath.root('data'), cr.data)];
    },
  },
}));
