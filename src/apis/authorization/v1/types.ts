/**
 * The access-review types of authorization/v1. Protobuf numbers follow Kubernetes' authorization/v1
 * generated.proto. None of these is stored: a create answers with the status filled in.
 */
import { t } from '../../../schema/index.js';

export const ResourceAttributes = t.struct('authorization.v1.ResourceAttributes', {
  namespace: t.field(1, t.string(), { description: 'The namespace of the action; "" means every namespace for namespaced resources, and nothing for cluster-scoped ones.' }),
  verb: t.field(2, t.string(), { description: 'A Kubernetes verb (get, list, watch, create, ...) or a special one (impersonate, bind, escalate, use); "*" means all.' }),
  group: t.field(3, t.string(), { description: 'The API group of the resource; "*" means all.' }),
  version: t.field(4, t.string(), { description: 'The API version of the resource; "*" means all.' }),
  resource: t.field(5, t.string(), { description: 'The resource type (pods, deployments); "*" means all.' }),
  subresource: t.field(6, t.string(), { description: 'The subresource (status, scale, log); "" means none.' }),
  name: t.field(7, t.string(), { description: 'The name of the object acted on; "" means all (a list, a create).' }),
}, { description: 'An action on a resource, as the authorizer is asked about it.' });

export const NonResourceAttributes = t.struct('authorization.v1.NonResourceAttributes', {
  path: t.field(1, t.string(), { description: 'The URL path (/healthz, /version).' }),
  verb: t.field(2, t.string(), { description: 'The lowercase HTTP method (get, post, ...).' }),
}, { description: 'An action on a path that is not a resource.' });

export const SubjectAccessReviewSpec = t.struct('authorization.v1.SubjectAccessReviewSpec', {
  resourceAttributes: t.field(1, ResourceAttributes, { pointer: true, description: 'The resource action asked about; exactly one of this and nonResourceAttributes.' }),
  nonResourceAttributes: t.field(2, NonResourceAttributes, { pointer: true, description: 'The non-resource action asked about; exactly one of this and resourceAttributes.' }),
  user: t.field(3, t.string(), { description: 'The user asked about; at least one of user and groups.' }),
  groups: t.field(4, t.list(t.string()), { description: 'The groups asked about; at least one of user and groups.' }),
  extra: t.field(5, t.map(t.list(t.string())), { description: 'Extra attributes of the user, as an authenticator gives them.' }),
  uid: t.field(6, t.string(), { description: 'The uid of the user asked about.' }),
}, { description: 'Who is asked about, and which action.' });

export const SelfSubjectAccessReviewSpec = t.struct('authorization.v1.SelfSubjectAccessReviewSpec', {
  resourceAttributes: t.field(1, ResourceAttributes, { pointer: true, description: 'The resource action asked about; exactly one of this and nonResourceAttributes.' }),
  nonResourceAttributes: t.field(2, NonResourceAttributes, { pointer: true, description: 'The non-resource action asked about; exactly one of this and resourceAttributes.' }),
}, { description: 'Which action the caller asks about, for themselves.' });

export const SubjectAccessReviewStatus = t.struct('authorization.v1.SubjectAccessReviewStatus', {
  allowed: t.required(1, t.bool(), { always: true, description: 'Whether the action is allowed.' }),
  denied: t.field(4, t.bool(), { description: 'Whether an authorizer denied the action outright; false with allowed false means nobody allowed it.' }),
  reason: t.field(2, t.string(), { description: 'Why, as the authorizers say it.' }),
  evaluationError: t.field(3, t.string(), {
    description: 'Problems met while deciding (a binding whose role is missing): the answer stands, but the policy may not be what was meant.',
  }),
}, { description: 'The answer.' });

export const ResourceRule = t.struct('authorization.v1.ResourceRule', {
  verbs: t.required(1, t.list(t.string()), { always: true, description: 'The verbs allowed; "*" is all.' }),
  apiGroups: t.field(2, t.list(t.string()), { description: 'The API groups; "*" is all.' }),
  resources: t.field(3, t.list(t.string()), { description: 'The resources; "*" is all, "*/sub" a subresource of all.' }),
  resourceNames: t.field(4, t.list(t.string()), { description: 'The names allowed; empty is all.' }),
}, { description: 'What the caller may do on resources.' });

export const NonResourceRule = t.struct('authorization.v1.NonResourceRule', {
  verbs: t.required(1, t.list(t.string()), { always: true, description: 'The verbs allowed; "*" is all.' }),
  nonResourceURLs: t.field(2, t.list(t.string()), { description: 'The paths; a trailing "*" is a prefix.' }),
}, { description: 'What the caller may do on non-resource paths.' });

export const SelfSubjectRulesReviewSpec = t.struct('authorization.v1.SelfSubjectRulesReviewSpec', {
  namespace: t.field(1, t.string(), { description: 'The namespace to list the rules in; required.' }),
}, { description: 'Where to list the rules.' });

export const SubjectRulesReviewStatus = t.struct('authorization.v1.SubjectRulesReviewStatus', {
  resourceRules: t.required(1, t.list(ResourceRule), { always: true, description: 'What the caller may do on resources in the namespace.' }),
  nonResourceRules: t.required(2, t.list(NonResourceRule), { always: true, description: 'What the caller may do on non-resource paths.' }),
  incomplete: t.required(3, t.bool(), { always: true, description: 'An authorizer (a webhook) cannot list its rules: the lists may lack some.' }),
  evaluationError: t.field(4, t.string(), { description: 'Problems met while listing (a binding whose role is missing).' }),
}, { description: 'The rules, as the authorizers can enumerate them.' });
