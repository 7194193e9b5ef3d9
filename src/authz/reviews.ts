/**
 * The access reviews' answers, as the chain would decide (Kubernetes' SubjectAccessReview and
 * SelfSubjectRulesReview storage): the attributes asked, put to the whole authorizer
 * (system:masters included); the rules of a user from every mode that can list them. Evaluation
 * errors and failures become `evaluationError`.
 */
import type { UserInfo } from '../machinery/user-info.js';
import type { AccessReviewAnswer, AccessReviewAttributes, AccessReviewer, RulesReviewAnswer } from '../registry/define-resource.js';
import { aggregateMessage, type AuthorizationAttributes, type AuthorizationResult, type AuthorizerMode } from './index.js';

/** What a review asks, as authorizer attributes (Kubernetes' AuthorizationAttributesFrom). */
export function attributesFromReview(user: UserInfo, asked: AccessReviewAttributes): AuthorizationAttributes {
  const ra = asked.resourceAttributes;
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
  const nra = asked.nonResourceAttributes;
  return { user, verb: nra?.verb ?? '', isResourceRequest: false, path: nra?.path ?? '', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

export function answerOf(result: AuthorizationResult): AccessReviewAnswer {
  const problems = [...(result.evaluationErrors ?? []), ...(result.failure ? [result.failure] : [])];
  return {
    allowed: result.decision === 'allow',
    ...(result.decision === 'deny' ? { denied: true } : {}),
    ...(result.reason ? { reason: result.reason } : {}),
    ...(problems.length ? { evaluationError: aggregateMessage(problems) } : {}),
  };
}

export function accessReviewer(authorizer: AuthorizerMode): AccessReviewer {
  return {
    review: async (user, asked, signal) => answerOf(await authorizer.authorize(attributesFromReview(user, asked), signal)),
    rules(user, namespace): RulesReviewAnswer {
      const rules = authorizer.rulesFor(user, namespace);
      return {
        resourceRules: rules.resourceRules.map((r) => ({
          verbs: [...r.verbs],
          ...(r.apiGroups.length ? { apiGroups: [...r.apiGroups] } : {}),
          ...(r.resources.length ? { resources: [...r.resources] } : {}),
          ...(r.resourceNames.length ? { resourceNames: [...r.resourceNames] } : {}),
        })),
        nonResourceRules: rules.nonResourceRules.map((r) => ({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] })),
        incomplete: rules.incomplete,
        ...(rules.errors.length ? { evaluationError: aggregateMessage(rules.errors) } : {}),
      };
    },
  };
}
