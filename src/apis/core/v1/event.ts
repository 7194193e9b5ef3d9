/**
 * Event (core/v1): a report of something that happened to an object. This is the storage version
 * of events; events.<domain>/v1 serves the same objects in its own shape (src/apis/events/v1).
 */
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { ObjectMeta, objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { CORE_EVENT_FIELDS, eventSelectableFields, validateEventCreate, validateEventUpdate } from './event-validation.js';
import { ObjectReference } from './types/index.js';
import { eventTable } from './event-table.js';

export const EventSource = t.struct('core.v1.EventSource', {
  component: t.field(1, t.string(), { description: 'The component that reported the event.' }),
  host: t.field(2, t.string(), { description: 'The node name the event was reported on.' }),
});

export const EventSeries = t.struct('core.v1.EventSeries', {
  count: t.field(1, t.int32(), { description: 'How many times the event has occurred in the series so far.' }),
  lastObservedTime: t.field(2, t.microTime(), { description: 'When the last occurrence was observed.' }),
});

export const EventSchema = t.struct('core.v1.Event', {
  ...objectHeader,
  metadata: t.required(1, ObjectMeta, { description: "The object's standard metadata." }),
  involvedObject: t.required(2, ObjectReference, { description: 'The object the event is about.' }),
  reason: t.field(3, t.string(), { description: 'Why the event happened, as a short CamelCase word for tools.' }),
  message: t.field(4, t.string(), { description: 'What happened, for people.' }),
  source: t.field(5, EventSource, { description: 'The component that reported the event (older reporters).' }),
  firstTimestamp: t.field(6, t.time(), { description: 'When the event was first recorded.' }),
  lastTimestamp: t.field(7, t.time(), { description: 'When the event was last recorded.' }),
  count: t.field(8, t.int32(), { description: 'How many times the event has occurred.' }),
  type: t.field(9, t.string(), { description: 'Normal or Warning; new types may come.' }),
  eventTime: t.field(10, t.microTime(), { description: 'When the event was first observed, to the microsecond.' }),
  series: t.field(11, EventSeries, { pointer: true, description: 'Data about the series of events this one belongs to, when it repeats.' }),
  action: t.field(12, t.string(), { description: 'What was done (or failed) about the object.' }),
  related: t.field(13, ObjectReference, { pointer: true, description: 'A second object the event concerns, if any.' }),
  reportingComponent: t.field(14, t.string(), { always: true, description: 'The controller that emitted the event, e.g. orch.io/kubelet.' }),
  reportingInstance: t.field(15, t.string(), { always: true, description: 'The instance of that controller, e.g. kubelet-xyzf.' }),
}, { description: 'A report of an event somewhere in the cluster; kept for a limited time.' });
export type Event = ObjectOf<typeof EventSchema>;

export const eventResource = defineResource<Event>(() => ({
  group: '',
  version: 'v1',
  kind: 'Event',
  resource: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  schema: EventSchema,
  table: eventTable,
  fixture: () => ({
    involvedObject: { kind: 'Pod', namespace: 'fixture', name: 'fixture' },
    eventTime: '2024-01-02T03:04:05.123456Z',
    reportingComponent: 'fixture-controller',
    reportingInstance: 'fixture-1',
    action: 'Testing',
    reason: 'Tested',
    type: 'Normal',
    message: 'a fixture event',
  }),
  strategy: {
    // core/v1 events are only held to the path-segment rule; events/v1 adds DNS subdomain.
    nameValidator: nameValidators.pathSegment,
    allowCreateOnUpdate: true,
    selectableFieldNames: CORE_EVENT_FIELDS,
    selectableFields: eventSelectableFields,
    // Kubernetes validates an event update by its own rules only: no common `validate`.
    validateCreate: validateEventCreate,
    validateUpdate: validateEventUpdate,
  },
}));
