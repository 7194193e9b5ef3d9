/**
 * Non-resource paths: discovery, version, health and metrics; everything under /api and /apis that
 * names a resource goes to the resource router.
 */
import type { DiscoveryDocuments } from '../endpoints/discovery.js';
import { negotiateAggregated, respondAggregated } from '../endpoints/discovery-aggregated.js';
import { runHealthChecks, type HealthCheck } from '../endpoints/health.js';
import { notFoundResource } from '../endpoints/installer.js';
import type { createOpenApiHandler } from '../endpoints/openapi/index.js';
import type { RequestContext } from '../machinery/request-context.js';
import type { ResourceRequestInfo } from '../endpoints/request-info.js';
import { respondValue } from '../endpoints/respond.js';
import { writeBody, writeText } from '../http/respond.js';
import { errors } from '../machinery/errors.js';
import type { ServerMetrics } from './metrics.js';
import { requestHost } from '../http/headers.js';
import { JWKS_PATH, OPENID_CONFIGURATION_PATH, type IssuerDiscovery } from '../authn/service-account/index.js';

export interface RouteDeps {
  /** The discovery documents of the resources served now (they change as CRDs come and go). */
  discovery: () => DiscoveryDocuments;
  /** The group of aggregated discovery's types: apidiscovery.orch.io (apidiscovery.k8s.io). */
  apiDiscoveryGroup: string;
  version: Record<string, string>;
  health: { livez: HealthCheck[]; readyz: HealthCheck[] };
  metrics: ServerMetrics;
  openapi: ReturnType<typeof createOpenApiHandler>;
  routeResource(ctx: RequestContext, info: ResourceRequestInfo): Promise<void>;
  /** The service-account issuer's discovery documents, once known (absent: not offered). */
  issuerDiscovery?: () => IssuerDiscovery | undefined;
  /** The unlisted debug dumps under /debug/api_priority_and_fairness/ (text), when flow control offers them. */
  debugDump?: (path: string, query: URLSearchParams) => string | undefined;
}

export function createRouter(deps: RouteDeps) {
  const rootPaths = (discovery: DiscoveryDocuments): string[] => {
    const paths = ['/api', '/api/v1', '/apis', '/healthz', '/livez', '/metrics', '/openapi/v2', '/openapi/v3', '/openapi/v3/', '/readyz', '/version'];
    const groups = discovery.apiGroupList() as { groups: { name: string; versions: { groupVersion: string }[] }[] };
    for (const g of groups.groups) {
      paths.push(`/apis/${g.name}`);
      for (const v of g.versions) paths.push(`/apis/${v.groupVersion}`);
    }
    if (deps.issuerDiscovery?.()) paths.push(OPENID_CONFIGURATION_PATH, JWKS_PATH);
    for (const check of deps.health.livez) paths.push(`/livez/${check.name}`);
    for (const check of deps.health.readyz) paths.push(`/readyz/${check.name}`);
    return paths.sort();
  };

  const health = async (ctx: RequestContext, kind: 'healthz' | 'livez' | 'readyz', only?: string): Promise<void> => {
    const checks = kind === 'livez' ? deps.health.livez : deps.health.readyz;
    const result = await runHealthChecks(kind, checks, ctx.url, only);
    if (!result) throw notFoundResource();
    writeText(ctx, result.code, result.body);
  };

  return async function route(ctx: RequestContext): Promise<void> {
    const { info } = ctx;
    if (info.isResourceRequest) return deps.routeResource(ctx, info);
    const method = ctx.req.method ?? 'GET';
    const discovery = deps.discovery();
    if (method !== 'GET' && method !== 'HEAD') throw errors.methodNotAllowed();
    // An empty inner segment (`//`, `/api//v1`) names no document; trailing slashes are tolerated.
    if (/\/\/./.test(info.path) || info.path.startsWith('//')) throw notFoundResource();
    const path = info.path.replace(/\/+$/, '') || '/';
    const segs = path.split('/').filter(Boolean);
    if (path === '/') return respondValue(ctx, 200, { paths: rootPaths(discovery) });
    if (path === '/version') return respondValue(ctx, 200, deps.version);
    if (path === OPENID_CONFIGURATION_PATH || path === JWKS_PATH) {
      const docs = deps.issuerDiscovery?.();
      if (!docs) throw notFoundResource();
      const cache = { 'Cache-Control': `public, max-age=${docs.maxAgeSeconds}` };
      if (path === JWKS_PATH) return writeBody(ctx, 200, 'application/jwk-set+json', docs.keySet, cache);
      return writeBody(ctx, 200, 'application/json', docs.configuration, cache);
    }
    if (path === '/metrics') {
      const body = await deps.metrics.registry.metrics();
      return writeBody(ctx, 200, deps.metrics.registry.contentType, body);
    }
    if (segs[0] === 'openapi') return deps.openapi(ctx, segs.slice(1));
    if (segs[0] === 'debug') {
      const dump = deps.debugDump?.(path, ctx.url.searchParams);
      if (dump === undefined) throw notFoundResource();
      return writeText(ctx, 200, dump);
    }
    if (segs[0] === 'healthz' || segs[0] === 'livez' || segs[0] === 'readyz') {
      if (segs.length > 2) throw notFoundResource();
      return health(ctx, segs[0], segs[1]);
    }
    if (path === '/api' || path === '/apis') {
      const choice = negotiateAggregated(ctx, deps.apiDiscoveryGroup);
      if (choice) return respondAggregated(ctx, deps.apiDiscoveryGroup, discovery.aggregated(path === '/api' ? 'api' : 'apis'), choice);
    }
    if (path === '/api') {
      const host = requestHost(ctx.req);
      return respondValue(ctx, 200, discovery.apiVersions(host));
    }
    if (path === '/apis') return respondValue(ctx, 200, discovery.apiGroupList());
    if (segs[0] === 'api' && segs.length === 2) {
      const doc = discovery.resourceList('', segs[1] as string);
      if (!doc) throw notFoundResource();
      return respondValue(ctx, 200, doc);
    }
    if (segs[0] === 'apis' && segs.length === 2) {
      const doc = discovery.apiGroup(segs[1] as string);
      if (!doc) throw notFoundResource();
      return respondValue(ctx, 200, doc);
    }
    if (segs[0] === 'apis' && segs.length === 3) {
      const doc = discovery.resourceList(segs[1] as string, segs[2] as string);
      if (!doc) throw notFoundResource();
      return respondValue(ctx, 200, doc);
    }
    throw notFoundResource();
  };
}
