/**
 * A custom resource's schema DSL form, made from its version's structural OpenAPI schema, so that
 * the generic code (decoding with unknown-field pruning and fieldValidation, server-side apply's
 * list and map markers, OpenAPI) serves it as it serves a built-in kind:
 * - an object with properties is a struct (unknown fields pruned and reported), kept open with
 *   the preserve-unknown-fields marker; one with additionalProperties is a map;
 * - a list keeps its list-type and map keys (unset: atomic, as Kubernetes reads CRD lists);
 * - scalars are kept as sent (raw), so a value of the wrong type reaches validation and gets
 *   Kubernetes' 422 rather than a decoding error; int-or-string and embedded objects likewise.
 * Every field is a pointer field: absent stays absent, zero values stay.
 */
import { objectHeader, t, type FieldSpec, type Schema, type StructSchema } from '../../../../schema/index.js';
import { additionalPropertiesOf, itemsSchema } from '../schema-validation.js';
import type { JSONSchemaProps, SchemaExtensionKeys } from '../types.js';

export function customResourceStruct(name: string, root: JSONSchemaProps | undefined, x: SchemaExtensionKeys): StructSchema {
  const fields: Record<string, FieldSpec> = { ...objectHeader };
  const required = new Set(root?.required ?? []);
  for (const [key, prop] of Object.entries(root?.properties ?? {})) {
    if (key in objectHeader) continue;
    fields[key] = field(prop, `${name}.${key}`, x, required.has(key));
  }
  // No schema at all, or an open root: every other top-level field is kept.
  const open = !root || root[x.preserveUnknownFields] === true;
  return t.struct(name, fields, { preserveUnknownFields: open, ...(root?.description ? { description: root.description } : {}) });
}

/** A field; `required` is published in OpenAPI (validation.ts enforces it, with Kubernetes' message). */
function field(s: JSONSchemaProps, name: string, x: SchemaExtensionKeys, required: boolean): FieldSpec {
  return { schema: schemaOf(s, name, x), presence: 'pointer', required, ...(s.description ? { description: s.description } : {}), ...(s.default !== undefined ? { default: s.default } : {}) };
}

function schemaOf(s: JSONSchemaProps, name: string, x: SchemaExtensionKeys): Schema {
  const preserve = s[x.preserveUnknownFields] === true;
  if (s[x.intOrString] === true) return t.raw({ openapi: leaf(s, x) });
  switch (s.type) {
    case 'object': {
      const additional = additionalPropertiesOf(s);
      if (typeof additional === 'object') {
        const mapType = s[x.mapType] as 'atomic' | 'granular' | undefined;
        return t.map(schemaOf(additional, `${name}.value`, x), mapType ? { mapType } : {});
      }
      const props = Object.entries(s.properties ?? {});
      if (props.length === 0 && (preserve || additional === true || s[x.embeddedResource] === true)) return t.raw({ openapi: leaf(s, x) });
      if (props.length === 0) return t.struct(name, {}, structOpts(s, x, preserve));
      const fields: Record<string, FieldSpec> = {};
      const required = new Set(s.required ?? []);
      for (const [key, prop] of props) fields[key] = field(prop, `${name}.${key}`, x, required.has(key));
      return t.struct(name, fields, structOpts(s, x, preserve || s[x.embeddedResource] === true));
    }
    case 'array': {
      const items = itemsSchema(s);
      const listType = (s[x.listType] as 'atomic' | 'set' | 'map' | undefined) ?? 'atomic';
      const keys = s[x.listMapKeys] as string[] | undefined;
      return t.list(items ? schemaOf(items, `${name}.item`, x) : t.raw({ openapi: {} }), { listType, ...(listType === 'map' && keys ? { listMapKeys: keys } : {}) });
    }
    default:
      // Scalars, and a typeless open value: validation checks the JSON type.
      return t.raw({ openapi: leaf(s, x) });
  }
}

/** What OpenAPI publishes for a value kept as sent: its own schema, without what is only the server's business. */
function leaf(s: JSONSchemaProps, x: SchemaExtensionKeys): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === x.validations || k === 'description') continue;
    out[k] = v;
  }
  if (s[x.intOrString] === true && !out.anyOf) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  return out;
}

function structOpts(s: JSONSchemaProps, x: SchemaExtensionKeys, preserve: boolean): { structType?: 'atomic' | 'granular'; preserveUnknownFields?: boolean; description?: string } {
  const mapType = s[x.mapType] as 'atomic' | 'granular' | undefined;
  // The description stays on the field that holds the struct, so explain prints it once.
  return { ...(mapType ? { structType: mapType } : {}), ...(preserve ? { preserveUnknownFields: true } : {}) };
}
