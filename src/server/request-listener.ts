/**
 * Where a request enters: one context per request, the filter chain, then the handler. The listener
 * serves node:http and the http2 compatibility API alike; a failure that escapes even panic recovery
 * (the socket broke while writing) is logged and the response ended.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { compose, type Handler } from '../http/context.js';
import type { HttpRequest, HttpResponse, TlsPeer } from '../http/listener.js';
import type { Logger } from '../machinery/logger.js';
import { createRequestContext, type RequestContext } from '../machinery/request-context.js';
import type { ChainStep } from './chain.js';

export type RequestListener = (req: HttpRequest, res: HttpResponse, tls?: TlsPeer) => void;

export function createRequestListener(deps: { chain: readonly ChainStep[]; handler: Handler<RequestContext>; log: Logger; protobufMediaType?: string }): RequestListener {
  const handle = compose(deps.chain.map((s) => s.filter), deps.handler);
  const { log } = deps;
  return (request, response, tls) => {
    // The http2 compatibility objects offer every member the filters and handlers use (headers,
    // method, url, async iteration; setHeader, statusCode, writeHead, write, end, 'close').
    const req = request as IncomingMessage;
    const res = response as ServerResponse;
    const abort = new AbortController();
    // The client left before the answer was complete. (writableEnded, not writableFinished: Node's
    // HTTP/2 response reports a stream the client reset as finished, and a watch would run on.)
    res.on('close', () => {
      if (!res.writableEnded) abort.abort();
    });
    const ctx = createRequestContext(req, res, { signal: abort.signal, ...(tls ? { tls } : {}), ...(deps.protobufMediaType ? { protobufMediaType: deps.protobufMediaType } : {}) });
    handle(ctx).catch((e: unknown) => {
      log.error('unhandled failure while writing a response', { error: String(e) });
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  };
}
