/**
 * GET, PUT and PATCH of a view subresource (`/scale`): the parent shown as another kind. Writes
 * map the view back onto the parent inside the store's update loop, so concurrency and the parent's
 * own rules apply; the answer is the view of the stored parent.
 */
import { errors } from '../../machinery/errors.js';
import { managedFieldsStep, requestManager } from '../field-manager.js';
import { apiVersionOf } from '../../machinery/gvk.js';
import type { StrategyContext, ViewSubresource } from '../../registry/define-resource.js';
import { DecodeError, decodeObject, type KubeObject } from '../../schema/index.js';
import type { RequestContext } from '../request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { negotiateOutputChoice, respondValue } from '../respond.js';
import { conversionSupport, convertObject } from '../transform/convert.js';
import { optionsFor, respondConverted, tableContext } from '../transform/respond-converted.js';
import { QueryParams } from '../params.js';
import { bodyProblems, readRequestValue, strictBodyError } from './decode-object.js';
import { enforceFieldValidation } from './field-validation.js';
import { patchTransformFor } from './patch.js';
import { scopeOf } from './scope.js';

function viewContext(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): StrategyContext {
  return { names: ep.names, namespace: info.namespace, subresource: info.subresource, now: new Date() };
}

/** Decodes a view as sent: its own apiVersion and kind, its schema. Field validation is the caller's. */
function decodeView(sub: ViewSubresource, value: unknown): { view: KubeObject; unknownFields: string[] } {
  const apiVersion = apiVersionOf(sub.view);
  const raw = value as Record<string, unknown> | null;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw errors.badRequest(`the body must be a ${sub.view.kind} object`);
  if (raw.apiVersion && raw.apiVersion !== apiVersion) {
    throw errors.badRequest(`the API version in the data (${String(raw.apiVersion)}) does not match the expected API version (${apiVersion})`);
  }
  if (raw.kind && raw.kind !== sub.view.kind) throw errors.badRequest(`the kind in the data (${String(raw.kind)}) does not match the expected kind (${sub.view.kind})`);
  let decoded;
  try {
    decoded = decodeObject<KubeObject>(sub.schema, raw);
  } catch (e) {
    if (e instanceof DecodeError) throw errors.badRequest(`${sub.view.kind} in version "${sub.view.version}" cannot be handled as a ${sub.view.kind}: ${e.message}`);
    throw e;
  }
  return { view: { ...decoded.value, apiVersion, kind: sub.view.kind }, unknownFields: decoded.unknownFields };
}

function checkView(sub: ViewSubresource, view: KubeObject, name: string, sctx: StrategyContext): void {
  const errs = sub.validateView?.(view, sctx) ?? [];
  if (errs.length) throw errors.invalid({ group: sub.view.group, kind: sub.view.kind }, name, errs);
}

/** The parent with the view applied; the view's resourceVersion, when set, is the write's precondition. */
function mapBack(sub: ViewSubresource, view: KubeObject, parent: KubeObject, sctx: StrategyContext): KubeObject {
  const next = sub.fromView(view, parent, sctx);
  next.metadata = { ...next.metadata, resourceVersion: view.metadata.resourceVersion || parent.metadata.resourceVersion };
  return next;
}

export async function handleView(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo, sub: ViewSubresource): Promise<void> {
  const sctx = viewContext(ctx, ep, info);
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  if (info.verb === 'get') {
    const choice = negotiateOutputChoice(ctx, { schema: sub.schema, conversions: conversionSupport(ep) });
    const entry = await ep.store.get(info.namespace, info.name, q.string('resourceVersion'), ctx.signal);
    const view = sub.toView(entry.object.parse<KubeObject>(), sctx);
    if (!choice.conversion) {
      respondValue(ctx, 200, view, sub.schema);
      return;
    }
    // The view's own table (Scale: Desired, Available), as Kubernetes prints a Scale.
    const value = convertObject(sub.table, { stored: view, served: () => view }, choice.conversion, optionsFor(ctx, choice), tableContext(ep));
    respondConverted(ctx, 200, choice, value);
    return;
  }
  const optionsKind = info.verb === 'update' ? 'UpdateOptions' : 'PatchOptions';
  const dryRun = q.dryRun(optionsKind);
  const manager = requestManager(ctx, q, ep, optionsKind);
  let transform: (current: KubeObject) => KubeObject;
  if (info.verb === 'update') {
    const validation = q.fieldValidation('UpdateOptions');
    const { value, body } = await readRequestValue(ctx, ep, sub.view.kind, sub.schema);
    const { view, unknownFields } = decodeView(sub, value);
    enforceFieldValidation(ctx, validation, bodyProblems(validation, sub.schema, body, unknownFields), strictBodyError(sub.view.kind, sub.view.version));
    if ((view.metadata.name ?? '') !== info.name) {
      throw errors.badRequest(`the name of the object (${view.metadata.name ?? ''}) does not match the name on the URL (${info.name})`);
    }
    checkView(sub, view, info.name, sctx);
    transform = (current) => mapBack(sub, view, current, sctx);
  } else {
    const patch = await patchTransformFor(ctx, ep, sub.schema);
    transform = (current) => {
      const patchedValue = patch.apply(sub.toView(current, sctx));
      const { view, unknownFields } = decodeView(sub, patchedValue);
      patch.validate(unknownFields, patchedValue);
      checkView(sub, view, info.name, sctx);
      return mapBack(sub, view, current, sctx);
    };
  }
  // allowCreate is false, so the store always passes the current parent.
  const { object } = await ep.store.update(scopeOf(ctx), info.name, (current) => transform(current as KubeObject), {
    dryRun,
    // Ownership is recorded on the parent, in the parent's terms, as a write to the subresource.
    managedFields: managedFieldsStep(ep, manager, info.subresource),
    subresource: info.subresource,
    allowCreate: false,
  });
  respondValue(ctx, 200, sub.toView(object, sctx), sub.schema);
}
