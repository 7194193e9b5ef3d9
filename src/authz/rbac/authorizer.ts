/**
 * The RBAC mode: allows a request when a rule of a role bound to the user allows it, and has no
 * opinion otherwise (RBAC never denies). Errors met on the way (a binding whose role is missing)
 * become the reason of the refusal, as Kubernetes words it (`RBAC: ...`), and the evaluation
 * errors a SubjectAccessReview reports.
 */
import type { AuthorizationResult, AuthorizerMode, ResourceRule, NonResourceRule } from '../index.js';
import { aggregateMessage } from '../index.js';
import type { RbacRuleResolver } from './rule-resolver.js';
import { ruleAllows } from './rule-matching.js';

export function rbacAuthorizer(resolver: RbacRuleResolver): AuthorizerMode {
  return {
    async authorize(attrs): Promise<AuthorizationResult> {
      const errors: string[] = [];
      let allowedBy: string | undefined;
      if (attrs.user) {
        resolver.visitRulesFor(attrs.user, attrs.namespace, (source, rule, error) => {
          if (error) errors.push(error);
          if (rule && source && ruleAllows(attrs, rule)) {
            allowedBy = source();
            return false;
          }
          return true;
        });
      }
      if (allowedBy !== undefined) return { decision: 'allow', reason: `RBAC: allowed by ${allowedBy}` };
      if (!errors.length) return { decision: 'no-opinion', reason: '' };
      return { decision: 'no-opinion', reason: `RBAC: ${aggregateMessage(errors)}`, evaluationErrors: errors };
    },
    rulesFor(user, namespace) {
      const { rules, errors } = resolver.rulesFor(user, namespace);
      const resourceRules: ResourceRule[] = [];
      const nonResourceRules: NonResourceRule[] = [];
      for (const r of rules) {
        if (r.resources?.length) {
          resourceRules.push({ verbs: [...r.verbs], apiGroups: [...(r.apiGroups ?? [])], resources: [...r.resources], resourceNames: [...(r.resourceNames ?? [])] });
        }
        if (r.nonResourceURLs?.length) nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] });
      }
      return { resourceRules, nonResourceRules, incomplete: false, errors };
    },
  };
}
