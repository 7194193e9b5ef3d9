/** Counts every request and observes the latency of short ones, labelled as Kubernetes labels them. */
import type { Filter } from '../http/context.js';
import type { RequestContext } from '../machinery/request-context.js';
import { toStatus } from '../machinery/errors.js';
import type { ApiMetrics } from '../machinery/metrics.js';

const KNOWN_PATHS = new Set(['/healthz', '/livez', '/readyz', '/metrics', '/version', '/api', '/apis', '/openapi/v2', '/openapi/v3']);

/** The metrics verb: LIST, WATCH, APPLY and DELETECOLLECTION told apart from their HTTP methods. */
function metricsVerb(ctx: RequestContext): string {
  const { info } = ctx;
  if (!info.isResourceRequest) return ctx.req.method ?? 'GET';
  switch (info.verb) {
    case 'list':
      return 'LIST';
    case 'watch':
      return 'WATCH';
    case 'deletecollection':
      return 'DELETECOLLECTION';
    case 'patch':
      return (ctx.req.headers['content-type'] ?? '').startsWith('application/apply-patch') ? 'APPLY' : 'PATCH';
    default:
      return ctx.req.method ?? 'GET';
  }
}

export function withMetrics(metrics: ApiMetrics): Filter<RequestContext> {
  return async (ctx, next) => {
    metrics.inflight.inc();
    // A thrown error is written as a Status by the outer recovery filter, after this one has counted;
    // count the code that Status will carry, not the 200 the untouched response still shows.
    let thrown: { error: unknown } | undefined;
    try {
      await next();
    } catch (error) {
      thrown = { error };
      throw error;
    } finally {
      metrics.inflight.dec();
      const { info } = ctx;
      const labels = info.isResourceRequest
        ? {
            verb: metricsVerb(ctx),
            dry_run: ctx.url.searchParams.get('dryRun') ? 'All' : '',
            group: info.apiGroup,
            version: info.apiVersion,
            resource: info.resource,
            subresource: info.subresource,
            scope: info.name ? 'resource' : info.namespace ? 'namespace' : 'cluster',
            component: 'apiserver',
          }
        : {
            verb: metricsVerb(ctx),
            dry_run: '',
            group: '',
            version: '',
            resource: '',
            subresource: KNOWN_PATHS.has(info.path) || /^\/(readyz|livez|healthz)\//.test(info.path) ? info.path : 'other',
            scope: '',
            component: 'apiserver',
          };
      const code = String(thrown && !ctx.res.headersSent ? toStatus(thrown.error).code : (ctx.response.status ?? ctx.res.statusCode));
      metrics.requests.inc({ ...labels, code });
      if (!ctx.longRunning) {
        metrics.latency.observe(labels, Number(process.hrtime.bigint() - ctx.startedAt) / 1e9);
      }
    }
  };
}
