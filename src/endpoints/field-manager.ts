/**
 * Field management at the endpoint: the manager a request writes as (`fieldManager`, checked, or
 * derived from the User-Agent), the field manager of the endpoint's served version, and the
 * managedFields step every create, update and non-apply patch hands the store.
 */
import { FieldManager, FieldSet, fieldPath, managerFromUserAgent, validateFieldManager, type ViewFieldMapping } from '../apply/index.js';
import { errors } from '../machinery/errors.js';
import { apiVersionOf } from '../machinery/gvk.js';
import type { ResourceDefinition, ViewSubresource } from '../registry/define-resource.js';
import type { ManagedFieldsStep } from '../registry/generic-store.js';
import type { KubeObject } from '../schema/index.js';
import { toServed } from './conversion.js';
import type { QueryParams } from './params.js';
import type { RequestContext } from '../machinery/request-context.js';
import type { ResourceEndpoint } from './resource-endpoint.js';

const ENVELOPE = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Fields a write does not own because the store puts them back: status on the main resource of a
 * kind with a /status subresource; everything but metadata and status on /status.
 */
function resetFieldsOf(def: ResourceDefinition, subresource: string): FieldSet | undefined {
  const status = def.subresources?.status;
  if (!status || status.kind !== 'partial') return undefined;
  if (subresource === '') return FieldSet.of(fieldPath('status'));
  if (subresource === 'status') {
    return FieldSet.of(...Object.keys(def.schema.fields).filter((f) => !ENVELOPE.has(f) && f !== 'status').map((f) => fieldPath(f)));
  }
  return undefined;
}

const managers = new WeakMap<ResourceDefinition, FieldManager>();

/** The field manager of an endpoint's served version (one per definition). */
export function fieldManagerOf(ep: ResourceEndpoint): FieldManager {
  let fm = managers.get(ep.def);
  if (!fm) {
    const def = ep.def;
    fm = new FieldManager({
      schema: def.schema,
      apiVersion: apiVersionOf(def),
      kind: def.kind,
      resetFields: (sub) => resetFieldsOf(def, sub),
      lastAppliedAnnotation: ep.names.labelSubKey('kubectl', 'last-applied-configuration'),
    });
    managers.set(def, fm);
  }
  return fm;
}

const viewManagers = new WeakMap<ViewSubresource, FieldManager>();

/**
 * The field manager of a view subresource (the Scale of /scale): the view is managed as an
 * object of its own kind, whose entries come from and go back to the parent (apply/view-fields.ts).
 */
export function viewFieldManagerOf(sub: ViewSubresource): FieldManager {
  let fm = viewManagers.get(sub);
  if (!fm) {
    fm = new FieldManager({ schema: sub.schema, apiVersion: apiVersionOf(sub.view), kind: sub.view.kind });
    viewManagers.set(sub, fm);
  }
  return fm;
}

/** How ownership of a view's field maps onto the parent served by `ep`; undefined when the view declares none. */
export function viewFieldMapping(ep: ResourceEndpoint, sub: ViewSubresource): ViewFieldMapping | undefined {
  if (!sub.ownedField) return undefined;
  const parentApiVersion = apiVersionOf(ep.def);
  return {
    viewPath: fieldPath(...sub.ownedField.view),
    viewApiVersion: apiVersionOf(sub.view),
    parentPaths: new Map([[parentApiVersion, fieldPath(...sub.ownedField.parent)]]),
    parentApiVersion,
  };
}

/**
 * The `fieldManager` parameter, checked (422 naming the options kind); empty when not sent. Apply
 * requires it; other writes fall back to the User-Agent.
 */
export function fieldManagerParam(q: QueryParams, metaGroup: string, optionsKind: string): string {
  const name = q.string('fieldManager') ?? '';
  const errs = validateFieldManager(name);
  if (errs.length) throw errors.invalid({ group: metaGroup, kind: optionsKind }, '', errs);
  return name;
}

/** The manager of a non-apply write: the parameter, else what the User-Agent starts with. */
export function requestManager(ctx: RequestContext, q: QueryParams, ep: ResourceEndpoint, optionsKind: string): string {
  return fieldManagerParam(q, ep.names.metaGroup, optionsKind) || managerFromUserAgent(ctx.req.headers['user-agent']);
}

/**
 * The managedFields step of an update-like write by `manager` to `subresource`: it compares the
 * objects as the endpoint serves them, so entries name the version the client wrote.
 */
export function managedFieldsStep(ep: ResourceEndpoint, manager: string, subresource: string): ManagedFieldsStep {
  const fm = fieldManagerOf(ep);
  return (live: KubeObject | undefined, next: KubeObject) =>
    fm.update(live ? toServed(ep, live) : undefined, toServed(ep, next), { manager, subresource, now: new Date() });
}
