/** The authorization.<domain>/v1 kinds: the access reviews, create-only and never stored. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { localSubjectAccessReviewResource, selfSubjectAccessReviewResource, selfSubjectRulesReviewResource, subjectAccessReviewResource } from './v1/reviews.js';

export const authorizationResources: readonly ResourceFactory[] = [
  localSubjectAccessReviewResource,
  selfSubjectAccessReviewResource,
  selfSubjectRulesReviewResource,
  subjectAccessReviewResource,
];
