/**
 * POST to a create subresource (`serviceaccounts/<name>/token`): the body is a request object of
 * the subresource's own kind (TokenRequest), answered with 201 and the object the subresource
 * makes of it. Nothing of the parent is written. Field validation applies to the body as to any
 * create.
 */
import { errors } from '../../machinery/errors.js';
import { apiVersionOf } from '../../machinery/gvk.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { CreateSubresource } from '../../registry/define-resource.js';
import { DecodeError, decodeObject, Status as StatusSchema, type KubeObject } from '../../schema/index.js';
import { QueryParams } from '../params.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { respondValue } from '../respond.js';
import { convertObject } from '../transform/convert.js';
import { respondConverted, tableContext } from '../transform/respond-converted.js';
import { negotiateWriteOutput } from '../transform/respond-object.js';
import { bodyProblems, readRequestValue, strictBodyError } from './decode-object.js';
import { enforceFieldValidation } from './field-validation.js';
import { scopeOf } from './scope.js';

function decodeRequest(sub: CreateSubresource, value: unknown): { request: KubeObject; unknownFields: string[] } {
  const { kind, version } = sub.request;
  const apiVersion = apiVersionOf(sub.request);
  const where = `${kind} in version "${version}" cannot be handled as a ${kind}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw errors.badRequest(`${where}: the body must be a JSON object`);
  const raw = value as Record<string, unknown>;
  const accepted = [apiVersion, ...(sub.alsoAcceptedVersions ?? []).map((v) => apiVersionOf({ group: sub.request.group, version: v }))];
  if (raw.apiVersion !== undefined && raw.apiVersion !== '' && !accepted.includes(String(raw.apiVersion))) {
    throw errors.badRequest(`the API version in the data (${String(raw.apiVersion)}) does not match the expected API version (${apiVersion})`);
  }
  if (raw.kind !== undefined && raw.kind !== '' && raw.kind !== kind) throw errors.badRequest(`the kind in the data (${String(raw.kind)}) does not match the expected kind (${kind})`);
  let decoded;
  try {
    decoded = decodeObject<KubeObject>(sub.schema, raw);
  } catch (e) {
    if (e instanceof DecodeError) throw errors.badRequest(`${where}: ${e.message}`);
    throw e;
  }
  return { request: { ...decoded.value, apiVersion, kind }, unknownFields: decoded.unknownFields };
}

export async function handleNamedCreate(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo, sub: CreateSubresource): Promise<void> {
  const out = negotiateWriteOutput(ctx, ep, 'object', sub.schema);
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const validation = q.fieldValidation('CreateOptions');
  const dryRun = q.dryRun('CreateOptions');
  const { value, body } = await readRequestValue(ctx, ep, sub.request.kind, sub.schema);
  const { request, unknownFields } = decodeRequest(sub, value);
  enforceFieldValidation(ctx, validation, bodyProblems(validation, sub.schema, body, unknownFields), strictBodyError(sub.request.kind, sub.request.version));
  // As Kubernetes: the request goes through admission as a create of the subresource.
  await ep.store.admitSubresourceCreate(scopeOf(ctx), info.name, info.subresource, request, dryRun);
  const answer = await sub.create(info.name, request, {
    names: ep.names,
    namespace: info.namespace,
    subresource: info.subresource,
    now: new Date(),
    ...(ctx.user ? { user: ctx.user } : {}),
    signal: ctx.signal,
    warn: (message) => void ctx.warnings.push(message),
    dryRun,
  });
  if (sub.answersStatus) return respondValue(ctx, 201, answer, StatusSchema);
  // A Table of the answer has the default columns (Name, Created At), as Kubernetes prints a TokenRequest.
  const { choice } = out;
  const shown = choice.conversion ? convertObject(undefined, { stored: answer, served: () => answer }, choice.conversion, out.options, tableContext(ep)) : answer;
  respondConverted(ctx, 201, choice, shown);
}
