/** Role (rbac.authorization/v1, namespaced): rules that allow verbs on resources in one namespace. */
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { PolicyRule } from './types.js';
import { rbacGroup, validatePolicyRules } from './validation.js';

export const RoleSchema = t.struct('rbac.v1.Role', {
  ...objectHeader,
  rules: t.field(2, t.list(PolicyRule), { always: true, description: 'What the role allows, in its namespace. Rules only add: nothing is denied.' }),
}, { description: 'A set of permissions within one namespace, granted to subjects by RoleBindings.' });
export type Role = ObjectOf<typeof RoleSchema>;

export const roleResource = defineResource<Role>((names) => ({
  group: rbacGroup(names),
  version: 'v1',
  kind: 'Role',
  resource: 'roles',
  singular: 'role',
  namespaced: true,
  schema: RoleSchema,
  fixture: () => ({ rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }] }),
  strategy: {
    // Role names only need to be usable as a path segment, as in Kubernetes.
    nameValidator: nameValidators.pathSegment,
    allowCreateOnUpdate: true,
    validate: (role) => validatePolicyRules(role.rules, true),
  },
}));
