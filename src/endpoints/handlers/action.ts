/**
 * POST to an action subresource (pods/binding): the body is another kind (a Binding), checked on
 * its own, then applied to the parent inside the store's update loop, so the parent's uid and
 * resourceVersion named in the body are preconditions. Answers 201 with a Success Status, as
 * Kubernetes' binding endpoint does.
 */
import { errors } from '../../machinery/errors.js';
import { apiVersionOf } from '../../machinery/gvk.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ActionSubresource, StrategyContext } from '../../registry/define-resource.js';
import { DecodeError, decodeObject, Status as StatusSchema, type KubeObject } from '../../schema/index.js';
import { QueryParams } from '../params.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { respondValue } from '../respond.js';
import { parseBody, readRequestBody, requestSerializer, strictBodyError } from './decode-object.js';
import { enforceFieldValidation } from './field-validation.js';
import { scopeOf } from './scope.js';
import { auditRequestObject } from '../../machinery/audit-record.js';

function decodeBody(sub: ActionSubresource, value: unknown): { body: KubeObject; unknownFields: string[] } {
  const apiVersion = apiVersionOf(sub.body);
  const raw = value as Record<string, unknown> | null;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw errors.badRequest(`the body must be a ${sub.body.kind} object`);
  if (raw.apiVersion && raw.apiVersion !== apiVersion) {
    throw errors.badRequest(`the API version in the data (${String(raw.apiVersion)}) does not match the expected API version (${apiVersion})`);
  }
  if (raw.kind && raw.kind !== sub.body.kind) throw errors.badRequest(`the kind in the data (${String(raw.kind)}) does not match the expected kind (${sub.body.kind})`);
  try {
    const decoded = decodeObject<KubeObject>(sub.schema, raw);
    return { body: { ...decoded.value, apiVersion, kind: sub.body.kind }, unknownFields: decoded.unknownFields };
  } catch (e) {
    if (e instanceof DecodeError) throw errors.badRequest(`${sub.body.kind} in version "${sub.body.version}" cannot be handled as a ${sub.body.kind}: ${e.message}`);
    throw e;
  }
}

export async function handleAction(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo, sub: ActionSubresource): Promise<void> {
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const dryRun = q.dryRun('CreateOptions');
  const validation = q.fieldValidation('CreateOptions');
  const raw = parseBody(requestSerializer(ctx, sub.schema), await readRequestBody(ctx, ep));
  auditRequestObject(ctx.audit, raw);
  const { body, unknownFields } = decodeBody(sub, raw);
  enforceFieldValidation(ctx, validation, unknownFields, strictBodyError(sub.body.kind, sub.body.version));
  const bodyName = body.metadata.name ?? '';
  if (bodyName && bodyName !== info.name) throw errors.badRequest(`name in URL does not match name in ${sub.body.kind} object`);
  const sctx: StrategyContext = { names: ep.names, namespace: info.namespace, subresource: info.subresource, now: new Date() };
  const errs = sub.validateBody?.(body, sctx) ?? [];
  if (errs.length) throw errors.invalid({ group: sub.body.group, kind: sub.body.kind }, info.name, errs);
  const uid = body.metadata.uid;
  // Kubernetes admits a binding as a create of the subresource with the Binding as the object.
  await ep.store.admitSubresourceCreate(scopeOf(ctx), info.name, info.subresource, body, dryRun);
  await ep.store.update(
    scopeOf(ctx),
    info.name,
    (current) => {
      if (!current) throw errors.notFound({ group: ep.def.group, resource: ep.def.resource }, info.name);
      const next = sub.apply(body, current, sctx);
      // The body's resourceVersion, when given, is the write's precondition.
      next.metadata = { ...next.metadata, resourceVersion: body.metadata.resourceVersion || current.metadata.resourceVersion };
      return next;
    },
    { subresource: info.subresource, allowCreate: false, dryRun, ...(uid ? { preconditions: { uid } } : {}) },
  );
  respondValue(ctx, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, StatusSchema);
}
