/**
 * PATCH of an object or a subresource with a JSON patch (RFC 6902), a JSON merge patch (RFC 7386),
 * a strategic merge patch (merge rules from the kind's schema), or a server-side apply
 * (handlers/apply.ts). The patch is a transform run inside the store's update loop, so a
 * concurrent write re-applies it to the newer object.
 *
 * Field validation follows Kubernetes: problems in the patch document itself (repeated keys,
 * unknown JSON patch operation fields) come first, then the unknown fields of the patched object;
 * Strict answers 422 naming the patch, Warn adds Warning headers.
 */
import { toServed } from '../conversion.js';
import { managedFieldsStep, requestManager } from '../field-manager.js';
import { parseMediaType } from '../../http/negotiate.js';
import { errors, StatusError } from '../../machinery/errors.js';
import { findTooDeep, tooDeepMessage } from '../../machinery/codec/nesting.js';
import type { KubeObject, StructSchema } from '../../schema/index.js';
import { goValue } from '../patch/go-format.js';
import { applyJsonPatch, JsonPatchError, parseJsonPatch } from '../patch/json-patch.js';
import { jsonPatchProblems } from '../patch/json-patch-strict.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { applyStrategicMergePatch, StrategicMergeError } from '../patch/strategic-merge.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { negotiateWriteOutput, respondWrittenObject, storedSource } from '../transform/respond-object.js';
import { QueryParams } from '../params.js';
import { handleApply } from './apply.js';
import { checkName } from './check-name.js';
import { decodeServed, readRequestBody, withDefaults } from './decode-object.js';
import { enforceFieldValidation, sortedKeyOrder, unknownField, untypedDuplicates, type FieldValidation } from './field-validation.js';
import { scopeOf } from './scope.js';
import { auditRequestPatch } from '../../machinery/audit-record.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';
const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';
export const SUPPORTED_PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH];
/** Kinds without a schema cannot say how their lists merge (Kubernetes: custom resources). */
const SCHEMALESS_PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, APPLY_PATCH];

/** The patch type of a request: its Content-Type without parameters. */
export function patchTypeOf(ctx: RequestContext): string {
  const m = parseMediaType(ctx.req.headers['content-type'] ?? '');
  return m ? `${m.type}/${m.subtype}` : '';
}

/** A PATCH body ready to apply, with what field validation needs about it. */
export interface PatchTransform {
  /** Applies the patch to the current object (or view) as plain JSON. Pure. */
  apply(current: KubeObject): unknown;
  /**
   * Acts on the field-validation mode for the patched value, given the unknown fields its decoding
   * found: Strict throws 422, Warn records warnings.
   */
  validate(unknownFields: readonly string[], patched: unknown): void;
}

/** Object keys sorted at every depth, as Go writes a decoded map back to JSON. */
function sortedJson(v: unknown): string {
  const sort = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sort);
    if (typeof x === 'object' && x !== null) {
      const o = x as Record<string, unknown>;
      return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sort(o[k])]));
    }
    return x;
  };
  return JSON.stringify(sort(v));
}

/**
 * Reads a PATCH request's body and returns how to apply it to a value described by `schema` (the
 * kind's, or a view's). Checks the patch type and the options every patch takes. Throws 415 for
 * other patch types, for strategic merge on a kind without a schema, and for apply here: the main
 * endpoints hand apply to handlers/apply.ts before, views do not take it.
 */
export async function patchTransformFor(ctx: RequestContext, ep: ResourceEndpoint, schema: StructSchema = ep.def.schema): Promise<PatchTransform> {
  const type = patchTypeOf(ctx);
  const supported = schema.preserveUnknownFields ? SCHEMALESS_PATCH_TYPES : SUPPORTED_PATCH_TYPES;
  if (type === APPLY_PATCH) throw errors.unsupportedMediaType(supported.filter((t) => t !== APPLY_PATCH));
  if (!supported.includes(type)) throw errors.unsupportedMediaType(supported);
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  if (q.bool('force') !== undefined) {
    throw errors.invalid({ group: ep.names.metaGroup, kind: 'PatchOptions' }, '', [
      { type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' },
    ]);
  }
  const validation = q.fieldValidation('PatchOptions');
  const text = (await readRequestBody(ctx, ep)).toString('utf8');
  let patch: unknown;
  try {
    patch = JSON.parse(text);
  } catch (e) {
    throw errors.badRequest(`the patch is not valid JSON: ${(e as Error).message}`);
  }
  auditRequestPatch(ctx.audit, patch);
  const tooDeep = findTooDeep(patch);
  if (tooDeep) {
    // Kubernetes' words: its JSON scanner refuses the document while decoding the patch.
    throw errors.badRequest(type === STRATEGIC_MERGE_PATCH ? tooDeepMessage(tooDeep) : `error decoding patch: ${tooDeepMessage(tooDeep)}`);
  }
  if (type === JSON_PATCH) {
    const problems = validation === 'Ignore' ? [] : jsonPatchProblems(text, patch);
    return { apply: withinNesting(jsonPatchTransform(patch)), validate: patchValidator(ctx, validation, problems, sortedKeyOrder, sortedJson) };
  }
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    throw errors.badRequest(type === MERGE_PATCH ? 'a merge patch must be a JSON object' : 'invalid JSON document');
  }
  const problems = validation === 'Ignore' ? [] : untypedDuplicates(text);
  const body = patch as Record<string, unknown>;
  if (type === MERGE_PATCH) {
    return { apply: withinNesting((current) => applyMergePatch(current, body)), validate: patchValidator(ctx, validation, problems, sortedKeyOrder, sortedJson) };
  }
  return {
    apply: withinNesting((current) => strategicMerge(current, body, schema)),
    // Kubernetes lists the unknown fields of a strategic merge sorted by their text, and shows the
    // patch (not the result) as Go prints a map.
    validate: patchValidator(ctx, validation, problems, (paths) => [...paths].sort((a, b) => (unknownField(a) < unknownField(b) ? -1 : 1)), () => goValue(body)),
  };
}

/**
 * A patch whose result nests past the limit is refused as Kubernetes refuses a patched document
 * it cannot decode (422 on `patch`). Patch engines recurse per level, and a JSON patch can deepen a
 * document (copy, move, add at a deep path), so running out of stack on the way is the same refusal.
 */
function withinNesting(apply: (current: KubeObject) => unknown): (current: KubeObject) => unknown {
  const refuse = (detail: string): StatusError =>
    errors.invalid({ group: '', kind: '' }, '', [{ type: 'FieldValueInvalid', field: 'patch', value: '(the patched object)', detail }]);
  return (current) => {
    let patched: unknown;
    try {
      patched = apply(current);
    } catch (e) {
      if (e instanceof RangeError && /call stack/i.test(e.message)) throw refuse(tooDeepMessage({ char: '{' }));
      throw e;
    }
    const tooDeep = findTooDeep(patched);
    if (tooDeep) throw refuse(tooDeepMessage(tooDeep));
    return patched;
  };
}

function patchValidator(
  ctx: RequestContext,
  validation: FieldValidation,
  bodyProblems: readonly string[],
  order: (paths: readonly string[]) => string[],
  describe: (patched: unknown) => string,
): PatchTransform['validate'] {
  return (unknownFields, patched) => {
    if (validation === 'Ignore') return;
    const problems = [...bodyProblems, ...order(unknownFields).map(unknownField)];
    enforceFieldValidation(ctx, validation, problems, (message) =>
      errors.invalid({ group: '', kind: '' }, '', [{ type: 'FieldValueInvalid', field: 'patch', value: describe(patched), detail: message }]),
    );
  };
}

export async function handlePatch(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): Promise<void> {
  if (patchTypeOf(ctx) === APPLY_PATCH) return handleApply(ctx, ep, info);
  const out = negotiateWriteOutput(ctx, ep, 'object');
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const dryRun = q.dryRun('PatchOptions');
  const manager = requestManager(ctx, q, ep, 'PatchOptions');
  const patch = await patchTransformFor(ctx, ep);
  const { object } = await ep.store.update(
    scopeOf(ctx),
    info.name,
    (current) => {
      const patchedValue = patch.apply(toServed(ep, current as KubeObject));
      const { served, unknownFields } = decodeServed(ep, patchedValue);
      patch.validate(unknownFields, patchedValue);
      const patched = withDefaults(ctx, ep, served);
      checkName(patched, ep, info);
      return patched;
    },
    { dryRun, managedFields: managedFieldsStep(ep, manager, info.subresource), subresource: info.subresource, allowCreate: false },
  );
  respondWrittenObject(ctx, ep, 200, out, storedSource(ep, object));
}

function strategicMerge(current: KubeObject, patch: Record<string, unknown>, schema: StructSchema): unknown {
  try {
    return applyStrategicMergePatch(current, patch, schema);
  } catch (e) {
    if (e instanceof StrategicMergeError) throw e.status === 400 ? errors.badRequest(e.message) : new StatusError(422, 'Invalid', e.message);
    throw e;
  }
}

function jsonPatchTransform(patch: unknown): (current: KubeObject) => unknown {
  let ops;
  try {
    ops = parseJsonPatch(patch);
  } catch (e) {
    // As Kubernetes: a document that does not decode is 400, too many operations 413, and an
    // operation that is wrong in itself (unknown op, no path) fails like one that cannot apply.
    if (e instanceof JsonPatchError && e.kind === 'malformed') throw errors.badRequest(e.message);
    if (e instanceof JsonPatchError && e.kind === 'too-large') throw new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: ${e.message}`);
    if (e instanceof JsonPatchError) throw new StatusError(422, 'Invalid', e.message);
    throw e;
  }
  return (current) => {
    try {
      return applyJsonPatch(current, ops);
    } catch (e) {
      // Kubernetes answers a patch that cannot apply with 422 and the patch library's reason.
      if (e instanceof JsonPatchError) throw new StatusError(422, 'Invalid', e.message);
      throw e;
    }
  };
}
