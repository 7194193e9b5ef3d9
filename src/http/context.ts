/** The transport-level state of one request; the request context (machinery) extends it. */
import type { HttpRequest, HttpResponse, TlsPeer } from './listener.js';
import type { ResponseRecord } from './response-recorder.js';

export interface HttpContext {
  /** HTTP/1.1 or HTTP/2 (Node's compatibility API); see listener.ts. */
  readonly req: HttpRequest;
  readonly res: HttpResponse;
  /** The client's TLS certificate as the handshake verified it; absent on plain HTTP. */
  readonly tls?: TlsPeer;
  /**
   * The query in `searchParams`; `pathname` is WHATWG-normalised, for display only: route and
   * authorize by `path`.
   */
  readonly url: URL;
  /** The request path as sent: percent-decoded, never normalised (`.`, `..` and empty segments kept). */
  readonly path: string;
  /** Why the request target could not be parsed (answered 400 by the request-info filter); absent when it could. */
  readonly targetError?: string;
  /** Aborted when the client goes away or the request deadline passes (filters may narrow it). */
  signal: AbortSignal;
  readonly startedAt: bigint;
  /** Texts for `Warning: 299 - "..."` headers, added before the response is written. */
  readonly warnings: string[];
  /** What the response writer sent: status code and body bytes (for metrics and audit). */
  readonly response: ResponseRecord;
}

export type Next = () => Promise<void>;
export type Filter<C extends HttpContext = HttpContext> = (ctx: C, next: Next) => Promise<void>;
export type Handler<C extends HttpContext = HttpContext> = (ctx: C) => Promise<void>;

/** Composes filters into one handler, outermost first. */
export function compose<C extends HttpContext>(filters: readonly Filter<C>[], handler: Handler<C>): Handler<C> {
  return (ctx) => {
    const run = (i: number): Promise<void> => {
      const f = filters[i];
      if (!f) return handler(ctx);
      let called = false;
      return f(ctx, () => {
        if (called) return Promise.reject(new Error(`filter ${i} called next() twice`));
        called = true;
        return run(i + 1);
      });
    };
    return run(0);
  };
}
