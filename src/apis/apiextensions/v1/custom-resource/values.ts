/**
 * A custom object's values checked against its version's structural schema, with the messages
 * Kubernetes prints (`spec.replicas in body must be of type integer: "string"`), and the schema's
 * defaults filled in. Pure: validation never throws; defaulting mutates only the object given.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../../machinery/field-errors.js';
import { additionalPropertiesOf, itemsSchema } from '../schema-validation.js';
import type { JSONSchemaProps, SchemaExtensionKeys } from '../types.js';
import { checkFormat } from './formats.js';

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeMatches(type: string, v: unknown): boolean {
  const actual = jsonType(v);
  if (type === 'number') return actual === 'number' || actual === 'integer';
  return actual === type;
}

/** Validates `obj`'s fields (all but apiVersion, kind and metadata) against `root`. */
export function validateCustomObject(obj: Record<string, unknown>, root: JSONSchemaProps | undefined, x: SchemaExtensionKeys): FieldError[] {
  if (!root) return [];
  const errs: FieldError[] = [];
  const rootNoMeta: JSONSchemaProps = { ...root, properties: { ...(root.properties ?? {}) } };
  for (const k of ['apiVersion', 'kind', 'metadata']) delete (rootNoMeta.properties as Record<string, JSONSchemaProps>)[k];
  const body: Record<string, unknown> = { ...obj };
  delete body.apiVersion;
  delete body.kind;
  delete body.metadata;
  rootNoMeta.required = (root.required ?? []).filter((r) => r !== 'apiVersion' && r !== 'kind' && r !== 'metadata');
  check(body, rootNoMeta, FieldPath.root(), x, errs);
  return errs;
}

function check(v: unknown, s: JSONSchemaProps, path: FieldPath, x: SchemaExtensionKeys, errs: FieldError[]): void {
  const name = String(path) || '<root>';
  if (v === null) {
    if (s.nullable) return;
    if (s.type) errs.push(fieldErr.typeInvalid(path, 'null', `${name} in body must be of type ${s.type}: "null"`));
    return;
  }
  if (s[x.intOrString] === true) {
    if (jsonType(v) !== 'integer' && jsonType(v) !== 'string') errs.push(fieldErr.typeInvalid(path, v, `${name} in body must be of type integer,string: "${jsonType(v)}"`));
  } else if (s.type && !typeMatches(s.type, v)) {
    errs.push(fieldErr.typeInvalid(path, v, `${name} in body must be of type ${s.type}: "${jsonType(v)}"`));
    return;
  }
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    errs.push(fieldErr.notSupported(path, v, s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))));
  }
  if (typeof v === 'number') numberRules(v, s, path, name, errs);
  if (typeof v === 'string') stringRules(v, s, path, name, errs);
  if (Array.isArray(v)) {
    if (s.maxItems !== undefined && v.length > s.maxItems) errs.push(fieldErr.tooMany(path, v.length, s.maxItems));
    if (s.minItems !== undefined && v.length < s.minItems) errs.push(fieldErr.invalid(path, v.length, `${name} in body should have at least ${s.minItems} items`));
    const items = itemsSchema(s);
    if (items) v.forEach((item, i) => check(item, items, path.index(i), x, errs));
    listUniqueness(v, s, path, x, errs);
  }
  if (isRecord(v)) {
    const n = Object.keys(v).length;
    if (s.maxProperties !== undefined && n > s.maxProperties) errs.push(fieldErr.tooMany(path, n, s.maxProperties));
    if (s.minProperties !== undefined && n < s.minProperties) errs.push(fieldErr.invalid(path, n, `${name} in body should have at least ${s.minProperties} properties`));
    for (const req of s.required ?? []) if (!(req in v) || v[req] === undefined) errs.push(fieldErr.required(path.child(req), ''));
    const additional = additionalPropertiesOf(s);
    for (const [k, value] of Object.entries(v)) {
      const prop = s.properties?.[k];
      if (prop) check(value, prop, path.child(k), x, errs);
      else if (typeof additional === 'object') check(value, additional, path.child(k), x, errs);
    }
  }
  logic(v, s, path, name, x, errs);
}

function numberRules(v: number, s: JSONSchemaProps, path: FieldPath, name: string, errs: FieldError[]): void {
  if (s.maximum !== undefined) {
    if (s.exclusiveMaximum ? v >= s.maximum : v > s.maximum) errs.push(fieldErr.invalid(path, v, `${name} in body should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${s.maximum}`));
  }
  if (s.minimum !== undefined) {
    if (s.exclusiveMinimum ? v <= s.minimum : v < s.minimum) errs.push(fieldErr.invalid(path, v, `${name} in body should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${s.minimum}`));
  }
  if (s.multipleOf !== undefined && s.multipleOf > 0 && Math.abs(v / s.multipleOf - Math.round(v / s.multipleOf)) > 1e-9) {
    errs.push(fieldErr.invalid(path, v, `${name} in body should be a multiple of ${s.multipleOf}`));
  }
}

function stringRules(v: string, s: JSONSchemaProps, path: FieldPath, name: string, errs: FieldError[]): void {
  const length = [...v].length;
  if (s.maxLength !== undefined && length > s.maxLength) errs.push({ type: 'FieldValueTooLong', field: String(path), value: v, detail: `may not be longer than ${s.maxLength}` });
  if (s.minLength !== undefined && length < s.minLength) errs.push(fieldErr.invalid(path, v, `${name} in body should be at least ${s.minLength} chars long`));
  if (s.pattern !== undefined) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(s.pattern, 'u');
    } catch {
      re = undefined;
    }
    if (re && !re.test(v)) errs.push(fieldErr.invalid(path, v, `${name} in body should match '${s.pattern}'`));
  }
  if (s.format && !checkFormat(s.format, v)) errs.push(fieldErr.invalid(path, v, `${name} in body must be of type ${s.format}: ${JSON.stringify(v)}`));
}

/** set lists hold each value once, map lists each key combination once. */
function listUniqueness(v: unknown[], s: JSONSchemaProps, path: FieldPath, x: SchemaExtensionKeys, errs: FieldError[]): void {
  const listType = s[x.listType];
  if (listType !== 'set' && listType !== 'map') return;
  const keys = s[x.listMapKeys] as string[] | undefined;
  const seen = new Set<string>();
  v.forEach((item, i) => {
    const id = listType === 'set' ? JSON.stringify(item) : JSON.stringify((keys ?? []).map((k) => (isRecord(item) ? item[k] : undefined) ?? null));
    if (seen.has(id)) errs.push(fieldErr.duplicate(path.index(i), item));
    seen.add(id);
  });
}

function logic(v: unknown, s: JSONSchemaProps, path: FieldPath, name: string, x: SchemaExtensionKeys, errs: FieldError[]): void {
  const passes = (sub: JSONSchemaProps): boolean => {
    const e: FieldError[] = [];
    check(v, sub, path, x, e);
    return e.length === 0;
  };
  if (s.allOf?.length && !s.allOf.every(passes)) errs.push(fieldErr.invalid(path, v, `${name} in body must validate all the schemas (allOf)`));
  // x-kubernetes-int-or-string's own anyOf (integer or string) is already checked above.
  if (s.anyOf?.length && s[x.intOrString] !== true && !s.anyOf.some(passes)) errs.push(fieldErr.invalid(path, v, `${name} in body must validate at least one schema (anyOf)`));
  if (s.oneOf?.length && s.oneOf.filter(passes).length !== 1) errs.push(fieldErr.invalid(path, v, `${name} in body must validate one and only one schema (oneOf)`));
  if (s.not && passes(s.not)) errs.push(fieldErr.invalid(path, v, `${name} in body should not validate the schema provided`));
}

/**
 * Fills the schema's defaults into absent fields and drops nulls the schema does not allow, as
 * Kubernetes does before validation (and on read). Mutates `obj`.
 */
export function applyDefaults(obj: Record<string, unknown>, root: JSONSchemaProps | undefined): void {
  if (!root) return;
  fill(obj, root);
}

function fill(v: unknown, s: JSONSchemaProps): void {
  if (Array.isArray(v)) {
    const items = itemsSchema(s);
    if (items) for (const item of v) fill(item, items);
    return;
  }
  if (!isRecord(v)) return;
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    if (k === 'metadata' || k === 'apiVersion' || k === 'kind') continue;
    if (v[k] === null && !prop.nullable) delete v[k];
    if (v[k] === undefined && prop.default !== undefined) v[k] = structuredClone(prop.default);
    if (v[k] !== undefined) fill(v[k], prop);
  }
  const additional = additionalPropertiesOf(s);
  if (typeof additional === 'object') for (const value of Object.values(v)) fill(value, additional);
}
