/**
 * Event (events.<domain>/v1): the newer shape of the same stored objects as core/v1 Event, which
 * is their storage version (Kubernetes stores events once and serves both). Fields are renamed on
 * the way (regarding ↔ involvedObject, note ↔ message, reportingController ↔ reportingComponent,
 * deprecated* ↔ the old counting fields); the rules follow the request's version (see
 * core/v1/event-validation.ts).
 */
import { EVENTS_V1_FIELDS } from '../../core/v1/event-validation.js';
import { EventSchema as CoreEventSchema, EventSource, eventResource } from '../../core/v1/event.js';
import { ObjectReference } from '../../core/v1/types/index.js';
import { defineVersion } from '../../../registry/define-resource.js';
import { decodeObject, objectHeader, t, type KubeObject, type StructSchema } from '../../../schema/index.js';

export const EventSeries = t.struct('events.v1.EventSeries', {
  count: t.required(1, t.int32(), { always: true, description: 'How many times the event has occurred in the series so far.' }),
  lastObservedTime: t.required(2, t.microTime(), { description: 'When the last occurrence was observed.' }),
});

export const EventSchema = t.struct('events.v1.Event', {
  ...objectHeader,
  eventTime: t.required(2, t.microTime(), { description: 'When the event was first observed, to the microsecond. Required.' }),
  series: t.field(3, EventSeries, { pointer: true, description: 'Data about the series of events this one belongs to, when it repeats.' }),
  reportingController: t.field(4, t.string(), { description: 'The controller that emitted the event, e.g. orch.io/kubelet. Required for new events.' }),
  reportingInstance: t.field(5, t.string(), { description: 'The instance of that controller, e.g. kubelet-xyzf. Required for new events; at most 128 characters.' }),
  action: t.field(6, t.string(), { description: 'What was done (or failed) about the object. Required for new events; at most 128 characters.' }),
  reason: t.field(7, t.string(), { description: 'Why the action was taken, for tools. Required for new events; at most 128 characters.' }),
  regarding: t.field(8, ObjectReference, { description: 'The object this event is about.' }),
  related: t.field(9, ObjectReference, { pointer: true, description: 'A second object the event concerns, if any.' }),
  note: t.field(10, t.string(), { description: 'A description of the event, for people; at most 1 kB.' }),
  type: t.field(11, t.string(), { description: 'Normal or Warning.' }),
  deprecatedSource: t.field(12, EventSource, { description: 'Deprecated: the reporter as core/v1 events named it.' }),
  deprecatedFirstTimestamp: t.field(13, t.time(), { description: 'Deprecated: core/v1 firstTimestamp.' }),
  deprecatedLastTimestamp: t.field(14, t.time(), { description: 'Deprecated: core/v1 lastTimestamp.' }),
  deprecatedCount: t.field(15, t.int32(), { description: 'Deprecated: core/v1 count.' }),
}, { description: 'A report of an event somewhere in the cluster; kept for a limited time.' });

/** events/v1 name → core/v1 name, for the fields that differ. */
const RENAMES: Readonly<Record<string, string>> = {
  regarding: 'involvedObject',
  note: 'message',
  reportingController: 'reportingComponent',
  deprecatedSource: 'source',
  deprecatedFirstTimestamp: 'firstTimestamp',
  deprecatedLastTimestamp: 'lastTimestamp',
  deprecatedCount: 'count',
};
const BACK: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(RENAMES).map(([a, b]) => [b, a]));

/** Renames the fields, sets the identity and re-decodes so the result has the target's zero values. Pure. */
function convert(obj: KubeObject, renames: Readonly<Record<string, string>>, schema: StructSchema, apiVersion: string): KubeObject {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[renames[k] ?? k] = v;
  out.apiVersion = apiVersion;
  out.kind = 'Event';
  return decodeObject<KubeObject>(schema, out).value;
}

export const eventsV1EventResource = defineVersion(eventResource, (names) => {
  const group = names.group('events');
  return {
    group,
    version: 'v1',
    schema: EventSchema,
    shortNames: ['ev'],
    selectableFieldNames: EVENTS_V1_FIELDS,
    conversion: {
      toHub: (obj) => convert(obj, RENAMES, CoreEventSchema, 'v1'),
      fromHub: (obj) => convert(obj, BACK, EventSchema, `${group}/v1`),
    },
    fixture: () => ({
      eventTime: '2024-01-02T03:04:05.123456Z',
      regarding: { kind: 'Pod', namespace: 'fixture', name: 'fixture' },
      reportingController: 'fixture-controller',
      reportingInstance: 'fixture-1',
      action: 'Testing',
      reason: 'Tested',
      type: 'Normal',
      note: 'a fixture event',
    }),
  };
});
