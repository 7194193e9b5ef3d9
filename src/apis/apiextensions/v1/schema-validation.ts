/**
 * The rules a CRD's OpenAPI schema must follow to be served (Kubernetes' structural schemas), with
 * Kubernetes' messages: every field names its type, arrays their items, no JSON-Schema features
 * the server cannot honour ($ref, definitions, patternProperties...), and the vendor extensions
 * used where they mean something. Pure; never throws.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import type { JSONSchemaProps, SchemaExtensionKeys } from './types.js';

const OPENAPI_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const LIST_TYPES = ['atomic', 'set', 'map'];
const MAP_TYPES = ['atomic', 'granular'];

type Position = 'root' | 'property' | 'items' | 'additionalProperties' | 'logic';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `items` as one schema, or undefined (an array of schemas is reported separately). */
export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return isRecord(s.items) ? (s.items as JSONSchemaProps) : undefined;
}

/** `additionalProperties` as a schema, `true`/`false`, or undefined when absent. */
export function additionalPropertiesOf(s: JSONSchemaProps): JSONSchemaProps | boolean | undefined {
  const a = s.additionalProperties;
  if (typeof a === 'boolean') return a;
  return isRecord(a) ? (a as JSONSchemaProps) : undefined;
}

export function validateStructuralSchema(root: JSONSchemaProps, path: FieldPath, x: SchemaExtensionKeys): FieldError[] {
  const errs: FieldError[] = [];
  walk(root, path, 'root', x, errs);
  if (root.type !== undefined && root.type !== '' && root.type !== 'object') errs.push(fieldErr.invalid(path.child('type'), root.type, 'must be object at the root'));
  const props = root.properties ?? {};
  const meta = props.metadata;
  if (meta) {
    const mp = path.child('properties').key('metadata');
    if (meta.type !== undefined && meta.type !== 'object') errs.push(fieldErr.invalid(mp.child('type'), meta.type, 'must be object'));
    const extra = Object.keys(meta).filter((k) => k !== 'type' && k !== 'properties' && k !== 'description');
    const names = Object.keys(meta.properties ?? {});
    if (extra.length || names.some((n) => n !== 'name' && n !== 'generateName')) {
      errs.push(fieldErr.forbidden(mp, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  for (const key of ['apiVersion', 'kind']) {
    const p = props[key];
    if (p && p.type !== 'string') errs.push(fieldErr.invalid(path.child('properties').key(key).child('type'), p.type ?? '', 'must be string'));
  }
  return errs;
}

function walk(s: JSONSchemaProps, path: FieldPath, at: Position, x: SchemaExtensionKeys, errs: FieldError[]): void {
  const preserve = s[x.preserveUnknownFields];
  const intOrString = s[x.intOrString] === true;
  const embedded = s[x.embeddedResource] === true;
  forbiddenFeatures(s, path, errs);
  if (s.type === 'null') errs.push(fieldErr.forbidden(path.child('type'), 'type cannot be set to null, use nullable as an alternative'));
  else if (s.type !== undefined && s.type !== '' && !OPENAPI_TYPES.includes(s.type)) errs.push(fieldErr.notSupported(path.child('type'), s.type, OPENAPI_TYPES));
  if (at !== 'logic' && !s.type && !intOrString && preserve !== true) {
    const where = at === 'root' ? 'at the root' : at === 'items' ? 'for specified array items' : at === 'additionalProperties' ? 'for specified additionalProperties' : 'for specified object fields';
    errs.push(fieldErr.required(path.child('type'), `must not be empty ${where}`));
  }
  if (preserve === false) errs.push(fieldErr.invalid(path.child(x.preserveUnknownFields), false, 'must be true or undefined'));
  if (preserve === true && s.type && s.type !== 'object') errs.push(fieldErr.invalid(path.child('type'), s.type, `must be object if ${x.preserveUnknownFields} is true`));
  if (intOrString && s.type) errs.push(fieldErr.invalid(path.child('type'), s.type, `must be empty if ${x.intOrString} is true`));
  if (embedded) {
    if (s.type !== 'object') errs.push(fieldErr.invalid(path.child('type'), s.type ?? '', `must be object if ${x.embeddedResource} is true`));
    if (preserve !== true && Object.keys(s.properties ?? {}).length === 0) {
      errs.push(fieldErr.required(path.child('properties'), `must not be empty if ${x.embeddedResource} is true without ${x.preserveUnknownFields}`));
    }
  }
  if (s.uniqueItems === true) errs.push(fieldErr.forbidden(path.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (Array.isArray(s.items)) errs.push(fieldErr.forbidden(path.child('items'), 'items must be a schema object and not an array'));
  else if (s.items !== undefined && !isRecord(s.items)) errs.push(fieldErr.invalid(path.child('items'), s.items, 'must be a schema object'));
  if (s.type === 'array' && s.items === undefined && at !== 'logic') errs.push(fieldErr.required(path.child('items'), 'must be specified'));
  const additional = additionalPropertiesOf(s);
  if (s.additionalProperties !== undefined && additional === undefined) errs.push(fieldErr.invalid(path.child('additionalProperties'), s.additionalProperties, 'must be a schema object or a boolean'));
  if (additional !== undefined && Object.keys(s.properties ?? {}).length > 0 && (additional === false || typeof additional === 'object')) {
    errs.push(fieldErr.forbidden(path.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
  }
  markers(s, path, x, errs);
  validations(s, path, x, errs);
  for (const [name, p] of Object.entries(s.properties ?? {})) walk(p, path.child('properties').key(name), 'property', x, errs);
  const items = itemsSchema(s);
  if (items) walk(items, path.child('items'), 'items', x, errs);
  if (typeof additional === 'object') walk(additional, path.child('additionalProperties'), 'additionalProperties', x, errs);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) (s[key] ?? []).forEach((sub, i) => walkLogic(sub, path.child(key).index(i), x, errs));
  if (s.not) walkLogic(s.not, path.child('not'), x, errs);
}

/** Inside allOf, anyOf, oneOf and not only value checks may stand: no types, defaults or markers. */
function walkLogic(s: JSONSchemaProps, path: FieldPath, x: SchemaExtensionKeys, errs: FieldError[]): void {
  for (const key of ['type', 'default', 'nullable', 'description', 'title', x.preserveUnknownFields, x.embeddedResource, x.intOrString, x.listType, x.listMapKeys, x.mapType]) {
    // x-kubernetes-int-or-string's own anyOf pattern (integer or string) is the one exception.
    if (key === 'type' && (s.type === 'integer' || s.type === 'string') && Object.keys(s).length === 1) continue;
    if (s[key] !== undefined && s[key] !== false && s[key] !== '') errs.push(fieldErr.forbidden(path.child(key), 'must be empty to be structural'));
  }
  forbiddenFeatures(s, path, errs);
  for (const [name, p] of Object.entries(s.properties ?? {})) walkLogic(p, path.child('properties').key(name), x, errs);
  const items = itemsSchema(s);
  if (items) walkLogic(items, path.child('items'), x, errs);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) (s[key] ?? []).forEach((sub, i) => walkLogic(sub, path.child(key).index(i), x, errs));
  if (s.not) walkLogic(s.not, path.child('not'), x, errs);
}

function forbiddenFeatures(s: JSONSchemaProps, path: FieldPath, errs: FieldError[]): void {
  if (s.id) errs.push(fieldErr.forbidden(path.child('id'), 'id is not supported'));
  if (s.$schema) errs.push(fieldErr.forbidden(path.child('$schema'), '$schema is not supported'));
  if (s.$ref !== undefined) errs.push(fieldErr.forbidden(path.child('$ref'), '$ref is not supported'));
  if (s.additionalItems !== undefined) errs.push(fieldErr.forbidden(path.child('additionalItems'), 'additionalItems is not supported'));
  if (isRecord(s.patternProperties) && Object.keys(s.patternProperties).length) errs.push(fieldErr.forbidden(path.child('patternProperties'), 'patternProperties is not supported'));
  if (isRecord(s.definitions) && Object.keys(s.definitions).length) errs.push(fieldErr.forbidden(path.child('definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined) errs.push(fieldErr.forbidden(path.child('dependencies'), 'dependencies is not supported'));
  if (typeof s.pattern === 'string') {
    try {
      new RegExp(s.pattern, 'u');
    } catch (e) {
      errs.push(fieldErr.invalid(path.child('pattern'), s.pattern, `must be a valid regular expression, but isn't: ${(e as Error).message}`));
    }
  }
}

function markers(s: JSONSchemaProps, path: FieldPath, x: SchemaExtensionKeys, errs: FieldError[]): void {
  const listType = s[x.listType] as string | undefined;
  const keys = s[x.listMapKeys] as string[] | undefined;
  const mapType = s[x.mapType] as string | undefined;
  const items = itemsSchema(s);
  if (listType !== undefined) {
    if (s.type !== 'array') errs.push(fieldErr.invalid(path.child('type'), s.type ?? '', `must be array if ${x.listType} is specified`));
    if (!LIST_TYPES.includes(listType)) errs.push(fieldErr.notSupported(path.child(x.listType), listType, LIST_TYPES));
  }
  if (listType === 'map') {
    if (!keys?.length) errs.push(fieldErr.required(path.child(x.listMapKeys), `must not be empty if ${x.listType} is map`));
    if (items && items.type !== 'object') errs.push(fieldErr.invalid(path.child('items').child('type'), items.type ?? '', `must be object if parent array's ${x.listType} is map`));
    for (const [i, key] of (keys ?? []).entries()) {
      const field = items?.properties?.[key];
      if (items && items[x.preserveUnknownFields] !== true && !field) {
        errs.push(fieldErr.invalid(path.child(x.listMapKeys).index(i), key, 'entries must all be names of item properties'));
      } else if (field && field.type !== undefined && !['string', 'integer', 'number', 'boolean'].includes(field.type)) {
        errs.push(fieldErr.invalid(path.child('items').child('properties').key(key).child('type'), field.type, `must be a scalar type if parent array's ${x.listType} is map`));
      }
    }
  } else if (keys?.length) {
    errs.push(fieldErr.invalid(path.child(x.listType), listType ?? '', `must be map if ${x.listMapKeys} is non-empty`));
  }
  if (listType === 'set' && items && (items.type === 'object' || items.type === 'array')) {
    errs.push(fieldErr.invalid(path.child('items').child('type'), items.type, `must be a scalar type if parent array's ${x.listType} is set`));
  }
  if (mapType !== undefined) {
    if (s.type !== 'object') errs.push(fieldErr.invalid(path.child('type'), s.type ?? '', `must be object if ${x.mapType} is specified`));
    if (!MAP_TYPES.includes(mapType)) errs.push(fieldErr.notSupported(path.child(x.mapType), mapType, MAP_TYPES));
  }
}

function validations(s: JSONSchemaProps, path: FieldPath, x: SchemaExtensionKeys, errs: FieldError[]): void {
  const rules = s[x.validations] as { rule?: string }[] | undefined;
  (rules ?? []).forEach((r, i) => {
    if (!r.rule?.trim()) errs.push(fieldErr.required(path.child(x.validations).index(i).child('rule'), ''));
  });
}
