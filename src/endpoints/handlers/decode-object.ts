/**
 * Request bodies to objects: pick the decoder from Content-Type, read the body within the limit,
 * check apiVersion and kind against the endpoint, decode with the kind's schema (Go semantics),
 * apply the field-validation mode to unknown and repeated fields, then fill defaults.
 */
import { toHub } from '../conversion.js';
import { BodyTooLargeError, readBody } from '../../http/body.js';
import { parseMediaType } from '../../http/negotiate.js';
import { DecodeBodyError, jsonSerializer, yamlSerializer, type Serializer } from '../../machinery/codec/serializers.js';
import { errors, type StatusError } from '../../machinery/errors.js';
import { yamlDuplicateKeysError } from '../../machinery/codec/yaml-keys.js';
import { apiVersionOf } from '../../machinery/gvk.js';
import { DecodeError, decodeObject, type KubeObject, type StructSchema } from '../../schema/index.js';
import type { RequestContext } from '../../machinery/request-context.js';
import { protobufFor } from '../respond.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { enforceFieldValidation, typedBodyProblems, unknownField, type FieldValidation } from './field-validation.js';
import { auditRequestObject } from '../../machinery/audit-record.js';

const INPUT_SERIALIZERS: readonly Serializer[] = [jsonSerializer, yamlSerializer];

export type { FieldValidation };

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

/** What decoding a JSON value as the endpoint's kind gives, before field validation and defaults. */
export interface DecodedObject {
  /** The object of the served version, as Go's decoder would have it. */
  served: KubeObject;
  /** Paths of the fields the schema does not know, in document order. */
  unknownFields: string[];
}

/** The prefix of Kubernetes' answer to a body that cannot become the kind (wrong types, strict errors). */
function cannotHandle(kind: string, version: string): string {
  return `${kind} in version "${version}" cannot be handled as a ${kind}`;
}

/**
 * Decodes a plain JSON value as an object of the endpoint's kind (served version): apiVersion and
 * kind checks, then the schema with Go's semantics. Used for request bodies and for the result of a
 * patch, so both obey the same rules. Field validation and defaults are the caller's next steps.
 */
export function decodeServed(ep: ResourceEndpoint, value: unknown, schema: StructSchema = ep.def.schema): DecodedObject {
  const { def } = ep;
  const expectedVersion = apiVersionOf(def);
  const where = cannotHandle(def.kind, def.version);
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
  const served = decoded.value;
  served.apiVersion = expectedVersion;
  served.kind = def.kind;
  return { served, unknownFields: decoded.unknownFields };
}

/** The served object as the store keeps it, with the kind's defaults filled in. */
export function withDefaults(ctx: RequestContext, ep: ResourceEndpoint, served: KubeObject): KubeObject {
  // Defaults belong to the storage version: convert first, then fill them in.
  const obj = toHub(ep, served);
  ep.def.strategy.defaults?.(obj, { names: ep.names, namespace: ctx.info.isResourceRequest ? ctx.info.namespace : '', subresource: '', now: new Date() });
  return obj;
}

/** A 400 for a body the strict decoder refused, worded as Kubernetes words it. */
export function strictBodyError(kind: string, version: string): (message: string) => StatusError {
  return (message) => errors.badRequest(`${cannotHandle(kind, version)}: ${message}`);
}

/**
 * Decodes a plain JSON value as an object of the endpoint's kind, with field validation of its
 * unknown fields only (the value no longer shows repeated keys), then fills defaults.
 */
export function decodeAs(ctx: RequestContext, ep: ResourceEndpoint, value: unknown, validation: FieldValidation, schema: StructSchema = ep.def.schema): KubeObject {
  const { served, unknownFields } = decodeServed(ep, value, schema);
  enforceFieldValidation(ctx, validation, unknownFields.map(unknownField), strictBodyError(ep.def.kind, ep.def.version));
  return withDefaults(ctx, ep, served);
}

/** A request body as text, with what field validation needs to know about it. */
export interface BodyText {
  text: string;
  yaml: boolean;
  /** A protobuf body has no text, and no unknown or repeated fields to report (Kubernetes does not check them). */
  protobuf?: boolean;
}

/** The strict problems of a create or update body, found only when the mode asks for them. */
export function bodyProblems(validation: FieldValidation, schema: StructSchema, body: BodyText, unknownFields: readonly string[]): string[] {
  if (validation === 'Ignore' || body.protobuf) return [];
  const yamlDuplicates = body.yaml ? yamlDuplicateKeysError(body.text) : undefined;
  return typedBodyProblems(schema, { ...body, yamlDuplicates }, unknownFields);
}

/**
 * Reads and parses a create or update body of `schema` (what protobuf is decoded with): the JSON
 * value and its text.
 */
export async function readRequestValue(ctx: RequestContext, ep: ResourceEndpoint, what: string, schema: StructSchema): Promise<{ value: unknown; body: BodyText }> {
  const serializer = requestSerializer(ctx, schema);
  const raw = await readRequestBody(ctx, ep);
  if (raw.length === 0) throw errors.badRequest(`the request body is empty: send the ${what} to write`);
  const value = parseBody(serializer, raw);
  auditRequestObject(ctx.audit, value);
  if (serializer !== jsonSerializer && serializer !== yamlSerializer) return { value, body: { text: '', yaml: false, protobuf: true } };
  return { value, body: { text: raw.toString('utf8'), yaml: serializer === yamlSerializer } };
}

/** Reads and decodes a create or update body, with field validation of unknown and repeated fields. */
export async function decodeRequestObject(ctx: RequestContext, ep: ResourceEndpoint, validation: FieldValidation): Promise<KubeObject> {
  const { value, body } = await readRequestValue(ctx, ep, ep.def.kind, ep.def.schema);
  const { served, unknownFields } = decodeServed(ep, value);
  enforceFieldValidation(ctx, validation, bodyProblems(validation, ep.def.schema, body, unknownFields), strictBodyError(ep.def.kind, ep.def.version));
  return withDefaults(ctx, ep, served);
}

/** Reads an optional options body (DeleteOptions, of `schema`) as plain JSON, YAML or protobuf. */
export async function readOptionalBody(ctx: RequestContext, ep: ResourceEndpoint, schema: StructSchema): Promise<unknown> {
  const body = await readRequestBody(ctx, ep);
  if (body.length === 0) return undefined;
  return parseBody(requestSerializer(ctx, schema), body);
}
