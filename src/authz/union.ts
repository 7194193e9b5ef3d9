/**
 * Kubernetes' union authorizer and rule resolver. Authorizers are asked in order: the first allow
 * or deny decides, with its own reason; when none has an opinion, the reasons of those that gave
 * one are joined with newlines, and their evaluation errors and failures are kept together.
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, AuthorizerMode, RuleResolver, RulesResult } from './index.js';
import { aggregateMessage } from './index.js';

export function unionAuthorizers(authorizers: readonly Authorizer[]): Authorizer {
  return {
    async authorize(attrs: AuthorizationAttributes, signal: AbortSignal): Promise<AuthorizationResult> {
      const reasons: string[] = [];
      const evaluationErrors: string[] = [];
      const failures: string[] = [];
      for (const a of authorizers) {
        const result = await a.authorize(attrs, signal);
        if (result.decision !== 'no-opinion') return result;
        if (result.reason) reasons.push(result.reason);
        evaluationErrors.push(...(result.evaluationErrors ?? []));
        if (result.failure) failures.push(result.failure);
      }
      return {
        decision: 'no-opinion',
        reason: reasons.join('\n'),
        ...(evaluationErrors.length ? { evaluationErrors } : {}),
        ...(failures.length ? { failure: aggregateMessage(failures) } : {}),
      };
    },
  };
}

/** Every resolver's rules together: incomplete when any is, with every resolver's errors. */
export function unionRuleResolvers(resolvers: readonly RuleResolver[]): RuleResolver {
  return {
    rulesFor(user, namespace): RulesResult {
      const out = { resourceRules: [] as RulesResult['resourceRules'][number][], nonResourceRules: [] as RulesResult['nonResourceRules'][number][], incomplete: false, errors: [] as string[] };
      for (const r of resolvers) {
        const rules = r.rulesFor(user, namespace);
        out.resourceRules.push(...rules.resourceRules);
        out.nonResourceRules.push(...rules.nonResourceRules);
        out.incomplete ||= rules.incomplete;
        out.errors.push(...rules.errors);
      }
      return out;
    },
  };
}

/** A mode that is both: the union of the modes' decisions and of their rules. */
export function unionModes(modes: readonly AuthorizerMode[]): AuthorizerMode {
  const authorizer = unionAuthorizers(modes);
  const resolver = unionRuleResolvers(modes);
  return { authorize: (a, s) => authorizer.authorize(a, s), rulesFor: (u, n) => resolver.rulesFor(u, n) };
}
