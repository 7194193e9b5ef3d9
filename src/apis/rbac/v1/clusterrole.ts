/**
 * ClusterRole (rbac.authorization/v1, cluster-scoped): rules over every namespace, cluster-scoped
 * resources and non-resource URLs, or an aggregation of other ClusterRoles chosen by label.
 */
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { AggregationRule, PolicyRule } from './types.js';
import { aggregationHasInvalidLabelValue, rbacGroup, validateAggregationRule, validatePolicyRules } from './validation.js';

export const ClusterRoleSchema = t.struct('rbac.v1.ClusterRole', {
  ...objectHeader,
  rules: t.field(2, t.list(PolicyRule), {
    always: true,
    description: 'What the role allows. With an aggregationRule the controller owns this list and replaces what clients write.',
  }),
  aggregationRule: t.field(3, AggregationRule, { pointer: true, description: "Builds this role's rules from the ClusterRoles its selectors match." }),
}, { description: 'A set of permissions across the cluster, granted by ClusterRoleBindings (or, within one namespace, by RoleBindings).' });
export type ClusterRole = ObjectOf<typeof ClusterRoleSchema>;

export const clusterRoleResource = defineResource<ClusterRole>((names) => ({
  group: rbacGroup(names),
  version: 'v1',
  kind: 'ClusterRole',
  resource: 'clusterroles',
  singular: 'clusterrole',
  namespaced: false,
  schema: ClusterRoleSchema,
  fixture: () => ({ rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }),
  strategy: {
    nameValidator: nameValidators.pathSegment,
    allowCreateOnUpdate: true,
    validate: (role) => validatePolicyRules(role.rules, false),
    validateCreate: (role) => validateAggregationRule(role.aggregationRule, { allowInvalidLabelValueInSelector: false }),
    validateUpdate: (role, old) =>
      // Selector values that an older server stored stay acceptable, as in Kubernetes.
      validateAggregationRule(role.aggregationRule, { allowInvalidLabelValueInSelector: aggregationHasInvalidLabelValue(old.aggregationRule) }),
  },
}));
