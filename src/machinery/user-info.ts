/**
 * Who makes a request, as authentication establishes it and authorization, admission and audit
 * read it. The fields are those of Kubernetes' `UserInfo` (authentication API), so a TokenReview's
 * answer or an admission review's `userInfo` carries it unchanged.
 */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}
