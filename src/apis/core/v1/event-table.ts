/**
 * Event columns (core/v1 and events/v1 alike, since both are stored as core/v1 Events): LAST SEEN,
 * TYPE, REASON, OBJECT, MESSAGE; SUBOBJECT, SOURCE, FIRST SEEN, COUNT and NAME for -o wide.
 */
import { humanAge } from '../../../machinery/duration.js';
import { column, defineTable } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/index.js';

type EventShape = KubeObject & {
  involvedObject?: { kind?: string; name?: string; fieldPath?: string };
  type?: string;
  reason?: string;
  message?: string;
  source?: { component?: string; host?: string };
  reportingComponent?: string;
  reportingInstance?: string;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  count?: number;
  series?: { count?: number; lastObservedTime?: string | null };
};

function source(e: EventShape): string {
  const component = e.source?.component || e.reportingComponent || '';
  const instance = e.source?.host || e.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

export const eventTable = defineTable<EventShape>({
  columns: [
    column('Last Seen', 'When the event was last seen'),
    column('Type', 'Normal or Warning'),
    column('Reason', 'Why the event happened, in a short machine-readable word'),
    column('Object', 'The object the event is about, as kind/name'),
    column('Subobject', 'The part of the object the event is about', { priority: 1 }),
    column('Source', 'The component (and host) that reported the event', { priority: 1 }),
    column('Message', 'What happened, for people to read'),
    column('First Seen', 'When the event was first seen', { priority: 1 }),
    column('Count', 'How many times the event was seen', { priority: 1 }),
    { ...column('Name', 'The name of the event', { priority: 1 }), format: 'name' },
  ],
  cells: (e, ctx) => {
    const first = e.firstTimestamp ? humanAge(e.firstTimestamp, ctx.now) : humanAge(e.eventTime, ctx.now);
    let last = e.lastTimestamp ? humanAge(e.lastTimestamp, ctx.now) : first;
    let count = e.count ?? 0;
    if (e.series) {
      last = humanAge(e.series.lastObservedTime, ctx.now);
      count = e.series.count ?? 0;
    } else if (count === 0) {
      // Events of the new API seen once carry no count.
      count = 1;
    }
    const kind = (e.involvedObject?.kind ?? '').toLowerCase();
    const target = e.involvedObject?.name ? `${kind}/${e.involvedObject.name}` : kind;
    return [last, e.type ?? '', e.reason ?? '', target, e.involvedObject?.fieldPath ?? '', source(e), (e.message ?? '').trim(), first, count, e.metadata.name ?? ''];
  },
});
