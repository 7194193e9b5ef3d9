/**
 * Tells a Kubernetes client that it is talking to a server of another API domain, and what to do.
 *
 * A server whose domain is not k8s.io (orch.io by default) does not know Kubernetes' media types and
 * groups, by design. A Kubernetes client (kubectl, client-go, client-node) uses them anyway and meets
 * quiet fallbacks (a plain list where it asked for a Table) or terse errors (415 for a protobuf body,
 * 404 for an `rbac.authorization.k8s.io` path) that do not say why. This filter notices Kubernetes'
 * names in a request and says why, and names the fix: a Warning header when the request succeeds,
 * a longer message when it fails for that reason. It changes no answer's code or body otherwise.
 *
 * Left out of the chain when the domain is k8s.io itself.
 */
import type { Filter } from '../http/context.js';
import { parseAccept, parseMediaType } from '../http/negotiate.js';
import type { ApiNames } from '../machinery/api-names.js';
import { StatusError } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';

const KUBERNETES_DOMAIN = 'k8s.io';
const KUBERNETES_PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** What a request shows of Kubernetes' names; every field is read from headers and the path alone. */
export interface RequestFacts {
  path: string;
  contentType?: string;
  accept?: string;
  userAgent?: string;
}

/**
 * The hints for one request: `warnings` for a successful answer, and `onFailure`, which says (for a
 * failure these names explain) what to add to the error's message.
 */
export interface DomainHints {
  warnings: string[];
  /** The text to append to a failure with this HTTP code, when Kubernetes' names explain it. */
  forFailure(code: number): string | undefined;
}

/** The fix, in the same words everywhere, so a client that folds repeated warnings shows it once. */
export function domainAdvice(names: ApiNames): string {
  return `this server serves the API domain ${names.domain}, not ${KUBERNETES_DOMAIN}: for kubectl and other Kubernetes clients, start it with --api-domain=${KUBERNETES_DOMAIN}`;
}

/** What a client gets instead of a representation it named in Kubernetes' words, by its `as=`. */
const FALLBACKS: Record<string, string> = {
  Table: 'the answer is the plain object or list, not a Table',
  PartialObjectMetadata: 'the answer is the whole object',
  PartialObjectMetadataList: 'the answer is the whole list',
};

/** `rbac.authorization.k8s.io` → `rbac.authorization.orch.io`; undefined for a name outside k8s.io. */
function translated(group: string, names: ApiNames): string | undefined {
  const suffix = `.${KUBERNETES_DOMAIN}`;
  return group.endsWith(suffix) ? `${group.slice(0, -suffix.length)}.${names.domain}` : undefined;
}

/**
 * Client-go's default User-Agent ends `(os/arch) kubernetes/<commit>` (kubectl/v1.32.4 (linux/amd64)
 * kubernetes/4cb5f07): the one sign a Kubernetes client leaves on requests that carry no
 * Kubernetes name, such as its OpenAPI reads.
 */
function isClientGo(userAgent: string | undefined): boolean {
  return userAgent !== undefined && /\(\S+\/\S+\) kubernetes\/\S+$/.test(userAgent);
}

/** A cheap first look, so that the ordinary request (no Kubernetes name anywhere) costs no parsing. */
function mayUseKubernetesNames(req: RequestFacts): boolean {
  const named = (text: string | undefined): boolean => text !== undefined && (text.includes(KUBERNETES_DOMAIN) || text.includes('vnd.kubernetes'));
  return named(req.contentType) || named(req.accept) || req.path.includes(KUBERNETES_DOMAIN) || req.path.startsWith('/openapi/');
}

/**
 * The hints a request earns on a server of `names.domain` (nothing when that is k8s.io).
 * `isServedGroup` tells a k8s.io group someone defined on purpose (a 404 there is an ordinary one).
 */
export function domainHints(names: ApiNames, req: RequestFacts, isServedGroup: (group: string) => boolean = () => false): DomainHints {
  const warnings: string[] = [];
  const failures = new Map<number, string>();
  const advice = domainAdvice(names);
  if (names.domain === KUBERNETES_DOMAIN || !mayUseKubernetesNames(req)) return { warnings, forFailure: () => undefined };

  // A body in Kubernetes' protobuf: always refused (415), since this server's protobuf has another name.
  const body = req.contentType ? parseMediaType(req.contentType) : undefined;
  if (body && `${body.type}/${body.subtype}` === KUBERNETES_PROTOBUF) {
    failures.set(415, `${KUBERNETES_PROTOBUF} is Kubernetes' name for protobuf (here ${names.protobufMediaType}); ${advice}`);
  }

  // Accept: Kubernetes' protobuf, or a representation in a k8s.io group (as=Table;g=meta.k8s.io,
  // as=APIGroupDiscoveryList;g=apidiscovery.k8s.io). A client that lists nothing else gets 406, with
  // the reason. One that lists a fallback gets it, and a warning where the fallback shows: protobuf
  // and Table, not aggregated discovery, whose unaggregated form serves a client just as well.
  const asked = new Map<string, { cause: string; visible: boolean }>();
  for (const range of req.accept ? parseAccept(req.accept) : []) {
    const mediaType = `${range.type}/${range.subtype}`;
    const group = range.params.g;
    const ours = group !== undefined ? translated(group, names) : undefined;
    if (mediaType === KUBERNETES_PROTOBUF) {
      asked.set(mediaType, { cause: `${KUBERNETES_PROTOBUF} is Kubernetes' name for protobuf (here ${names.protobufMediaType})`, visible: true });
    } else if (group !== undefined && ours !== undefined) {
      const what = range.params.as ? `as=${range.params.as};g=${group}` : `g=${group}`;
      asked.set(what, { cause: `${what} is Kubernetes' name (here g=${ours})`, visible: ours === names.metaGroup });
    }
  }
  if (asked.size > 0) {
    failures.set(406, `the Accept header uses Kubernetes' names: ${[...asked.values()].map((a) => a.cause).join('; ')}; ${advice}`);
  }
  for (const [what, { cause, visible }] of asked) {
    if (!visible) continue;
    const as = /^as=([^;]+);/.exec(what)?.[1];
    const fallback = what === KUBERNETES_PROTOBUF ? 'the answer is not protobuf' : (FALLBACKS[as ?? ''] ?? 'the answer is in the next form the client accepts');
    warnings.push(`${cause}, so ${fallback}; ${advice}`);
  }

  // A k8s.io group in the path (/apis/rbac.authorization.k8s.io/v1/..., its OpenAPI document): its
  // 404 says more, unless someone defined a kind in that group here.
  const segments = req.path.split('/').filter((s) => s !== '');
  const apisAt = segments[0] === 'openapi' ? segments.indexOf('apis') : segments[0] === 'apis' ? 0 : -1;
  const pathGroup = apisAt >= 0 ? segments[apisAt + 1] : undefined;
  const ourGroup = pathGroup !== undefined ? translated(pathGroup, names) : undefined;
  if (pathGroup !== undefined && ourGroup !== undefined && !isServedGroup(pathGroup)) {
    failures.set(404, `${pathGroup} is Kubernetes' name of the group served here as ${ourGroup}; ${advice}`);
  }

  // kubectl explain (and kubectl's client-side validation) find a kind in the OpenAPI documents by
  // x-kubernetes-group-version-kind, which this server writes under its own prefix: nothing in the
  // request names Kubernetes, but its User-Agent says who asks.
  const isOpenApiDocument = segments[0] === 'openapi' && (segments[1] === 'v2' || (segments[1] === 'v3' && segments.length > 2));
  if (isOpenApiDocument && isClientGo(req.userAgent)) {
    warnings.push(
      `kubectl finds a kind in OpenAPI by x-kubernetes-group-version-kind, which this server writes as ${names.openapiExtensionPrefix}group-version-kind, so kubectl explain and client-side validation find no kinds here; ${advice}`,
    );
  }
  return { warnings, forFailure: (code) => failures.get(code) };
}

/** The filter: warnings before the answer, a longer message on a failure the names explain. */
export function withDomainHints(names: ApiNames, isServedGroup: (group: string) => boolean): Filter<RequestContext> | undefined {
  if (names.domain === KUBERNETES_DOMAIN) return undefined;
  return async (ctx, next) => {
    const { headers } = ctx.req;
    const hints = domainHints(names, { path: ctx.path, contentType: headers['content-type'], accept: headers.accept, userAgent: headers['user-agent'] }, isServedGroup);
    ctx.warnings.push(...hints.warnings);
    try {
      await next();
    } catch (err) {
      const extra = err instanceof StatusError ? hints.forFailure(err.status.code) : undefined;
      if (!extra || !(err instanceof StatusError)) throw err;
      // The failure's message carries the hint now; the same words again as a warning add nothing.
      for (const w of hints.warnings) {
        const at = ctx.warnings.lastIndexOf(w);
        if (at >= 0) ctx.warnings.splice(at, 1);
      }
      throw withMessage(err, `${err.status.message ?? ''}; ${extra}`);
    }
  };
}

function withMessage(err: StatusError, message: string): StatusError {
  const { code, reason, details } = err.status;
  return new StatusError(code, reason ?? 'BadRequest', message, details);
}
