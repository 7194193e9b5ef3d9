/**
 * The answers of the access reviews, as the chain would decide (Kubernetes' SubjectAccessReview,
 * LocalSubjectAccessReview, SelfSubjectAccessReview and SelfSubjectRulesReview storage): the
 * attributes of the spec, asked of the whole authorizer (system:masters included); the rules of
 * the caller from every mode that can list them. Evaluation errors and failures become
 * `evaluationError`.
 */
import type { LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview } from '../apis/authorization/v1/reviews.js';
import { errors } from '../machinery/errors.js';
import type { UserInfo } from '../machinery/user-info.js';
import type { KubeObject } from '../schema/index.js';
import { aggregateMessage, type AuthorizationAttributes, type AuthorizationResult, type AuthorizerMode } from './index.js';

type Spec = SubjectAccessReview['spec'];
type Status = NonNullable<SubjectAccessReview['status']>;
type Answer = (obj: KubeObject, req: { readonly user?: UserInfo; readonly namespace: string; readonly signal: AbortSignal }) => Promise<KubeObject>;

/** What a review asks, as authorizer attributes (Kubernetes' AuthorizationAttributesFrom). */
export function attributesFromSpec(user: UserInfo, spec: Pick<Spec, 'resourceAttributes' | 'nonResourceAttributes'>): AuthorizationAttributes {
  const ra = spec.resourceAttributes;
  if (ra) {
    return {
      user,
      verb: ra.verb ?? '',
      isResourceRequest: true,
      path: '',
      namespace: ra.namespace ?? '',
      apiGroup: ra.group ?? '',
      apiVersion: ra.version || '*',
      resource: ra.resource ?? '',
      subresource: ra.subresource ?? '',
      name: ra.name ?? '',
    };
  }
  const nra = spec.nonResourceAttributes;
  return { user, verb: nra?.verb ?? '', isResourceRequest: false, path: nra?.path ?? '', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

function statusOf(result: AuthorizationResult): Status {
  const problems = [...(result.evaluationErrors ?? []), ...(result.failure ? [result.failure] : [])];
  return {
    allowed: result.decision === 'allow',
    ...(result.decision === 'deny' ? { denied: true } : {}),
    ...(result.reason ? { reason: result.reason } : {}),
    ...(problems.length ? { evaluationError: aggregateMessage(problems) } : {}),
  };
}

function userOfSpec(spec: Spec): UserInfo {
  return { username: spec.user ?? '', groups: [...(spec.groups ?? [])], ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra ? { extra: structuredClone(spec.extra) } : {}) };
}

function requireUser(user: UserInfo | undefined): UserInfo {
  if (!user) throw errors.badRequest('no user present on request');
  return user;
}

export interface ReviewAnswerers {
  subjectAccessReview: Answer;
  localSubjectAccessReview: Answer;
  selfSubjectAccessReview: Answer;
  selfSubjectRulesReview: Answer;
}

export function reviewAnswerers(authorizer: AuthorizerMode): ReviewAnswerers {
  return {
    async subjectAccessReview(obj, req) {
      const sar = obj as SubjectAccessReview;
      sar.status = statusOf(await authorizer.authorize(attributesFromSpec(userOfSpec(sar.spec), sar.spec), req.signal));
      return sar as KubeObject;
    },
    async localSubjectAccessReview(obj, req) {
      const lsar = obj as LocalSubjectAccessReview;
      if (!req.namespace) throw errors.badRequest('namespace is required on this type: ');
      if ((lsar.spec.resourceAttributes?.namespace ?? '') !== req.namespace) throw errors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${req.namespace}`);
      lsar.status = statusOf(await authorizer.authorize(attributesFromSpec(userOfSpec(lsar.spec), lsar.spec), req.signal));
      return lsar as KubeObject;
    },
    async selfSubjectAccessReview(obj, req) {
      const ssar = obj as SelfSubjectAccessReview;
      ssar.status = statusOf(await authorizer.authorize(attributesFromSpec(requireUser(req.user), ssar.spec), req.signal));
      return ssar as KubeObject;
    },
    async selfSubjectRulesReview(obj, req) {
      const review = obj as SelfSubjectRulesReview;
      const user = requireUser(req.user);
      const namespace = review.spec.namespace ?? '';
      if (!namespace) throw errors.badRequest('no namespace on request');
      const rules = authorizer.rulesFor(user, namespace);
      // Kubernetes answers a fresh object: the spec asked is not echoed.
      const answered: SelfSubjectRulesReview = {
        apiVersion: review.apiVersion,
        kind: review.kind,
        metadata: { creationTimestamp: null } as unknown as SelfSubjectRulesReview['metadata'],
        spec: {},
        status: {
          resourceRules: rules.resourceRules.map((r) => ({ verbs: [...r.verbs], ...(r.apiGroups.length ? { apiGroups: [...r.apiGroups] } : {}), ...(r.resources.length ? { resources: [...r.resources] } : {}), ...(r.resourceNames.length ? { resourceNames: [...r.resourceNames] } : {}) })),
          nonResourceRules: rules.nonResourceRules.map((r) => ({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] })),
          incomplete: rules.incomplete,
          ...(rules.errors.length ? { evaluationError: aggregateMessage(rules.errors) } : {}),
        },
      };
      return answered as KubeObject;
    },
  };
}
