/**
 * Negotiated responses for the API: objects, lists, Status errors. Every failure is written here,
 * through `toStatus`, in the format the client accepts (JSON when it accepts nothing we have).
 */
import { writeBody } from '../http/respond.js';
import { parseAccept, rangeAccepts } from '../http/negotiate.js';
import { errors, toStatus, type Status } from '../machinery/errors.js';
import { jsonSerializer, yamlSerializer, type JsonText, type Serializer } from '../machinery/codec/serializers.js';
import type { RequestContext } from './request-context.js';

const OUTPUT_SERIALIZERS: readonly Serializer[] = [jsonSerializer, yamlSerializer];
export const SUPPORTED_OUTPUT_TYPES = OUTPUT_SERIALIZERS.map((s) => s.mediaType);

/**
 * Picks the response serializer from Accept. Ranges with parameters we do not produce
 * (a Table request, for instance) are skipped, so clients that list a fallback get it.
 */
export function negotiateOutput(ctx: RequestContext, opts: { streaming?: boolean } = {}): Serializer {
  const candidates = opts.streaming ? [jsonSerializer] : OUTPUT_SERIALIZERS;
  for (const range of parseAccept(ctx.req.headers.accept)) {
    if (Object.keys(range.params).some((p) => p !== 'charset' && p !== 'pretty' && p !== 'stream')) continue;
    const hit = candidates.find((s) => rangeAccepts(range, s.mediaType));
    if (hit) return hit;
  }
  throw errors.notAcceptable(candidates.map((s) => s.mediaType));
}

/** Kubernetes pretty-prints for `pretty=true` and for browsers and curl when the parameter is absent. */
export function isPretty(ctx: RequestContext): boolean {
  const p = ctx.url.searchParams.get('pretty');
  if (p !== null) return p === '' || p.toLowerCase() === 'true' || p === '1';
  const ua = ctx.req.headers['user-agent'] ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

export function respondValue(ctx: RequestContext, code: number, value: unknown): void {
  const s = negotiateOutput(ctx);
  ctx.statusCode = code;
  writeBody(ctx, code, s.mediaType, s.encode(value, isPretty(ctx)));
}

export function respondText(ctx: RequestContext, code: number, text: JsonText): void {
  const s = negotiateOutput(ctx);
  ctx.statusCode = code;
  writeBody(ctx, code, s.mediaType, s.encodeText(text, isPretty(ctx)));
}

/** Writes any thrown value as a Status, negotiated when possible, JSON otherwise. */
export function respondError(ctx: RequestContext, err: unknown): void {
  const status: Status = toStatus(err);
  let s: Serializer = jsonSerializer;
  try {
    s = negotiateOutput(ctx);
  } catch {
    // The client accepts nothing we produce; a Status in JSON is still the most useful answer.
  }
  const headers: Record<string, string> = {};
  const retry = status.details?.retryAfterSeconds;
  if (retry) headers['Retry-After'] = String(retry);
  ctx.statusCode = status.code;
  writeBody(ctx, status.code, s.mediaType, s.encode(status, isPretty(ctx)), headers);
}
