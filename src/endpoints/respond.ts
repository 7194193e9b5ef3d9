/**
 * Negotiated responses for the API: objects, lists, Status errors. Every failure is written here,
 * through `toStatus`, in the format the client accepts (JSON when it accepts nothing we have).
 * Protobuf is offered only where the caller names the schema of what it writes and that schema
 * has a protobuf form.
 */
import { writeBody } from '../http/respond.js';
import { parseAccept, rangeAccepts } from '../http/negotiate.js';
import { errors, toStatus, type Status } from '../machinery/errors.js';
import { protobufGaps, protobufSerializer } from '../schema/protobuf/index.js';
import { jsonSerializer, yamlSerializer, type JsonText, type Serializer } from '../machinery/codec/serializers.js';
import { PartialObjectMetadata, PartialObjectMetadataList, Status as StatusSchema, type StructSchema } from '../schema/index.js';
import type { RequestContext } from '../machinery/request-context.js';
import { auditResponseObject, auditResponseText } from '../machinery/audit-record.js';

export interface OutputOptions {
  /** A watch: only formats with a stream form (JSON, protobuf). */
  streaming?: boolean;
  /** The schema of the object written; without one, protobuf is not offered. */
  schema?: StructSchema;
  /** The conversions this answer can make (`as=Table`, `as=PartialObjectMetadata`); none without. */
  conversions?: ConversionSupport;
}

export type ConversionKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** A representation asked for with `as`, `g` and `v` parameters of an Accept range. */
export interface Conversion {
  readonly kind: ConversionKind;
  /** `meta.<domain>` */
  readonly group: string;
  readonly version: 'v1' | 'v1beta1';
}

export interface ConversionSupport {
  /** The group the conversions belong to, `meta.<domain>`; other groups are not understood. */
  readonly metaGroup: string;
  readonly table: boolean;
  readonly partialObjectMetadata: boolean;
}

export interface OutputChoice {
  readonly serializer: Serializer;
  readonly conversion?: Conversion;
}

const serializerCache = new WeakMap<StructSchema, Map<string, Serializer>>();

function cachedProtobuf(mediaType: string, schema: StructSchema): Serializer {
  let byType = serializerCache.get(schema);
  if (!byType) serializerCache.set(schema, (byType = new Map()));
  let s = byType.get(mediaType);
  if (!s) byType.set(mediaType, (s = protobufSerializer(mediaType, schema)));
  return s;
}

/** The protobuf serializer for a schema, when the server speaks protobuf and the schema has a protobuf form. */
export function protobufFor(ctx: RequestContext, schema: StructSchema | undefined): Serializer | undefined {
  const mediaType = ctx.protobufMediaType;
  if (!mediaType || !schema || ctx.protobufRefused || protobufGaps(schema).length > 0) return undefined;
  return cachedProtobuf(mediaType, schema);
}

/** Whether a serializer writes protobuf (bytes) rather than text. */
export function isProtobuf(ctx: RequestContext, s: Serializer): boolean {
  return s.mediaType === ctx.protobufMediaType;
}

const CONVERSION_PARAMS = new Set(['as', 'g', 'v']);
const PLAIN_PARAMS = new Set(['charset', 'pretty', 'stream']);

/**
 * The conversion a range asks for: undefined for none, null for one this answer cannot make (an
 * unknown kind, group or version, or a conversion the endpoint does not offer): such ranges are
 * skipped, as Kubernetes skips them, so a client's fallback is chosen.
 */
function conversionOf(params: Record<string, string>, support: ConversionSupport | undefined): Conversion | null | undefined {
  if (!Object.keys(params).some((p) => CONVERSION_PARAMS.has(p))) return undefined;
  const { as: kind, g: group, v: version } = params;
  if (!support || group !== support.metaGroup || (version !== 'v1' && version !== 'v1beta1')) return null;
  if (kind === 'Table' && support.table) return { kind, group, version };
  if ((kind === 'PartialObjectMetadata' || kind === 'PartialObjectMetadataList') && support.partialObjectMetadata) return { kind, group, version };
  return null;
}

/** The serializers of a conversion: Table only as JSON or YAML (Kubernetes has no protobuf Table); metadata in any format. */
function conversionSerializers(ctx: RequestContext, c: Conversion, streaming: boolean): Serializer[] {
  const out: Serializer[] = streaming ? [jsonSerializer] : [jsonSerializer, yamlSerializer];
  if (c.kind !== 'Table' && ctx.protobufMediaType) {
    // Metadata has a protobuf form even where the kind has none (Kubernetes serves it for custom resources).
    out.push(cachedProtobuf(ctx.protobufMediaType, c.kind === 'PartialObjectMetadataList' ? PartialObjectMetadataList : PartialObjectMetadata));
  }
  return out;
}

/**
 * Picks the response serializer, and any conversion, from Accept: the first range (by q, then
 * order) this answer can produce. Ranges with parameters we do not understand, or conversions
 * we cannot make, are skipped, so clients that list a fallback get it. Throws 406 naming the
 * types this response could have had.
 */
export function negotiateOutputChoice(ctx: RequestContext, opts: OutputOptions = {}): OutputChoice {
  const candidates: Serializer[] = opts.streaming ? [jsonSerializer] : [jsonSerializer, yamlSerializer];
  const pb = protobufFor(ctx, opts.schema);
  if (pb) candidates.push(pb);
  for (const range of parseAccept(ctx.req.headers.accept)) {
    const conversion = conversionOf(range.params, opts.conversions);
    if (conversion === null) continue;
    if (Object.keys(range.params).some((p) => !PLAIN_PARAMS.has(p) && !CONVERSION_PARAMS.has(p))) continue;
    if (conversion) {
      const hit = conversionSerializers(ctx, conversion, opts.streaming ?? false).find((s) => rangeAccepts(range, s.mediaType));
      if (hit) return { serializer: hit, conversion };
      continue;
    }
    const hit = candidates.find((s) => rangeAccepts(range, s.mediaType));
    if (hit) return { serializer: hit };
  }
  throw errors.notAcceptable(candidates.map((s) => s.mediaType));
}

/** Picks the response serializer from Accept, for answers that make no conversion (see negotiateOutputChoice). */
export function negotiateOutput(ctx: RequestContext, opts: OutputOptions = {}): Serializer {
  return negotiateOutputChoice(ctx, opts).serializer;
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
  auditResponseObject(ctx.audit, value);
  writeBody(ctx, code, s.mediaType, s.encode(value, isPretty(ctx)));
}

/** Writes stored JSON text: as is for JSON, re-encoded for the other formats. */
export function respondText(ctx: RequestContext, code: number, text: JsonText, schema?: StructSchema): void {
  const s = negotiateOutput(ctx, schema ? { schema } : {});
  auditResponseText(ctx.audit, text.json);
  writeBody(ctx, code, s.mediaType, s.encodeText(text, isPretty(ctx)));
}

/** Writes any thrown value as a Status, negotiated when possible, JSON otherwise. */
export function respondError(ctx: RequestContext, err: unknown): void {
  const status: Status = toStatus(err);
  auditResponseObject(ctx.audit, status);
  let s: Serializer = jsonSerializer;
  try {
    s = negotiateOutput(ctx, { schema: StatusSchema });
  } catch {
    // The client accepts nothing we produce; a Status in JSON is still the most useful answer.
  }
  const headers: Record<string, string> = {};
  const retry = status.details?.retryAfterSeconds;
  if (retry) headers['Retry-After'] = String(retry);
  writeBody(ctx, status.code, s.mediaType, s.encode(status, isPretty(ctx)), headers);
}
