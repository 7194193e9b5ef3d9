/**
 * The request path, read top-down: the ordered filters every request passes before its handler, as
 * DESIGN §2 draws them and in Kubernetes' order. Optional filters are left out of the array when
 * their part is not configured; no filter branches on a setting.
 */
import type { Auditor } from '../audit/index.js';
import type { Authenticator } from '../authn/index.js';
import type { Authorizer } from '../authz/index.js';
import type { FlowControl } from '../flowcontrol/index.js';
import { withAudit } from '../filters/with-audit.js';
import { withAuditInit } from '../filters/with-audit-init.js';
import { withAuthentication, type IdentityHeaders } from '../filters/with-authentication.js';
import { withAuthorization } from '../filters/with-authorization.js';
import { withDeadline } from '../filters/with-deadline.js';
import { withDomainHints } from '../filters/with-domain-hints.js';
import { withFailedAuthenticationAudit } from '../filters/with-failed-authentication-audit.js';
import { withFlowControl } from '../filters/with-flow-control.js';
import { withImpersonation } from '../filters/with-impersonation.js';
import { withMetrics } from '../filters/with-metrics.js';
import { withPanicRecovery } from '../filters/with-panic-recovery.js';
import { withRequestInfo, type RequestInfoResolver } from '../filters/with-request-info.js';
import type { Filter } from '../http/context.js';
import type { ApiNames } from '../machinery/api-names.js';
import type { Logger } from '../machinery/logger.js';
import type { ApiMetrics } from '../machinery/metrics.js';
import type { RequestContext } from '../machinery/request-context.js';

export interface ChainDeps {
  log: Logger;
  metrics: ApiMetrics;
  resolveRequestInfo: RequestInfoResolver;
  requestTimeoutSeconds: number;
  /** Without one, nothing is audited (the audit ID is still given). */
  audit?: Auditor;
  /** Without it, authentication is off: requests carry no user (src/server/authentication.ts builds it). */
  authentication?: {
    readonly authenticator: Authenticator;
    /** Requests with no known credential go on as system:anonymous (--anonymous-auth). */
    readonly anonymous: boolean;
    readonly apiAudiences?: readonly string[];
    readonly identityHeaders?: IdentityHeaders;
  };
  /** Without one, every request is allowed (AlwaysAllow), and impersonation is not offered. */
  authorizer?: Authorizer;
  /** The authentication group as served (`authentication.orch.io`), where impersonation's userextras and uids live. */
  authenticationGroup: string;
  /** The authorization group as served (`authorization.orch.io`), the prefix of the decision's audit annotations. */
  authorizationGroup: string;
  flowControl?: FlowControl;
  /**
   * The server's API names, for the hints a Kubernetes client gets on a server of another domain;
   * `isServedGroup` tells the k8s.io groups someone defined on purpose. No hints without (or under k8s.io).
   */
  domainHints?: { names: ApiNames; isServedGroup(group: string): boolean };
}

export interface ChainStep {
  /** For reading and testing the order; the names of DESIGN §2. */
  readonly name: string;
  readonly filter: Filter<RequestContext>;
}

const step = (name: string, filter: Filter<RequestContext>): ChainStep => ({ name, filter });

function domainHintsStep(deps: ChainDeps['domainHints']): ChainStep | undefined {
  const filter = deps && withDomainHints(deps.names, deps.isServedGroup);
  return filter && step('domain-hints', filter);
}

function authenticationFilter(a: NonNullable<ChainDeps['authentication']>, log: Logger): Filter<RequestContext> {
  return withAuthentication(a.authenticator, {
    anonymous: a.anonymous,
    log,
    ...(a.apiAudiences ? { apiAudiences: a.apiAudiences } : {}),
    ...(a.identityHeaders ? { identityHeaders: a.identityHeaders } : {}),
  });
}

export function buildChain(c: ChainDeps): ChainStep[] {
  const steps: (ChainStep | false | undefined)[] = [
    step('panic-recovery', withPanicRecovery(c.log)),
    step('request-info', withRequestInfo(c.resolveRequestInfo)),
    // Outside everything that may refuse the request, so 401, 403, 429 and 504 are counted too.
    step('metrics', withMetrics(c.metrics)),
    step('audit-init', withAuditInit()),
    step('deadline', withDeadline(c.requestTimeoutSeconds)),
    c.audit && c.authentication && step('audit-failed-authentication', withFailedAuthenticationAudit(c.audit)),
    c.authentication && step('authentication', authenticationFilter(c.authentication, c.log)),
    // After authentication: the policy asks who is making the request.
    c.audit && step('audit', withAudit(c.audit)),
    c.authorizer && step('impersonation', withImpersonation(c.authorizer, { authenticationGroup: c.authenticationGroup })),
    c.flowControl && step('flow-control', withFlowControl(c.flowControl)),
    c.authorizer && step('authorization', withAuthorization(c.authorizer, { authorizationGroup: c.authorizationGroup, log: c.log })),
    // Innermost: it explains what the handler answers (a fallback, a 404, 406 or 415), nothing earlier.
    domainHintsStep(c.domainHints),
  ];
  return steps.filter((s): s is ChainStep => Boolean(s));
}
