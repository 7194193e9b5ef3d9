/**
 * The schema DSL to OpenAPI schemas, shared by the v2 and v3 builders. Named structs become
 * definitions referenced by `$ref`; the merge markers (list type, map keys, map type, patch
 * strategy) become the domain's vendor extensions; Time, IntOrString, Quantity and named raw types
 * become the definitions Kubernetes publishes for them. Definitions are collected as they are
 * referenced, so a document holds exactly the types its operations reach.
 */
import type { ApiNames } from '../../machinery/api-names.js';
import { resolveSchema, type FieldSpec, type Schema, type StructSchema } from '../../schema/index.js';
import type { GroupVersionKind } from './api-model.js';
import { definitionName, extensionKeys, type ExtensionKeys } from './names.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export type OpenApiVersion = 2 | 3;

/** Descriptions of the named scalar types, and their schemas in each OpenAPI version. */
const NAMED_SCALARS: Readonly<Record<string, { description: string; v2: JsonObject; v3: JsonObject }>> = {
  'meta.v1.Time': {
    description: 'A point in time, as RFC 3339 text in UTC to the second.',
    v2: { type: 'string', format: 'date-time' },
    v3: { type: 'string', format: 'date-time' },
  },
  'meta.v1.MicroTime': {
    description: 'A point in time to the microsecond, as RFC 3339 text in UTC.',
    v2: { type: 'string', format: 'date-time' },
    v3: { type: 'string', format: 'date-time' },
  },
  'intstr.IntOrString': {
    description: 'A value that is either a 32-bit integer or a string, such as a port number or name.',
    v2: { type: 'string', format: 'int-or-string' },
    v3: { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] },
  },
  'resource.Quantity': {
    description: "A fixed-point amount such as 100m, 1.5Gi or 2e3: a number with an optional SI (k, M, G...), binary (Ki, Mi, Gi...) or decimal-exponent suffix. It is always serialized as a string.",
    v2: { type: 'string' },
    v3: { oneOf: [{ type: 'string' }, { type: 'number' }] },
  },
};

const RAW_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'meta.v1.FieldsV1': 'The set of fields a manager owns, as a trie in JSON: keys name fields (f:), map keys (k:), list values (v:) and list items (i:).',
  'runtime.RawExtension': 'An embedded object of any kind, kept as sent.',
};

export class SchemaConverter {
  readonly ext: ExtensionKeys;
  private readonly definitions = new Map<string, JsonObject>();
  private readonly gvks = new Map<string, GroupVersionKind[]>();

  constructor(
    private readonly names: ApiNames,
    readonly version: OpenApiVersion,
  ) {
    this.ext = extensionKeys(names);
  }

  refTo(defName: string): string {
    return this.version === 2 ? `#/definitions/${defName}` : `#/components/schemas/${defName}`;
  }

  /** Adds a struct (and every type it reaches) to the definitions; returns its definition name. */
  define(s: StructSchema): string {
    const name = definitionName(this.names, s.name);
    if (this.definitions.has(name)) return name;
    const def: JsonObject = {};
    // Registered before the fields are walked, so recursive types end.
    this.definitions.set(name, def);
    if (s.description) def.description = s.description;
    const properties: JsonObject = {};
    const required: string[] = [];
    for (const [field, spec] of Object.entries(s.fields)) {
      properties[field] = this.fieldSchema(spec);
      if (spec.required) required.push(field);
    }
    if (Object.keys(properties).length) def.properties = sortKeys(properties);
    if (required.length) def.required = required;
    def.type = 'object';
    if (s.structType) def[this.ext.mapType] = s.structType;
    if (s.preserveUnknownFields) def[this.ext.preserveUnknownFields] = true;
    return name;
  }

  /** A `$ref` to a struct's definition, defining it on the way. */
  ref(s: StructSchema): JsonObject {
    return { $ref: this.refTo(this.define(s)) };
  }

  /** Marks a definition as the schema of a kind (`x-kubernetes-group-version-kind`). */
  addGroupVersionKind(s: StructSchema, gvk: GroupVersionKind): void {
    const name = this.define(s);
    const list = this.gvks.get(name) ?? [];
    if (!list.some((g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind)) list.push(gvk);
    this.gvks.set(name, list);
  }

  /** Every definition collected, sorted by name, with their group-version-kind extensions. */
  result(): JsonObject {
    const out: JsonObject = {};
    for (const name of [...this.definitions.keys()].sort()) {
      const def = { ...(this.definitions.get(name) as JsonObject) };
      const gvks = this.gvks.get(name);
      if (gvks) def[this.ext.groupVersionKind] = gvks.map((g) => ({ group: g.group, kind: g.kind, version: g.version }));
      out[name] = def;
    }
    return out;
  }

  private namedScalar(name: string): JsonObject {
    const defName = definitionName(this.names, name);
    if (!this.definitions.has(defName)) {
      const known = NAMED_SCALARS[name];
      if (known) {
        this.definitions.set(defName, { description: known.description, ...(this.version === 2 ? known.v2 : known.v3) });
      } else {
        const description = RAW_DESCRIPTIONS[name];
        this.definitions.set(defName, { ...(description ? { description } : {}), type: 'object' });
      }
    }
    return { $ref: this.refTo(defName) };
  }

  /** The schema of a type where it is used: inline for scalars, maps and lists, a `$ref` for named types. */
  schema(s: Schema): JsonObject {
    const r = resolveSchema(s);
    switch (r.type) {
      case 'string':
        return r.enum ? { type: 'string', enum: [...r.enum] } : { type: 'string' };
      case 'integer':
        return { type: 'integer', format: r.format };
      case 'number':
        return { type: 'number', format: 'double' };
      case 'boolean':
        return { type: 'boolean' };
      case 'bytes':
        return { type: 'string', format: 'byte' };
      case 'time':
        return this.namedScalar(r.precision === 'micro' ? 'meta.v1.MicroTime' : 'meta.v1.Time');
      case 'int-or-string':
        return this.namedScalar('intstr.IntOrString');
      case 'quantity':
        return this.namedScalar('resource.Quantity');
      case 'raw':
        if (r.openapi) return structuredClone(r.openapi) as JsonObject;
        return r.name ? this.namedScalar(r.name) : { type: 'object' };
      case 'map': {
        const out: JsonObject = { type: 'object', additionalProperties: this.element(r.values) };
        if (r.mapType) out[this.ext.mapType] = r.mapType;
        return out;
      }
      case 'list': {
        const out: JsonObject = { type: 'array', items: this.element(r.items) };
        if (r.listMapKeys?.length) out[this.ext.listMapKeys] = [...r.listMapKeys];
        if (r.listType) out[this.ext.listType] = r.listType;
        if (r.patchMergeKey) out[this.ext.patchMergeKey] = r.patchMergeKey;
        if (r.patchStrategy) out[this.ext.patchStrategy] = r.patchStrategy;
        return out;
      }
      case 'object':
        return this.ref(r);
    }
  }

  /** Items of a list and values of a map: Go values, so v3 gives them their zero value as default, as Kubernetes does. */
  private element(s: Schema): JsonObject {
    const inner = this.schema(s);
    if (this.version === 2) return inner;
    const zero = zeroValue(s);
    if (zero === undefined) return inner;
    return inner.$ref !== undefined ? { allOf: [inner], default: zero } : { ...inner, default: zero };
  }

  /** A struct field: its type plus description, default (v3) and a non-list patch strategy. */
  fieldSchema(spec: FieldSpec): JsonObject {
    const inner = this.schema(spec.schema);
    const extra: JsonObject = {};
    const zero = this.version === 3 ? fieldDefault(spec) : undefined;
    if (zero !== undefined) extra.default = zero;
    if (spec.description) extra.description = spec.description;
    if (spec.patchStrategy) extra[this.ext.patchStrategy] = spec.patchStrategy;
    if (spec.structType) extra[this.ext.mapType] = spec.structType;
    if (Object.keys(extra).length === 0) return inner;
    if (inner.$ref === undefined) return { ...inner, ...extra };
    // A reference cannot carry siblings in OpenAPI 3.0; Kubernetes wraps it in allOf there, and puts them beside $ref in v2.
    return this.version === 2 ? { ...inner, ...extra } : { allOf: [inner], ...extra };
  }
}

/** The zero value Go gives a value of this type, when OpenAPI shows it (structs and scalars). */
function zeroValue(s: Schema): JsonValue | undefined {
  const r = resolveSchema(s);
  switch (r.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'object':
      return {};
    default:
      return undefined;
  }
}

/**
 * The default v3 shows for a field: the one the kind declares (`protocol: TCP`), else the zero value
 * of a field decoding always fills in (a Go value field).
 */
function fieldDefault(spec: FieldSpec): JsonValue | undefined {
  if (spec.default !== undefined) return spec.default as JsonValue;
  const r = resolveSchema(spec.schema);
  if (spec.presence === 'pointer') return undefined;
  if (r.type === 'object') return {};
  return spec.presence === 'always' ? zeroValue(r) : undefined;
}

export function sortKeys(o: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k] as JsonValue;
  return out;
}
