/**
 * Parses what the request is about, once, before any filter needs it: authorization, flow control,
 * audit, the deadline and metrics read `ctx.info`; whether the request is long-running is known
 * from here on too. A URL the parser refuses throws a StatusError, which panic recovery answers.
 */
import type { Filter } from '../http/context.js';
import { errors } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';
import { isLongRunning, type RequestInfo } from '../machinery/request-info.js';

/** `path` is the request path as sent (never dot-normalised, see http/request-target.ts). */
export type RequestInfoResolver = (method: string, path: string, query: URLSearchParams) => RequestInfo;

export function withRequestInfo(resolve: RequestInfoResolver, longRunning: (info: RequestInfo) => boolean = isLongRunning): Filter<RequestContext> {
  return async (ctx, next) => {
    // A target Node's parser let through but that names no path (`http://%zz/api`) is the client's mistake.
    if (ctx.target.problem !== undefined) throw errors.badRequest(ctx.target.problem);
    ctx.info = resolve(ctx.req.method ?? 'GET', ctx.target.path, ctx.url.searchParams);
    ctx.longRunning = longRunning(ctx.info);
    return next();
  };
}
