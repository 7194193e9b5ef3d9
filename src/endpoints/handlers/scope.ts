/** The request scope the store needs, from the request context. */
import type { RequestScope } from '../../registry/generic-store.js';
import type { RequestContext } from '../../machinery/request-context.js';

export function scopeOf(ctx: RequestContext): RequestScope {
  return {
    namespace: ctx.info.isResourceRequest ? ctx.info.namespace : '',
    signal: ctx.signal,
    warnings: ctx.warnings,
    ...(ctx.info.isResourceRequest ? { groupVersion: { group: ctx.info.apiGroup, version: ctx.info.apiVersion } } : {}),
    ...(ctx.user ? { user: ctx.user } : {}),
    audit: ctx.audit,
    writeParams: writeParamsOf(ctx.url.searchParams),
  };
}

function writeParamsOf(params: URLSearchParams): { fieldManager?: string; fieldValidation?: string } {
  const fieldManager = params.get('fieldManager');
  const fieldValidation = params.get('fieldValidation');
  return { ...(fieldManager ? { fieldManager } : {}), ...(fieldValidation ? { fieldValidation } : {}) };
}
