/** Writing responses: headers every answer carries, bodies, and streaming for watches. */
import type { HttpContext } from './context.js';

/** Formats a warning as RFC 7234 `299 - "text"`, escaping quotes and backslashes. */
export function warningHeader(text: string): string {
  return `299 - "${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ')}"`;
}

export function setCommonHeaders(ctx: HttpContext, contentType: string): void {
  const { res } = ctx;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (ctx.warnings.length) res.setHeader('Warning', [...new Set(ctx.warnings)].map(warningHeader));
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
  res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.end(body);
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
