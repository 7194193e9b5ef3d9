/**
 * Negotiated responses for the API: objects, lists, Status errors. Every failure is written here,
 * through `toStatus`, in the format the client accepts (JSON when it accepts nothing we have).
 * Protobuf is offered only where the caller names the schema of what it writes and that schema
 * has a protobuf form.
 */
import { writeBody } from '../http/respond.js';
import { parseAccept, rangeAccepts } from '../http/negotiate.js';
import { errors, toStatus, type Status } from '../machinery/errors.js';
import { protobufGaps, protobufSerializer } from '../machinery/codec/protobuf/index.js';
import { jsonSerializer, yamlSerializer, type JsonText, type Serializer } from '../machinery/codec/serializers.js';
import { Status as StatusSchema, type StructSchema } from '../schema/index.js';
import type { RequestContext } from './request-context.js';

export interface OutputOptions {
  /** A watch: only formats with a stream form (JSON, protobuf). */
  streaming?: boolean;
  /** The schema of the object written; without one, protobuf is not offered. */
  schema?: StructSchema;
}

const serializerCache = new WeakMap<StructSchema, Map<string, Serializer>>();

/** The protobuf serializer for a schema, when the server speaks protobuf and the schema has a protobuf form. */
export function protobufFor(ctx: RequestContext, schema: StructSchema | undefined): Serializer | undefined {
  const mediaType = ctx.protobufMediaType;
  if (!mediaType || !schema || ctx.protobufRefused || protobufGaps(schema).length > 0) return undefined;
  let byType = serializerCache.get(schema);
  if (!byType) serializerCache.set(schema, (byType = new Map()));
  let s = byType.get(mediaType);
  if (!s) byType.set(mediaType, (s = protobufSerializer(mediaType, schema)));
  return s;
}

/** Whether a serializer writes protobuf (bytes) rather than text. */
export function isProtobuf(ctx: RequestContext, s: Serializer): boolean {
  return s.mediaType === ctx.protobufMediaType;
}

/**
 * Picks the response serializer from Accept. Ranges with parameters we do not produce
 * (a Table request, for instance) are skipped, so clients that list a fallback get it.
 * Throws 406 naming the types this response could have had.
 */
export function negotiateOutput(ctx: RequestContext, opts: OutputOptions = {}): Serializer {
  const candidates: Serializer[] = opts.streaming ? [jsonSerializer] : [jsonSerializer, yamlSerializer];
  const pb = protobufFor(ctx, opts.schema);
  if (pb) candidates.push(pb);
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

/** Writes a value; `schema` (the value's type) makes protobuf one of the choices. */
export function respondValue(ctx: RequestContext, code: number, value: unknown, schema?: StructSchema): void {
  const s = negotiateOutput(ctx, schema ? { schema } : {});
  ctx.statusCode = code;
  writeBody(ctx, code, s.mediaType, s.encode(value, isPretty(ctx)));
}

/** Writes stored JSON text: as is for JSON, re-encoded for the other formats. */
export function respondText(ctx: RequestContext, code: number, text: JsonText, schema?: StructSchema): void {
  const s = negotiateOutput(ctx, schema ? { schema } : {});
  ctx.statusCode = code;
  writeBody(ctx, code, s.mediaType, s.encodeText(text, isPretty(ctx)));
}

/** Writes any thrown value as a Status, negotiated when possible, JSON otherwise. */
export function respondError(ctx: RequestContext, err: unknown): void {
  const status: Status = toStatus(err);
  let s: Serializer = jsonSerializer;
  try {
    s = negotiateOutput(ctx, { schema: StatusSchema });
  } catch {
    // The client accepts nothing we produce; a Status in JSON is still the most useful answer.
  }
  const headers: Record<string, string> = {};
  const retry = status.details?.retryAfterSeconds;
  if (retry) headers['Retry-After'] = String(retry);
  ctx.statusCode = status.code;
  writeBody(ctx, status.code, s.mediaType, s.encode(status, isPretty(ctx)), headers);
}
