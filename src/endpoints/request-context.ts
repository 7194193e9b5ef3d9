/** The request context the filters and endpoint handlers share: transport plus parsed request info. */
import type { UserInfo } from '../machinery/user-info.js';
import type { HttpContext } from '../http/context.js';
import type { RequestInfo } from './request-info.js';

export interface RequestContext extends HttpContext {
  info: RequestInfo;
  /** Set by authentication; absent until then (and when authentication is off). */
  user?: UserInfo;
  /** The HTTP status written, for metrics and logs. */
  statusCode?: number;
  /** Set for long-running requests (watches), which metrics count apart. */
  longRunning?: boolean;
  /** The server's protobuf media type (`application/vnd.orch.protobuf`); protobuf is off without it. */
  protobufMediaType?: string;
  /**
   * Set by the resource router for a resource that has no protobuf form: none of its answers, its
   * errors included, is protobuf (as Kubernetes answers for custom resources).
   */
  protobufRefused?: boolean;
}
