/**
 * RoleBinding (rbac.authorization/v1, namespaced): grants a Role, or a ClusterRole's rules, to
 * subjects within the binding's namespace. The role it names cannot change.
 */
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { RoleRef, Subject } from './types.js';
import { defaultBinding, rbacGroup, validateRoleRef, validateRoleRefUnchanged, validateSubjects } from './validation.js';
import { bindingTable } from './tables.js';

export const RoleBindingSchema = t.struct('rbac.v1.RoleBinding', {
  ...objectHeader,
  subjects: t.field(2, t.list(Subject), { description: 'Who the role is granted to.' }),
  roleRef: t.required(3, RoleRef, {
    description: 'The Role in this namespace, or a ClusterRole, whose rules are granted. It cannot be changed: delete and recreate the binding instead.',
  }),
}, { description: 'Grants the rules of a role to users, groups or service accounts, within the namespace of the binding.' });
export type RoleBinding = ObjectOf<typeof RoleBindingSchema>;

export const roleBindingResource = defineResource<RoleBinding>((names) => ({
  group: rbacGroup(names),
  version: 'v1',
  kind: 'RoleBinding',
  resource: 'rolebindings',
  singular: 'rolebinding',
  namespaced: true,
  schema: RoleBindingSchema,
  table: bindingTable,
  fixture: () => ({ roleRef: { apiGroup: rbacGroup(names), kind: 'Role', name: 'reader' }, subjects: [{ kind: 'ServiceAccount', name: 'default' }] }),
  strategy: {
    nameValidator: nameValidators.pathSegment,
    allowCreateOnUpdate: true,
    defaults: (rb) => defaultBinding(rb, names),
    validate: (rb) => [...validateRoleRef(rb.roleRef, ['Role', 'ClusterRole'], names), ...validateSubjects(rb.subjects, true, names)],
    validateUpdate: (rb, old) => validateRoleRefUnchanged(rb.roleRef, old.roleRef),
  },
}));
