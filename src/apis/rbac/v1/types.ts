/**
 * The parts the four RBAC kinds share: rules (PolicyRule), who a binding names (Subject) and which
 * role it grants (RoleRef). Protobuf numbers follow Kubernetes' rbac/v1 generated.proto. Kubernetes
 * 1.25 gives these lists no list-type markers, so they merge atomically.
 */
import { LabelSelector, t, type Infer } from '../../../schema/index.js';

export const PolicyRule = t.struct('rbac.v1.PolicyRule', {
  verbs: t.required(1, t.list(t.string()), {
    always: true,
    description: "The verbs the rule allows on every resource it names (get, list, create, ...); '*' is every verb.",
  }),
  apiGroups: t.field(2, t.list(t.string()), {
    description: "The API groups of the resources; \"\" is the core group and '*' every group. Any listed group matches any listed resource.",
  }),
  resources: t.field(3, t.list(t.string()), { description: "The resources the rule applies to ('pods', 'deployments/scale'); '*' is every resource." }),
  resourceNames: t.field(4, t.list(t.string()), { description: 'Restricts the rule to objects of these names; empty allows every name.' }),
  nonResourceURLs: t.field(5, t.list(t.string()), {
    description: "Paths that are not resources ('/healthz', '/api/*'): '*' only as the last step. Only in ClusterRoles, and never together with resources.",
  }),
}, { description: 'What a role allows: verbs on resources, or on non-resource URLs. It says nothing of who may do it or where.' });
export type PolicyRule = Infer<typeof PolicyRule>;

export const Subject = t.struct('rbac.v1.Subject', {
  kind: t.required(1, t.string(), {
    always: true,
    description: 'User, Group or ServiceAccount. An authorizer that does not know the kind reports an error.',
  }),
  apiGroup: t.field(2, t.string(), {
    description: 'The API group of the subject: "" for ServiceAccount subjects, the RBAC group for User and Group subjects (the defaults).',
  }),
  name: t.required(3, t.string(), { always: true, description: 'The name of the user, group or service account.' }),
  namespace: t.field(4, t.string(), {
    description: 'The namespace of a ServiceAccount subject. For kinds without namespaces (User, Group) a value makes the authorizer report an error.',
  }),
}, { structType: 'atomic', description: 'Someone a binding grants its role to: a user, a group or a service account.' });
export type Subject = Infer<typeof Subject>;

export const RoleRef = t.struct('rbac.v1.RoleRef', {
  apiGroup: t.required(1, t.string(), { always: true, description: 'The API group of the role: the RBAC group.' }),
  kind: t.required(2, t.string(), { always: true, description: 'Role or ClusterRole.' }),
  name: t.required(3, t.string(), { always: true, description: 'The name of the role.' }),
}, { structType: 'atomic', description: 'The role a binding grants. It cannot change once the binding exists.' });
export type RoleRef = Infer<typeof RoleRef>;

export const AggregationRule = t.struct('rbac.v1.AggregationRule', {
  clusterRoleSelectors: t.field(1, t.list(LabelSelector), {
    description: "Selects the ClusterRoles whose rules make up this role's rules; the controller keeps the rules in step, replacing what a client writes there.",
  }),
}, { description: 'How a ClusterRole is assembled from other ClusterRoles.' });
export type AggregationRule = Infer<typeof AggregationRule>;
