/**
 * ClusterRoleBinding (rbac.authorization/v1, cluster-scoped): grants a ClusterRole to subjects
 * across the whole cluster. The role it names cannot change.
 */
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { RoleRef, Subject } from './types.js';
import { defaultBinding, rbacGroup, validateRoleRef, validateRoleRefUnchanged, validateSubjects } from './validation.js';
import { bindingTable } from './tables.js';

export const ClusterRoleBindingSchema = t.struct('rbac.v1.ClusterRoleBinding', {
  ...objectHeader,
  subjects: t.field(2, t.list(Subject), { description: 'Who the role is granted to. ServiceAccount subjects must name their namespace.' }),
  roleRef: t.required(3, RoleRef, {
    description: 'The ClusterRole whose rules are granted. If it cannot be resolved the authorizer returns an error. It cannot be changed: delete and recreate the binding instead.',
  }),
}, { description: 'Grants the rules of a ClusterRole to users, groups or service accounts, in every namespace and for cluster-scoped resources.' });
export type ClusterRoleBinding = ObjectOf<typeof ClusterRoleBindingSchema>;

export const clusterRoleBindingResource = defineResource<ClusterRoleBinding>((names) => ({
  group: rbacGroup(names),
  version: 'v1',
  kind: 'ClusterRoleBinding',
  resource: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  namespaced: false,
  schema: ClusterRoleBindingSchema,
  table: bindingTable,
  fixture: () => ({ roleRef: { apiGroup: rbacGroup(names), kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'Group', name: 'readers' }] }),
  strategy: {
    nameValidator: nameValidators.pathSegment,
    allowCreateOnUpdate: true,
    defaults: (crb) => defaultBinding(crb, names),
    validate: (crb) => [...validateRoleRef(crb.roleRef, ['ClusterRole'], names), ...validateSubjects(crb.subjects, false, names)],
    validateUpdate: (crb, old) => validateRoleRefUnchanged(crb.roleRef, old.roleRef),
  },
}));
