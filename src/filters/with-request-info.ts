/**
 * Parses what the request is about, once, before any filter needs it: authorization, flow control,
 * audit, the deadline and metrics read `ctx.info`; whether the request is long-running is known
 * from here on too. A URL the parser refuses throws a StatusError, which panic recovery answers.
 */
import type { Filter } from '../http/context.js';
import type { RequestContext } from '../machinery/request-context.js';
import { isLongRunning, type RequestInfo } from '../machinery/request-info.js';

export type RequestInfoResolver = (method: string, url: URL) => RequestInfo;

export function withRequestInfo(resolve: RequestInfoResolver, longRunning: (info: RequestInfo) => boolean = isLongRunning): Filter<RequestContext> {
  return (ctx, next) => {
    ctx.info = resolve(ctx.req.method ?? 'GET', ctx.url);
    ctx.longRunning = longRunning(ctx.info);
    return next();
  };
}
