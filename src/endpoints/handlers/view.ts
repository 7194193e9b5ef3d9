/**
 * GET, PUT and PATCH (every patch type, apply included) of a view subresource (`/scale`): the
 * parent shown as another kind. Writes map the view back onto the parent inside the store's
 * update loop, so concurrency and the parent's own rules apply; the answer is the view of the
 * stored parent, without managedFields (Kubernetes shows none on a Scale).
 *
 * Field management follows Kubernetes' scale handler when the view declares the field it stands
 * for: the field manager runs on the view, whose managedFields are the parent's owners of that
 * field, and the outcome goes back onto the parent in the parent's terms (apply/view-fields.ts).
 */
import { errors } from '../../machinery/errors.js';
import { parentEntriesFromView, viewEntriesFromParent, type JsonObject, type ManagedFieldsEntry, type ViewFieldMapping } from '../../apply/index.js';
import { managedFieldsStep, requestManager, viewFieldManagerOf, viewFieldMapping } from '../field-manager.js';
import { apiVersionOf } from '../../machinery/gvk.js';
import type { StrategyContext, ViewSubresource } from '../../registry/define-resource.js';
import { DecodeError, decodeObject, type KubeObject } from '../../schema/index.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { negotiateOutputChoice, respondValue } from '../respond.js';
import { conversionSupport, convertObject } from '../transform/convert.js';
import { negotiateWriteOutput, respondWrittenObject } from '../transform/respond-object.js';
import { optionsFor, respondConverted, tableContext } from '../transform/respond-converted.js';
import { QueryParams } from '../params.js';
import { bodyProblems, readRequestValue, strictBodyError } from './decode-object.js';
import { enforceFieldValidation } from './field-validation.js';
import { readApplyRequest } from './apply.js';
import { APPLY_PATCH, patchTransformFor, patchTypeOf } from './patch.js';
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

/** A write to the view, given the view of the current parent (with its managedFields when field-managed). */
interface ViewWrite {
  /** The new view; for apply, with the managedFields the apply leaves. */
  next(current: KubeObject): KubeObject;
  /** The view's managedFields after a non-apply write (apply sets them in `next`). */
  record?(current: KubeObject, next: KubeObject): ManagedFieldsEntry[] | undefined;
}

function managedFieldsOfView(view: KubeObject): ManagedFieldsEntry[] | undefined {
  return view.metadata.managedFields as ManagedFieldsEntry[] | undefined;
}

/**
 * The transform of the parent for a field-managed view write: the view gets the parent's owners
 * of the mapped field, the write runs on it, and the parent gets the outcome back.
 */
function fieldManagedTransform(sub: ViewSubresource, sctx: StrategyContext, mapping: ViewFieldMapping, write: ViewWrite): (current: KubeObject) => KubeObject {
  return (current) => {
    const parentEntries = current.metadata.managedFields as ManagedFieldsEntry[] | undefined;
    const before = sub.toView(current, sctx);
    const { managedFields: _parents, ...meta } = before.metadata;
    const viewEntries = viewEntriesFromParent(parentEntries, mapping);
    before.metadata = viewEntries ? { ...meta, managedFields: viewEntries } : meta;
    const after = write.next(before);
    const recorded = write.record ? write.record(before, after) : managedFieldsOfView(after);
    const next = mapBack(sub, after, current, sctx);
    const entries = parentEntriesFromView(parentEntries, recorded, mapping);
    if (entries) next.metadata.managedFields = entries;
    else delete next.metadata.managedFields;
    return next;
  };
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
  const out = negotiateWriteOutput(ctx, ep, 'object', sub.schema);
  const mapping = viewFieldMapping(ep, sub);
  const optionsKind = info.verb === 'update' ? 'UpdateOptions' : 'PatchOptions';
  const dryRun = q.dryRun(optionsKind);
  const fm = viewFieldManagerOf(sub);
  // Apply needs a mapped field (else patchTransformFor answers 415); other writes name their manager first.
  const applying = info.verb === 'patch' && mapping !== undefined && patchTypeOf(ctx) === APPLY_PATCH;
  const manager = applying ? '' : requestManager(ctx, q, ep, optionsKind);
  const record = (before: KubeObject, after: KubeObject) => fm.update(before, after, { manager, subresource: info.subresource, now: new Date() });
  let write: ViewWrite;
  if (applying) {
    const req = await readApplyRequest(ctx, ep, q);
    write = {
      next: (before) => {
        const merged: JsonObject = fm.apply(before, req.config, { manager: req.manager, subresource: info.subresource, force: req.force, now: new Date() });
        // The configuration type-checked against the view's schema; what the merge left decodes.
        const { view } = decodeView(sub, merged);
        checkView(sub, view, info.name, sctx);
        return view;
      },
    };
  } else if (info.verb === 'update') {
    const validation = q.fieldValidation('UpdateOptions');
    const { value, body } = await readRequestValue(ctx, ep, sub.view.kind, sub.schema);
    const { view, unknownFields } = decodeView(sub, value);
    enforceFieldValidation(ctx, validation, bodyProblems(validation, sub.schema, body, unknownFields), strictBodyError(sub.view.kind, sub.view.version));
    if ((view.metadata.name ?? '') !== info.name) {
      throw errors.badRequest(`the name of the object (${view.metadata.name ?? ''}) does not match the name on the URL (${info.name})`);
    }
    checkView(sub, view, info.name, sctx);
    write = { next: () => view, record };
  } else {
    const patch = await patchTransformFor(ctx, ep, sub.schema);
    write = {
      // The patch sees the view as Kubernetes shows it to a patch: with its managedFields.
      next: (before) => {
        const patchedValue = patch.apply(before);
        const { view, unknownFields } = decodeView(sub, patchedValue);
        patch.validate(unknownFields, patchedValue);
        checkView(sub, view, info.name, sctx);
        return view;
      },
      record,
    };
  }
  // allowCreate is false, so the store always passes the current parent.
  const transform = mapping
    ? fieldManagedTransform(sub, sctx, mapping, write)
    : (current: KubeObject) => mapBack(sub, write.next(sub.toView(current, sctx)), current, sctx);
  const { object } = await ep.store.update(scopeOf(ctx), info.name, (current) => transform(current as KubeObject), {
    dryRun,
    // A view without a mapped field records the write as the change it makes to the parent.
    ...(mapping ? {} : { managedFields: managedFieldsStep(ep, manager, info.subresource) }),
    subresource: info.subresource,
    allowCreate: false,
  });
  const view = sub.toView(object, sctx);
  respondWrittenObject(ctx, ep, 200, out, { stored: view, served: () => view }, sub.table);
}
