/**
 * PATCH of an object or a subresource with a JSON patch (RFC 6902) or a JSON merge patch
 * (RFC 7386), or a server-side apply (handlers/apply.ts). The patch is a transform run inside the
 * store's update loop, so a concurrent write re-applies it to the newer object.
 */
import { toServed } from '../conversion.js';
import { managedFieldsStep, requestManager } from '../field-manager.js';
import { parseMediaType } from '../../http/negotiate.js';
import { errors, StatusError } from '../../machinery/errors.js';
import type { KubeObject } from '../../schema/index.js';
import { applyJsonPatch, JsonPatchError, parseJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import type { RequestContext } from '../request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { respondValue } from '../respond.js';
import { QueryParams } from '../params.js';
import { handleApply } from './apply.js';
import { checkName } from './check-name.js';
import { decodeAs, readRequestBody } from './decode-object.js';
import { scopeOf } from './scope.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';
export const SUPPORTED_PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, APPLY_PATCH];

/** The patch type of a request: its Content-Type without parameters. */
export function patchTypeOf(ctx: RequestContext): string {
  const m = parseMediaType(ctx.req.headers['content-type'] ?? '');
  return m ? `${m.type}/${m.subtype}` : '';
}

/**
 * Reads a PATCH request's body and returns the pure function that applies it to a JSON value.
 * Checks the patch type and the options every patch takes. Throws 415 for other patch types.
 */
export async function patchTransformFor(ctx: RequestContext, ep: ResourceEndpoint): Promise<(current: KubeObject) => unknown> {
  const type = patchTypeOf(ctx);
  if (type !== JSON_PATCH && type !== MERGE_PATCH) throw errors.unsupportedMediaType(SUPPORTED_PATCH_TYPES);
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  if (q.bool('force') !== undefined) {
    throw errors.invalid({ group: ep.names.metaGroup, kind: 'PatchOptions' }, '', [
      { type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' },
    ]);
  }
  const body = await readRequestBody(ctx, ep);
  let patch: unknown;
  try {
    patch = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw errors.badRequest(`the patch is not valid JSON: ${(e as Error).message}`);
  }
  return type === JSON_PATCH ? jsonPatchTransform(patch) : mergePatchTransform(patch);
}

export async function handlePatch(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): Promise<void> {
  if (patchTypeOf(ctx) === APPLY_PATCH) return handleApply(ctx, ep, info);
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const dryRun = q.dryRun('PatchOptions');
  const validation = q.fieldValidation('PatchOptions');
  const manager = requestManager(ctx, q, ep, 'PatchOptions');
  const apply = await patchTransformFor(ctx, ep);
  const { object } = await ep.store.update(
    scopeOf(ctx),
    info.name,
    (current) => {
      const patched = decodeAs(ctx, ep, apply(toServed(ep, current as KubeObject)), validation);
      checkName(patched, ep, info);
      return patched;
    },
    { dryRun, managedFields: managedFieldsStep(ep, manager, info.subresource), subresource: info.subresource, allowCreate: false },
  );
  respondValue(ctx, 200, toServed(ep, object));
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

function mergePatchTransform(patch: unknown): (current: KubeObject) => unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    throw errors.badRequest('a merge patch must be a JSON object');
  }
  return (current) => applyMergePatch(current, patch);
}
