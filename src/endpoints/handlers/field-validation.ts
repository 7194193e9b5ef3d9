/**
 * Field validation (`fieldValidation=Strict|Warn|Ignore`): the strict-decoding problems of a body
 * (unknown fields, repeated fields) gathered in Kubernetes' words and order, then acted on: Strict
 * fails the request, Warn (the default) adds one Warning header per problem, Ignore says nothing.
 */
import { findDuplicateKeys, formatPath, keyPositions } from '../../machinery/codec/json-keys.js';
import { YAML_ERRORS_PREFIX } from '../../machinery/codec/yaml-keys.js';
import type { StatusError } from '../../machinery/errors.js';
import type { Schema } from '../../schema/dsl.js';
import { isDecodedKey } from '../../schema/known-keys.js';
import type { RequestContext } from '../../machinery/request-context.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** Go's strict JSON decoder keeps at most this many problems. */
const MAX_JSON_PROBLEMS = 100;

export const unknownField = (path: string): string => `unknown field ${JSON.stringify(path)}`;
export const duplicateField = (path: string): string => `duplicate field ${JSON.stringify(path)}`;

function capped(problems: string[]): string[] {
  return [...new Set(problems)].slice(0, MAX_JSON_PROBLEMS);
}

/** Splits a path in strict-decoding notation back into steps, for ordering. */
function segmentsOf(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/\[(\d+)\]|([^.[]+)/g)) out.push(m[1] !== undefined ? Number(m[1]) : (m[2] as string));
  return out;
}

/**
 * Orders paths as a decoder meets them in JSON that Go wrote from maps: keys sorted at every level,
 * depth first, indices in order (YAML converted to JSON, merge and JSON patch results).
 */
export function sortedKeyOrder(paths: readonly string[]): string[] {
  const cmp = (a: (string | number)[], b: (string | number)[]): number => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const x = a[i] as string | number;
      const y = b[i] as string | number;
      if (x === y) continue;
      if (typeof x === 'number' && typeof y === 'number') return x - y;
      return String(x) < String(y) ? -1 : 1;
    }
    return a.length - b.length;
  };
  return [...paths].map((p) => ({ p, s: segmentsOf(p) })).sort((a, b) => cmp(a.s, b.s)).map((x) => x.p);
}

/**
 * The problems of a create or update body decoded with `schema`. JSON: unknown fields and repeats of
 * fields the schema decodes, in document order. YAML: the repeated keys of every mapping first (one
 * YAML error), then the unknown fields in the order of the JSON Kubernetes converts the YAML to.
 */
export function typedBodyProblems(schema: Schema, body: { text: string; yamlDuplicates?: string | undefined; yaml: boolean }, unknownFields: readonly string[]): string[] {
  if (body.yaml) {
    const unknown = sortedKeyOrder(unknownFields).map(unknownField);
    return body.yamlDuplicates ? [body.yamlDuplicates, ...unknown] : unknown;
  }
  const dups = findDuplicateKeys(body.text).filter((d) => isDecodedKey(schema, d.container, d.key));
  if (!dups.length) return capped(unknownFields.map(unknownField));
  const dupProblems = dups.map((d) => ({ seq: d.seq, text: duplicateField(formatPath([...d.container, d.key])) }));
  if (!unknownFields.length) return capped(dupProblems.map((d) => d.text));
  // Both kinds: interleave them as the decoder meets them, an unknown field at its first
  // occurrence and a duplicate at its repeat.
  const positions = keyPositions(body.text, new Set(unknownFields));
  const all = [...unknownFields.map((p) => ({ seq: positions.get(p) ?? Number.MAX_SAFE_INTEGER, text: unknownField(p) })), ...dupProblems];
  all.sort((a, b) => a.seq - b.seq);
  return capped(all.map((x) => x.text));
}

/** Every repeated key of a body decoded as untyped JSON (merge and strategic merge patches). */
export function untypedDuplicates(text: string): string[] {
  return capped(findDuplicateKeys(text).map((d) => duplicateField(formatPath([...d.container, d.key]))));
}

/** The message Kubernetes joins strict problems into. */
export function strictDecodingMessage(problems: readonly string[]): string {
  return `strict decoding error: ${problems.join(', ')}`;
}

/** One warning per problem; a YAML error gives one per repeated key, as Kubernetes splits it. */
function warningsFor(problem: string): string[] {
  if (!problem.startsWith(YAML_ERRORS_PREFIX)) return [problem];
  return problem
    .slice(YAML_ERRORS_PREFIX.length)
    .split('\n')
    .map((l) => l.trim());
}

/** Acts on the problems under the mode: Strict throws `fail(message)`, Warn records warnings. */
export function enforceFieldValidation(ctx: RequestContext, validation: FieldValidation, problems: readonly string[], fail: (message: string) => StatusError): void {
  if (!problems.length || validation === 'Ignore') return;
  if (validation === 'Strict') throw fail(strictDecodingMessage(problems));
  for (const p of problems) ctx.warnings.push(...warningsFor(p));
}
