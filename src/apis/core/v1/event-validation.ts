/**
 * Event rules, which depend on the API version the request used, as in Kubernetes: every event
 * obeys the legacy rules; one created or updated through events.<domain>/v1 also obeys the strict
 * ones (eventTime, reporting fields, type Normal or Warning, deprecated fields unset, and most
 * fields immutable). Field paths use core/v1's names (`involvedObject`, `message`) whatever the
 * version, because Kubernetes validates its internal object.
 */
import { isDeepStrictEqual } from 'node:util';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { isDns1123Subdomain, isQualifiedName } from '../../../machinery/name-validation.js';
import type { StrategyContext } from '../../../registry/define-resource.js';
import type { Event } from './event.js';

export const REPORTING_INSTANCE_LIMIT = 128;
export const ACTION_LIMIT = 128;
export const REASON_LIMIT = 128;
export const NOTE_LIMIT = 1024;
export const EVENT_TYPES = ['Normal', 'Warning'] as const;

/**
 * Whether the request came through a version validated the legacy way only: core/v1, and writes
 * made in process (controllers write as core/v1 clients would).
 */
function isLegacyRequest(ctx: StrategyContext): boolean {
  const gv = ctx.requestGroupVersion;
  return !gv || (gv.group === '' && gv.version === 'v1');
}

const root = (name: string): FieldPath => FieldPath.root(name);

function legacyValidate(ev: Event, ctx: StrategyContext): FieldError[] {
  const errs: FieldError[] = [];
  const ns = ev.metadata.namespace ?? '';
  const involvedNs = ev.involvedObject.namespace ?? '';
  const nsPath = root('involvedObject').child('namespace');
  // core/v1 calls the reporting controller reportingComponent.
  const controllerField = isLegacyRequest(ctx) ? 'reportingComponent' : 'reportingController';
  if (!ev.eventTime) {
    // An old-style event must sit in its object's namespace (or default, for cluster-scoped objects).
    if (involvedNs === '') {
      if (ns !== '' && ns !== 'default') errs.push(fieldErr.invalid(nsPath, involvedNs, 'does not match event.namespace'));
    } else if (ns !== involvedNs) {
      errs.push(fieldErr.invalid(nsPath, involvedNs, 'does not match event.namespace'));
    }
  } else {
    if (involvedNs === '' && ns !== 'default' && ns !== ctx.names.systemNamespace) {
      errs.push(fieldErr.invalid(nsPath, involvedNs, 'does not match event.namespace'));
    }
    const controller = ev.reportingComponent ?? '';
    if (!controller) errs.push(fieldErr.required(root(controllerField)));
    for (const m of isQualifiedName(controller)) errs.push(fieldErr.invalid(root(controllerField), controller, m));
    const instance = ev.reportingInstance ?? '';
    if (!instance) errs.push(fieldErr.required(root('reportingInstance')));
    if (instance.length > REPORTING_INSTANCE_LIMIT) errs.push(fieldErr.invalid(root('reportingInstance'), '', `can have at most ${REPORTING_INSTANCE_LIMIT} characters`));
    const action = ev.action ?? '';
    if (!action) errs.push(fieldErr.required(root('action')));
    if (action.length > ACTION_LIMIT) errs.push(fieldErr.invalid(root('action'), '', `can have at most ${ACTION_LIMIT} characters`));
    const reason = ev.reason ?? '';
    if (!reason) errs.push(fieldErr.required(root('reason')));
    if (reason.length > REASON_LIMIT) errs.push(fieldErr.invalid(root('reason'), '', `can have at most ${REASON_LIMIT} characters`));
    if ((ev.message ?? '').length > NOTE_LIMIT) errs.push(fieldErr.invalid(root('message'), '', `can have at most ${NOTE_LIMIT} characters`));
  }
  for (const m of isDns1123Subdomain(ns)) errs.push(fieldErr.invalid(root('namespace'), ns, m));
  return errs;
}

function validateSeries(ev: Event): FieldError[] {
  const errs: FieldError[] = [];
  if (!ev.series) return errs;
  if ((ev.series.count ?? 0) < 2) errs.push(fieldErr.invalid('series.count', '', 'should be at least 2'));
  if (!ev.series.lastObservedTime) errs.push(fieldErr.required('series.lastObservedTime'));
  return errs;
}

export function validateEventCreate(ev: Event, ctx: StrategyContext): FieldError[] {
  const errs = legacyValidate(ev, ctx);
  if (isLegacyRequest(ctx)) return errs;
  const name = ev.metadata.name ?? '';
  for (const m of isDns1123Subdomain(name)) errs.push(fieldErr.invalid(root('metadata').child('name'), name, m));
  errs.push(...validateSeries(ev));
  if (!ev.eventTime) errs.push(fieldErr.required(root('eventTime')));
  const type = ev.type ?? '';
  if (!(EVENT_TYPES as readonly string[]).includes(type)) errs.push(fieldErr.invalid(root('type'), '', `has invalid value: ${type}`));
  if (ev.firstTimestamp) errs.push(fieldErr.invalid(root('firstTimestamp'), '', 'needs to be unset'));
  if (ev.lastTimestamp) errs.push(fieldErr.invalid(root('lastTimestamp'), '', 'needs to be unset'));
  if (ev.count) errs.push(fieldErr.invalid(root('count'), '', 'needs to be unset'));
  if (ev.source.component || ev.source.host) errs.push(fieldErr.invalid(root('source'), '', 'needs to be unset'));
  return errs;
}

/** Fields an events/v1 update may not change, by their core/v1 names (`reportingComponent` reported as `reportingController`). */
const IMMUTABLE: readonly [keyof Event, string][] = [
  ['involvedObject', 'involvedObject'],
  ['reason', 'reason'],
  ['message', 'message'],
  ['source', 'source'],
  ['firstTimestamp', 'firstTimestamp'],
  ['lastTimestamp', 'lastTimestamp'],
  ['count', 'count'],
  ['type', 'type'],
];

const IMMUTABLE_AFTER_TIME: readonly [keyof Event, string][] = [
  ['action', 'action'],
  ['related', 'related'],
  ['reportingComponent', 'reportingController'],
  ['reportingInstance', 'reportingInstance'],
];

function immutable(ev: Event, old: Event, fields: readonly [keyof Event, string][]): FieldError[] {
  return fields.filter(([k]) => !isDeepStrictEqual(ev[k] ?? null, old[k] ?? null)).map(([k, path]) => fieldErr.immutable(path, ev[k] ?? null));
}

export function validateEventUpdate(ev: Event, old: Event, ctx: StrategyContext): FieldError[] {
  const errs = legacyValidate(ev, ctx);
  if (isLegacyRequest(ctx)) return errs;
  if (!isDeepStrictEqual(ev.series, old.series)) errs.push(...validateSeries(ev));
  errs.push(...immutable(ev, old, IMMUTABLE));
  // Times are kept to the microsecond, so equal text is an equal time.
  if ((ev.eventTime ?? null) !== (old.eventTime ?? null)) errs.push(fieldErr.immutable('eventTime', ev.eventTime ?? null));
  errs.push(...immutable(ev, old, IMMUTABLE_AFTER_TIME));
  return errs;
}

/** The field-selector attributes of an event, under both versions' names. */
export function eventSelectableFields(ev: Event): Record<string, string> {
  const ref = ev.involvedObject;
  const refFields = {
    kind: ref.kind ?? '',
    namespace: ref.namespace ?? '',
    name: ref.name ?? '',
    uid: ref.uid ?? '',
    apiVersion: ref.apiVersion ?? '',
    resourceVersion: ref.resourceVersion ?? '',
    fieldPath: ref.fieldPath ?? '',
  };
  const out: Record<string, string> = {
    reason: ev.reason ?? '',
    reportingComponent: ev.reportingComponent ?? '',
    reportingController: ev.reportingComponent ?? '',
    source: ev.source.component || ev.reportingComponent || '',
    type: ev.type ?? '',
  };
  for (const [k, v] of Object.entries(refFields)) {
    out[`involvedObject.${k}`] = v;
    out[`regarding.${k}`] = v;
  }
  return out;
}

export const CORE_EVENT_FIELDS = [
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
] as const;

export const EVENTS_V1_FIELDS = [
  'regarding.kind',
  'regarding.namespace',
  'regarding.name',
  'regarding.uid',
  'regarding.apiVersion',
  'regarding.resourceVersion',
  'regarding.fieldPath',
  'reason',
  'reportingController',
  'type',
] as const;
