/**
 * Server-side apply: PATCH with `application/apply-patch+yaml` (YAML or JSON). The configuration
 * is merged into the live object inside the store's update loop, so a concurrent write re-applies
 * it; it creates the object when absent (201). Conflicts answer 409 unless `force=true`.
 */
import { errors } from '../../machinery/errors.js';
import { DecodeBodyError, yamlSerializer } from '../../machinery/codec/serializers.js';
import { yamlDuplicateKeysError } from '../../machinery/codec/yaml-keys.js';
import { isObject, type JsonObject } from '../../apply/index.js';
import { keepTimesWhenUnchanged } from '../../apply/unchanged-times.js';
import { toServed } from '../conversion.js';
import { fieldManagerOf, fieldManagerParam } from '../field-manager.js';
import { QueryParams } from '../params.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { negotiateWriteOutput, respondWrittenObject, storedSource } from '../transform/respond-object.js';
import { checkName } from './check-name.js';
import { decodeAs, readRequestBody } from './decode-object.js';
import { enforceFieldValidation } from './field-validation.js';
import { scopeOf } from './scope.js';
import { auditRequestPatch } from '../../machinery/audit-record.js';

/** The applied configuration: a YAML (or JSON) mapping; nothing else is accepted. */
function parseConfig(body: Buffer): JsonObject {
  let value: unknown;
  try {
    value = body.length ? yamlSerializer.decode(body) : {};
  } catch (e) {
    if (e instanceof DecodeBodyError) throw errors.badRequest(`error decoding YAML: ${e.message}`);
    throw e;
  }
  if (value === null || value === undefined) return {};
  if (!isObject(value)) {
    throw errors.badRequest(`error decoding YAML: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value of type map[string]interface {}`);
  }
  return value;
}

/** What an apply request asks: the configuration, its manager and whether to force. */
export interface ApplyRequestBody {
  readonly config: JsonObject;
  readonly manager: string;
  readonly force: boolean;
}

/**
 * Reads an apply request's options and body: `fieldManager` is required (422 naming
 * PatchOptions), the body must be a mapping, and repeated keys follow the field-validation mode.
 */
export async function readApplyRequest(ctx: RequestContext, ep: ResourceEndpoint, q: QueryParams): Promise<ApplyRequestBody> {
  const metaGroup = ep.names.metaGroup;
  const validation = q.fieldValidation('PatchOptions');
  const force = q.bool('force') ?? false;
  const manager = fieldManagerParam(q, metaGroup, 'PatchOptions');
  if (!manager) {
    throw errors.invalid({ group: metaGroup, kind: 'PatchOptions' }, '', [{ type: 'FieldValueRequired', field: 'fieldManager', detail: 'is required for apply patch' }]);
  }
  const body = await readRequestBody(ctx, ep);
  const config = parseConfig(body);
  auditRequestPatch(ctx.audit, config);
  // Fields the schema does not declare fail the apply whatever the mode (the configuration must
  // type-check); the mode decides about repeated keys, as Kubernetes' strict YAML decoding does.
  if (validation !== 'Ignore') {
    const repeated = yamlDuplicateKeysError(body.toString('utf8'));
    if (repeated) enforceFieldValidation(ctx, validation, [repeated], () => errors.badRequest(`error strict decoding YAML: ${repeated}`));
  }
  return { config, manager, force };
}

export async function handleApply(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): Promise<void> {
  const out = negotiateWriteOutput(ctx, ep, 'object');
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const dryRun = q.dryRun('PatchOptions');
  const { config, manager, force } = await readApplyRequest(ctx, ep, q);
  const fm = fieldManagerOf(ep);
  const { object, created } = await ep.store.update(
    scopeOf(ctx),
    info.name,
    (current) => {
      const live = current ? toServed(ep, current) : undefined;
      const merged = fm.apply(live, config, { manager, subresource: info.subresource, force, now: new Date() });
      // Unknown fields were refused with the configuration; defaults fill in what apply removed.
      const obj = decodeAs(ctx, ep, merged, 'Ignore');
      checkName(obj, ep, info);
      return keepTimesWhenUnchanged(live, obj);
    },
    // Apply creates a missing object whatever the kind says about PUT; a subresource of one is a 404.
    { dryRun, subresource: info.subresource, allowCreate: !info.subresource },
  );
  respondWrittenObject(ctx, ep, created ? 201 : 200, out, storedSource(ep, object));
}
