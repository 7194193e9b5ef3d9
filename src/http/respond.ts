/** Writing responses: headers every answer carries, bodies, and streaming for watches. */
import type { HttpContext } from './context.js';
import { warningHeaderValues } from './warning-header.js';


export function setCommonHeaders(ctx: HttpContext, contentType: string): void {
  const { res } = ctx;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const warnings = warningHeaderValues(ctx.warnings);
  if (warnings.length) res.setHeader('Warning', warnings);
}

export function writeBody(ctx: HttpContext, code: number, contentType: string, body: string | Buffer, extraHeaders?: Record<string, string>): void {
  const { res } = ctx;
  if (res.headersSent) {
    res.end();
    return;
  }
  setCommonHeaders(ctx, contentType);
  for (const [k, v] of Object.entries(extraHeaders ?? {})) res.setHeader(k, v);
  res.statusCode = code;
  // A Buffer, never a string: Node writes the headers in the body's encoding when the body is a
  // string, and the header values here are Latin-1 (byte) strings (see warning-header.ts).
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}

export function writeText(ctx: HttpContext, code: number, text: string): void {
  writeBody(ctx, code, 'text/plain; charset=utf-8', text);
}

/**
 * Sends the status line and headers now, before any body, so a watch client learns at once that
 * its stream is open (HTTP/1.1 and HTTP/2 alike).
 */
export function flushHeaders(ctx: HttpContext): void {
  const res = ctx.res;
  // Node's HTTP/2 compatibility response has flushHeaders too, though its type declarations omit it.
  (res as { flushHeaders(): void }).flushHeaders();
}

/** Writes one piece of a streamed body; false when the client is not keeping up (wait for 'drain'). */
export function writeChunk(ctx: HttpContext, chunk: string | Uint8Array): boolean {
  return (ctx.res as { write(chunk: string | Uint8Array): boolean }).write(chunk);
}
