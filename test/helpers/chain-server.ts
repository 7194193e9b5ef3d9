/**
 * Filters under test on a real listener: a node:http server on a free loopback port that runs the
 * given chain steps and handler through the server's own request listener, and a fetch-based client.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseRequestInfo } from '../../src/endpoints/request-info.js';
import type { Filter, Handler } from '../../src/http/context.js';
import type { Logger } from '../../src/machinery/logger.js';
import type { RequestContext } from '../../src/machinery/request-context.js';
import { withPanicRecovery } from '../../src/filters/with-panic-recovery.js';
import { withRequestInfo } from '../../src/filters/with-request-info.js';
import type { ChainStep } from '../../src/server/chain.js';
import { createRequestListener } from '../../src/server/request-listener.js';

export interface ChainServer {
  url: string;
  /** Log records written so far. */
  logs: { level: string; msg: string; fields?: Record<string, unknown> }[];
  fetch(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any; text: string }>;
  close(): Promise<void>;
}

export function memoryLogger(into: ChainServer['logs']): Logger {
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => void into.push({ level, msg, ...(fields ? { fields } : {}) });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/**
 * Serves `filters` (after panic recovery and request info, unless `bare`) in front of `handler`.
 * The default handler answers 200 with the context's user, info and deadline as JSON.
 */
export async function serveChain(filters: readonly Filter<RequestContext>[], opts: { handler?: Handler<RequestContext>; bare?: boolean } = {}): Promise<ChainServer> {
  const logs: ChainServer['logs'] = [];
  const log = memoryLogger(logs);
  const front: Filter<RequestContext>[] = opts.bare ? [] : [withPanicRecovery(log), withRequestInfo(parseRequestInfo)];
  const chain: ChainStep[] = [...front, ...filters].map((filter, i) => ({ name: `step-${i}`, filter }));
  const handler: Handler<RequestContext> =
    opts.handler ??
    (async (ctx) => {
      const body = JSON.stringify({ user: ctx.user ?? null, info: ctx.info, longRunning: ctx.longRunning, deadline: ctx.deadline ?? null, audit: ctx.audit });
      ctx.res.setHeader('Content-Type', 'application/json');
      ctx.res.end(body);
    });
  const server: Server = createServer(createRequestListener({ chain, handler, log }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    logs,
    async fetch(path, init) {
      const r = await fetch(url + path, init);
      const text = await r.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: r.status, headers: r.headers, body, text };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
