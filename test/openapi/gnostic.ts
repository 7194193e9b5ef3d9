/**
 * Test helper: decodes an `openapi.v2.Document` protobuf with protobufjs (from our own .proto of
 * gnostic's field numbers) and turns it back into Swagger JSON, the way a Go client would read it
 * (`Any` values parsed as YAML). Independent of the server's encoder, so comparing its output with
 * the served JSON checks the encoding.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { parse as parseYaml } from 'yaml';

const protoText = readFileSync(fileURLToPath(new URL('./gnostic-openapiv2.proto', import.meta.url)), 'utf8');
const root = protobuf.parse(protoText, { keepCase: true }).root;
const DocumentType = root.lookupType('openapi.v2.Document');

type Obj = Record<string, any>;

export function decodeGnosticDocument(buf: Uint8Array): Obj {
  const msg = DocumentType.decode(buf);
  return DocumentType.toObject(msg, { longs: Number, defaults: false, arrays: false, oneofs: false }) as Obj;
}

const camel = (k: string): string => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const anyValue = (a: Obj): unknown => parseYaml(a.yaml as string);

function vendor(list: Obj[] | undefined, out: Obj): void {
  for (const e of list ?? []) out[e.name] = anyValue(e.value);
}

function named<T>(list: Obj[] | undefined, f: (v: Obj) => T): Record<string, T> {
  const out: Record<string, T> = {};
  for (const e of list ?? []) out[e.name] = f(e.value ?? {});
  return out;
}

/** Scalar fields keep their value under the camelCase JSON name; `_ref` is `$ref`. */
function scalars(m: Obj, skip: readonly string[]): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(m)) {
    if (skip.includes(k) || k === 'vendor_extension') continue;
    out[k === '_ref' ? '$ref' : camel(k)] = v;
  }
  return out;
}

export function schemaToJson(s: Obj): Obj {
  const out = scalars(s, ['default', 'example', 'enum', 'additional_properties', 'type', 'items', 'all_of', 'properties']);
  if (s.default) out.default = anyValue(s.default);
  if (s.example) out.example = anyValue(s.example);
  if (s.enum) out.enum = (s.enum as Obj[]).map(anyValue);
  if (s.additional_properties) {
    const ap = s.additional_properties as Obj;
    out.additionalProperties = ap.schema ? schemaToJson(ap.schema) : ap.boolean ?? false;
  }
  if (s.type) out.type = s.type.value.length === 1 ? s.type.value[0] : s.type.value;
  if (s.items) out.items = s.items.schema.length === 1 ? schemaToJson(s.items.schema[0]) : s.items.schema.map(schemaToJson);
  if (s.all_of) out.allOf = (s.all_of as Obj[]).map(schemaToJson);
  if (s.properties) out.properties = named(s.properties.additional_properties, schemaToJson);
  vendor(s.vendor_extension, out);
  return out;
}

function parameterToJson(item: Obj): Obj {
  if (item.json_reference) return { $ref: item.json_reference._ref };
  const p = item.parameter as Obj;
  let body: Obj;
  if (p.body_parameter) {
    body = scalars(p.body_parameter, ['schema']);
    if (p.body_parameter.schema) body.schema = schemaToJson(p.body_parameter.schema);
    vendor(p.body_parameter.vendor_extension, body);
    return body;
  }
  const nb = p.non_body_parameter as Obj;
  const sub = (nb.query_parameter_sub_schema ?? nb.path_parameter_sub_schema ?? nb.header_parameter_sub_schema ?? nb.form_data_parameter_sub_schema) as Obj;
  body = scalars(sub, ['default', 'enum']);
  if (sub.default) body.default = anyValue(sub.default);
  if (sub.enum) body.enum = (sub.enum as Obj[]).map(anyValue);
  vendor(sub.vendor_extension, body);
  return body;
}

function operationToJson(o: Obj): Obj {
  const out = scalars(o, ['parameters', 'responses', 'security']);
  if (o.parameters) out.parameters = (o.parameters as Obj[]).map(parameterToJson);
  if (o.responses) {
    out.responses = named(o.responses.response_code, (v) => {
      if (v.json_reference) return { $ref: v.json_reference._ref };
      const r = scalars(v.response, ['schema']);
      if (v.response.schema?.schema) r.schema = schemaToJson(v.response.schema.schema);
      vendor(v.response.vendor_extension, r);
      return r;
    });
    vendor(o.responses.vendor_extension, out.responses);
  }
  vendor(o.vendor_extension, out);
  return out;
}

export function documentToJson(d: Obj): Obj {
  const out = scalars(d, ['info', 'paths', 'definitions', 'security', 'security_definitions', 'tags']);
  if (d.info) {
    out.info = scalars(d.info, []);
    vendor(d.info.vendor_extension, out.info);
  }
  if (d.paths) {
    out.paths = named(d.paths.path, (item) => {
      const p = scalars(item, ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'parameters']);
      for (const m of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch']) if (item[m]) p[m] = operationToJson(item[m]);
      if (item.parameters) p.parameters = (item.parameters as Obj[]).map(parameterToJson);
      vendor(item.vendor_extension, p);
      return p;
    });
    vendor(d.paths.vendor_extension, out.paths);
  }
  if (d.definitions) out.definitions = named(d.definitions.additional_properties, schemaToJson);
  if (d.security_definitions) {
    out.securityDefinitions = named(d.security_definitions.additional_properties, (v) => {
      const scheme = (v.api_key_security ?? v.basic_authentication_security) as Obj;
      const s = scalars(scheme, []);
      vendor(scheme.vendor_extension, s);
      return s;
    });
  }
  if (d.security) out.security = (d.security as Obj[]).map((r) => named(r.additional_properties, (v) => (v.value ?? []) as string[]));
  vendor(d.vendor_extension, out);
  return out;
}
