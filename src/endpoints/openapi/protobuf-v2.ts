/**
 * The Swagger 2.0 document as gnostic's `openapi.v2.Document` protobuf message, which is what
 * client-go's discovery client asks /openapi/v2 for and unmarshals. Each message is a table from
 * JSON keys to field numbers (from gnostic's OpenAPIv2.proto); `x-` keys become the message's
 * vendor extensions. Free-form values (defaults, enums, examples, extensions) are `Any` messages
 * holding YAML text: we write JSON, which YAML parsers read as is. Proto3 defaults (empty strings,
 * false, zero) are left out, as protobuf marshalers do.
 */
import { ProtobufWriter } from '../../machinery/codec/protobuf-writer.js';
import type { JsonObject, JsonValue } from './schema-convert.js';

type Encoder = (w: ProtobufWriter, v: JsonValue) => void;

type FieldKind =
  | 'string'
  | 'bool'
  | 'double'
  | 'int64'
  | 'strings'
  | 'any'
  | 'anys'
  | { message: Encoder }
  | { messages: Encoder };

type FieldTable = Readonly<Record<string, readonly [number, FieldKind]>>;

function isObject(v: JsonValue): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** gnostic's Any: field 2 holds the value as YAML text. */
function writeAny(w: ProtobufWriter, v: JsonValue): void {
  w.string(2, JSON.stringify(v));
}

/** A NamedAny list of the `x-` keys of an object. */
function writeVendorExtensions(w: ProtobufWriter, field: number, obj: JsonObject): void {
  for (const [k, v] of Object.entries(obj)) {
    if (!k.startsWith('x-')) continue;
    w.message(field, (n) => {
      n.string(1, k);
      n.message(2, (a) => writeAny(a, v));
    });
  }
}

function writeField(w: ProtobufWriter, num: number, kind: FieldKind, v: JsonValue): void {
  if (kind === 'string') {
    if (typeof v === 'string' && v !== '') w.string(num, v);
  } else if (kind === 'bool') {
    if (v === true) w.bool(num, true);
  } else if (kind === 'double') {
    if (typeof v === 'number' && v !== 0) w.double(num, v);
  } else if (kind === 'int64') {
    if (typeof v === 'number' && v !== 0) w.int(num, v);
  } else if (kind === 'strings') {
    for (const s of Array.isArray(v) ? v : [v]) if (typeof s === 'string') w.string(num, s);
  } else if (kind === 'any') {
    w.message(num, (a) => writeAny(a, v));
  } else if (kind === 'anys') {
    for (const item of Array.isArray(v) ? v : [v]) w.message(num, (a) => writeAny(a, item));
  } else if ('message' in kind) {
    w.message(num, (m) => kind.message(m, v));
  } else {
    for (const item of Array.isArray(v) ? v : [v]) w.message(num, (m) => kind.messages(m, item));
  }
}

/** An encoder for a message described by a field table; `vendorField` receives the `x-` keys. */
function message(table: () => FieldTable, vendorField?: number): Encoder {
  // The table is a thunk because message types refer to each other (and to themselves); it is built once, on first use.
  let fields: FieldTable | undefined;
  return (w, v) => {
    if (!isObject(v)) return;
    fields ??= table();
    for (const [k, value] of Object.entries(v)) {
      const spec = fields[k];
      if (spec) writeField(w, spec[0], spec[1], value);
    }
    if (vendorField !== undefined) writeVendorExtensions(w, vendorField, v);
  };
}

/** A JSON object as a repeated `Named*` message (name = 1, value = 2) in field `field`. */
function namedMap(field: number, value: Encoder, accept: (key: string) => boolean = (k) => !k.startsWith('x-')): Encoder {
  return (w, v) => {
    if (!isObject(v)) return;
    for (const [k, item] of Object.entries(v)) {
      if (!accept(k)) continue;
      w.message(field, (n) => {
        n.string(1, k);
        n.message(2, (m) => value(m, item));
      });
    }
  };
}

const externalDocs = message(() => ({ description: [1, 'string'], url: [2, 'string'] }), 3);
const xml = message(() => ({ name: [1, 'string'], namespace: [2, 'string'], prefix: [3, 'string'], attribute: [4, 'bool'], wrapped: [5, 'bool'] }), 6);

const schema: Encoder = message(() => ({
  $ref: [1, 'string'],
  format: [2, 'string'],
  title: [3, 'string'],
  description: [4, 'string'],
  default: [5, 'any'],
  multipleOf: [6, 'double'],
  maximum: [7, 'double'],
  exclusiveMaximum: [8, 'bool'],
  minimum: [9, 'double'],
  exclusiveMinimum: [10, 'bool'],
  maxLength: [11, 'int64'],
  minLength: [12, 'int64'],
  pattern: [13, 'string'],
  maxItems: [14, 'int64'],
  minItems: [15, 'int64'],
  uniqueItems: [16, 'bool'],
  maxProperties: [17, 'int64'],
  minProperties: [18, 'int64'],
  required: [19, 'strings'],
  enum: [20, 'anys'],
  additionalProperties: [21, { message: additionalProperties }],
  type: [22, { message: (w, v) => writeField(w, 1, 'strings', v) }],
  items: [23, { message: (w, v) => writeField(w, 1, { messages: schema }, v) }],
  allOf: [24, { messages: schema }],
  properties: [25, { message: namedMap(1, schema, () => true) }],
  discriminator: [26, 'string'],
  readOnly: [27, 'bool'],
  xml: [28, { message: xml }],
  externalDocs: [29, { message: externalDocs }],
  example: [30, 'any'],
}), 31);

/** AdditionalPropertiesItem: a schema (1) or a boolean (2). */
function additionalProperties(w: ProtobufWriter, v: JsonValue): void {
  if (typeof v === 'boolean') w.bool(2, v);
  else w.message(1, (m) => schema(m, v));
}

const primitivesItems: Encoder = message(() => ({
  type: [1, 'string'], format: [2, 'string'], items: [3, { message: primitivesItems }], collectionFormat: [4, 'string'], default: [5, 'any'],
  maximum: [6, 'double'], exclusiveMaximum: [7, 'bool'], minimum: [8, 'double'], exclusiveMinimum: [9, 'bool'], maxLength: [10, 'int64'],
  minLength: [11, 'int64'], pattern: [12, 'string'], maxItems: [13, 'int64'], minItems: [14, 'int64'], uniqueItems: [15, 'bool'],
  enum: [16, 'anys'], multipleOf: [17, 'double'],
}), 18);

/** Header and path parameters share one layout; query and formData parameters share another (with allowEmptyValue). */
const headerOrPathParameter = message(() => ({
  required: [1, 'bool'], in: [2, 'string'], description: [3, 'string'], name: [4, 'string'], type: [5, 'string'], format: [6, 'string'],
  items: [7, { message: primitivesItems }], collectionFormat: [8, 'string'], default: [9, 'any'], maximum: [10, 'double'],
  exclusiveMaximum: [11, 'bool'], minimum: [12, 'double'], exclusiveMinimum: [13, 'bool'], maxLength: [14, 'int64'], minLength: [15, 'int64'],
  pattern: [16, 'string'], maxItems: [17, 'int64'], minItems: [18, 'int64'], uniqueItems: [19, 'bool'], enum: [20, 'anys'], multipleOf: [21, 'double'],
}), 22);
const queryOrFormParameter = message(() => ({
  required: [1, 'bool'], in: [2, 'string'], description: [3, 'string'], name: [4, 'string'], allowEmptyValue: [5, 'bool'], type: [6, 'string'],
  format: [7, 'string'], items: [8, { message: primitivesItems }], collectionFormat: [9, 'string'], default: [10, 'any'], maximum: [11, 'double'],
  exclusiveMaximum: [12, 'bool'], minimum: [13, 'double'], exclusiveMinimum: [14, 'bool'], maxLength: [15, 'int64'], minLength: [16, 'int64'],
  pattern: [17, 'string'], maxItems: [18, 'int64'], minItems: [19, 'int64'], uniqueItems: [20, 'bool'], enum: [21, 'anys'], multipleOf: [22, 'double'],
}), 23);
const bodyParameter = message(() => ({ description: [1, 'string'], name: [2, 'string'], in: [3, 'string'], required: [4, 'bool'], schema: [5, { message: schema }] }), 6);

const NON_BODY_FIELDS: Readonly<Record<string, readonly [number, Encoder]>> = {
  header: [1, headerOrPathParameter],
  formData: [2, queryOrFormParameter],
  query: [3, queryOrFormParameter],
  path: [4, headerOrPathParameter],
};

/** Parameter: body_parameter (1) or non_body_parameter (2), which holds one of four sub-schemas chosen by `in`. */
const parameter: Encoder = (w, v) => {
  if (!isObject(v)) return;
  if (v.in === 'body') {
    w.message(1, (m) => bodyParameter(m, v));
    return;
  }
  const sub = NON_BODY_FIELDS[typeof v.in === 'string' ? v.in : ''];
  if (!sub) return;
  w.message(2, (m) => m.message(sub[0], (s) => sub[1](s, v)));
};

const jsonReference = message(() => ({ $ref: [1, 'string'], description: [2, 'string'] }));

/** ParametersItem: a parameter (1) or a JSON reference (2). */
const parametersItem: Encoder = (w, v) => {
  if (isObject(v) && typeof v.$ref === 'string') w.message(2, (m) => jsonReference(m, v));
  else w.message(1, (m) => parameter(m, v));
};

const header = message(() => ({
  type: [1, 'string'], format: [2, 'string'], items: [3, { message: primitivesItems }], collectionFormat: [4, 'string'], default: [5, 'any'],
  maximum: [6, 'double'], exclusiveMaximum: [7, 'bool'], minimum: [8, 'double'], exclusiveMinimum: [9, 'bool'], maxLength: [10, 'int64'],
  minLength: [11, 'int64'], pattern: [12, 'string'], maxItems: [13, 'int64'], minItems: [14, 'int64'], uniqueItems: [15, 'bool'],
  enum: [16, 'anys'], multipleOf: [17, 'double'], description: [18, 'string'],
}), 19);

const response = message(() => ({
  description: [1, 'string'],
  // SchemaItem: a schema (1); gnostic's file_schema (2) is for `type: file`, which the API never answers with.
  schema: [2, { message: (w, v) => w.message(1, (m) => schema(m, v)) }],
  headers: [3, { message: namedMap(1, header) }],
  examples: [4, { message: namedMap(1, writeAny, () => true) }],
}), 5);

/** ResponseValue: a response (1) or a JSON reference (2). */
const responseValue: Encoder = (w, v) => {
  if (isObject(v) && typeof v.$ref === 'string') w.message(2, (m) => jsonReference(m, v));
  else w.message(1, (m) => response(m, v));
};

const responses: Encoder = (w, v) => {
  if (!isObject(v)) return;
  namedMap(1, responseValue)(w, v);
  writeVendorExtensions(w, 2, v);
};

/** SecurityRequirement: `{name: [scopes]}` as NamedStringArray entries. */
const securityRequirement = namedMap(1, (w, v) => writeField(w, 1, 'strings', v), () => true);

const operation = message(() => ({
  tags: [1, 'strings'],
  summary: [2, 'string'],
  description: [3, 'string'],
  externalDocs: [4, { message: externalDocs }],
  operationId: [5, 'string'],
  produces: [6, 'strings'],
  consumes: [7, 'strings'],
  parameters: [8, { messages: parametersItem }],
  responses: [9, { message: responses }],
  schemes: [10, 'strings'],
  deprecated: [11, 'bool'],
  security: [12, { messages: securityRequirement }],
}), 13);

const pathItem = message(() => ({
  $ref: [1, 'string'],
  get: [2, { message: operation }],
  put: [3, { message: operation }],
  post: [4, { message: operation }],
  delete: [5, { message: operation }],
  options: [6, { message: operation }],
  head: [7, { message: operation }],
  patch: [8, { message: operation }],
  parameters: [9, { messages: parametersItem }],
}), 10);

const paths: Encoder = (w, v) => {
  if (!isObject(v)) return;
  writeVendorExtensions(w, 1, v);
  namedMap(2, pathItem)(w, v);
};

const SECURITY_SCHEME_FIELDS: Readonly<Record<string, number>> = { basic: 1, apiKey: 2 };
const apiKeySecurity = message(() => ({ type: [1, 'string'], name: [2, 'string'], in: [3, 'string'], description: [4, 'string'] }), 5);
const basicSecurity = message(() => ({ type: [1, 'string'], description: [2, 'string'] }), 3);

/** SecurityDefinitionsItem: one of the scheme messages, chosen by `type`. OAuth2 schemes are not used by the API and are left out. */
const securityDefinitionsItem: Encoder = (w, v) => {
  if (!isObject(v) || typeof v.type !== 'string') return;
  const field = SECURITY_SCHEME_FIELDS[v.type];
  if (field === 1) w.message(1, (m) => basicSecurity(m, v));
  else if (field === 2) w.message(2, (m) => apiKeySecurity(m, v));
};

const contact = message(() => ({ name: [1, 'string'], url: [2, 'string'], email: [3, 'string'] }), 4);
const license = message(() => ({ name: [1, 'string'], url: [2, 'string'] }), 3);
const info = message(() => ({
  title: [1, 'string'], version: [2, 'string'], description: [3, 'string'], termsOfService: [4, 'string'],
  contact: [5, { message: contact }], license: [6, { message: license }],
}), 7);
const tag = message(() => ({ name: [1, 'string'], description: [2, 'string'], externalDocs: [3, { message: externalDocs }] }), 4);

const document = message(() => ({
  swagger: [1, 'string'],
  info: [2, { message: info }],
  host: [3, 'string'],
  basePath: [4, 'string'],
  schemes: [5, 'strings'],
  consumes: [6, 'strings'],
  produces: [7, 'strings'],
  paths: [8, { message: paths }],
  definitions: [9, { message: namedMap(1, schema, () => true) }],
  parameters: [10, { message: namedMap(1, parameter, () => true) }],
  responses: [11, { message: namedMap(1, response, () => true) }],
  security: [12, { messages: securityRequirement }],
  securityDefinitions: [13, { message: namedMap(1, securityDefinitionsItem, () => true) }],
  tags: [14, { messages: tag }],
  externalDocs: [15, { message: externalDocs }],
}), 16);

/** Encodes a Swagger 2.0 document (as JSON values) as an `openapi.v2.Document` message. */
export function encodeSwaggerProtobuf(doc: JsonObject): Buffer {
  const w = new ProtobufWriter();
  document(w, doc);
  return w.finish();
}
