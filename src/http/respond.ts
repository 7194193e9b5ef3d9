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
