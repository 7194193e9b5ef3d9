/**
 * Parses what the request is about, once, before any filter needs it: authorization, flow control,
 * audit, the deadline and metrics read `ctx.info`; whether the request is long-running is known
 * from here on too. A target that could not be parsed, or a path the parser refuses, throws a
 * StatusError (400), which panic recovery answers.
 */
import type { Filter } from '../http/context.js';
import { errors } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';
import { isLongRunning, type RequestInfo } from '../machinery/request-info.js';

export type RequestInfoResolver = (method: string, path: string, query: URLSearchParams) => RequestInfo;

export function withRequestInfo(resolve: RequestInfoResolver, longRunning: (info: RequestInfo) => boolean = isLongRunning): Filter<RequestContext> {
  return (ctx, next) => {
    if (ctx.targetError !== undefined) throw errors.badRequest(ctx.targetError);
    ctx.info = resolve(ctx.req.method ?? 'GET', ctx.path, ctx.url.searchParams);
    ctx.longRunning = longRunning(ctx.info);
    return next();
  };
}
