/**
 * Request bodies to objects: pick the decoder from Content-Type, read the body within the limit,
 * check apiVersion and kind against the endpoint, decode with the kind's schema (Go semantics),
 * apply the field-validation mode to unknown fields, then fill defaults.
 */
import { toHub } from '../conversion.js';
import { BodyTooLargeError, readBody } from '../../http/body.js';
import { parseMediaType } from '../../http/negotiate.js';
import { DecodeBodyError, jsonSerializer, yamlSerializer, type Serializer } from '../../machinery/codec/serializers.js';
import { errors } from '../../machinery/errors.js';
import { apiVersionOf } from '../../machinery/gvk.js';
import { DecodeError, decodeObject, type KubeObject, type StructSchema } from '../../schema/index.js';
import type { RequestContext } from '../request-context.js';
import { protobufFor } from '../respond.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';

const INPUT_SERIALIZERS: readonly Serializer[] = [jsonSerializer, yamlSerializer];

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export async function readRequestBody(ctx: RequestContext, ep: ResourceEndpoint): Promise<Buffer> {
  try {
    return await readBody(ctx.req, ep.settings.maxRequestBodyBytes);
  } catch (e) {
    if (e instanceof BodyTooLargeError) throw errors.requestEntityTooLarge(e.limit);
    throw e;
  }
}

/**
 * The decoder for the request's Content-Type (JSON when none is sent); 415 for others. `schema`,
 * the type of the body, makes protobuf acceptable when it has a protobuf form.
 */
export function requestSerializer(ctx: RequestContext, schema?: StructSchema): Serializer {
  const header = ctx.req.headers['content-type'];
  if (!header) return jsonSerializer;
  const m = parseMediaType(header);
  const type = m ? `${m.type}/${m.subtype}` : header;
  const pb = protobufFor(ctx, schema);
  const candidates = pb ? [...INPUT_SERIALIZERS, pb] : INPUT_SERIALIZERS;
  const s = candidates.find((x) => x.mediaType === type);
  if (!s) throw errors.unsupportedMediaType(candidates.map((x) => x.mediaType));
  return s;
}

export function parseBody(serializer: Serializer, body: Buffer): unknown {
  try {
    return serializer.decode(body);
  } catch (e) {
    if (e instanceof DecodeBodyError) throw errors.badRequest(e.message);
    throw e;
  }
}

/**
 * Decodes a plain JSON value as an object of the endpoint's kind. Used for request bodies and for
 * the result of a patch, so both obey the same rules.
 */
export function decodeAs(ctx: RequestContext, ep: ResourceEndpoint, value: unknown, validation: FieldValidation, schema: StructSchema = ep.def.schema): KubeObject {
  const { def } = ep;
  const expectedVersion = apiVersionOf(def);
  const where = `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw errors.badRequest(`${where}: the body must be a JSON object`);
  }
  const raw = value as Record<string, unknown>;
  if (raw.apiVersion !== undefined && raw.apiVersion !== '' && raw.apiVersion !== expectedVersion) {
    throw errors.badRequest(`the API version in the data (${String(raw.apiVersion)}) does not match the expected API version (${expectedVersion})`);
  }
  if (raw.kind !== undefined && raw.kind !== '' && raw.kind !== def.kind) {
    throw errors.badRequest(`the kind in the data (${String(raw.kind)}) does not match the expected kind (${def.kind})`);
  }
  let decoded;
  try {
    decoded = decodeObject<KubeObject>(schema, raw);
  } catch (e) {
    if (e instanceof DecodeError) throw errors.badRequest(`${where}: ${e.message}`);
    throw e;
  }
  if (decoded.unknownFields.length && validation !== 'Ignore') {
    const texts = decoded.unknownFields.map((f) => `unknown field "${f}"`);
    if (validation === 'Strict') throw errors.badRequest(`strict decoding error: ${texts.join(', ')}`);
    ctx.warnings.push(...texts);
  }
  const served = decoded.value;
  served.apiVersion = expectedVersion;
  served.kind = def.kind;
  // Defaults belong to the storage version: convert first, then fill them in.
  const obj = toHub(ep, served);
  def.strategy.defaults?.(obj, { names: ep.names, namespace: ctx.info.isResourceRequest ? ctx.info.namespace : '', subresource: '', now: new Date() });
  return obj;
}

/** Reads and decodes a create or update body. */
export async function decodeRequestObject(ctx: RequestContext, ep: ResourceEndpoint, validation: FieldValidation): Promise<KubeObject> {
  const serializer = requestSerializer(ctx, ep.def.schema);
  const body = await readRequestBody(ctx, ep);
  if (body.length === 0) throw errors.badRequest(`the request body is empty: send the ${ep.def.kind} to write`);
  return decodeAs(ctx, ep, parseBody(serializer, body), validation);
}

/** Reads an optional options body (DeleteOptions, of `schema`) as plain JSON, YAML or protobuf. */
export async function readOptionalBody(ctx: RequestContext, ep: ResourceEndpoint, schema: StructSchema): Promise<unknown> {
  const body = await readRequestBody(ctx, ep);
  if (body.length === 0) return undefined;
  return parseBody(requestSerializer(ctx, schema), body);
}
