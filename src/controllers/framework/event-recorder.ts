/**
 * Records core/v1 Events about objects, as client-go's event recorder does for a controller: one
 * Event per call (no aggregation), in the object's namespace (`default` for cluster-scoped objects),
 * named `<object>.<hex nanoseconds>`, with the reporting component in `source` and
 * `reportingComponent`. Events are stored once and served by both core/v1 and events.<domain>/v1.
 * Recording never throws and never blocks its caller: a refused or failed write is logged at debug.
 */
import { randomBytes } from 'node:crypto';
import type { InProcessClient } from '../../client/in-process-client.js';
import type { Logger } from '../../machinery/logger.js';
import type { KubeObject } from '../../schema/index.js';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  /** Records `reason`/`message` about `object` (its apiVersion, kind and metadata are read). */
  event(object: KubeObject, type: EventType, reason: string, message: string): void;
}

/** `2006-01-02T15:04:05Z`, the seconds precision of firstTimestamp and lastTimestamp. */
const seconds = (d: Date): string => `${d.toISOString().slice(0, 19)}Z`;

/** The event's name suffix: the time in nanoseconds as hex, as client-go makes it, plus noise so two in one millisecond differ. */
function nameSuffix(now: Date): string {
  const nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(randomBytes(2).readUInt16BE(0));
  return nanos.toString(16);
}

export function createEventRecorder(deps: { client: InProcessClient; component: string; host?: string; log: Logger }): EventRecorder {
  const events = (): ReturnType<InProcessClient['resource']> => deps.client.resource('', 'events');
  return {
    event(object, type, reason, message) {
      const now = new Date();
      const meta = object.metadata;
      const namespace = meta.namespace || 'default';
      const event = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${meta.name ?? ''}.${nameSuffix(now)}`, namespace },
        involvedObject: {
          apiVersion: object.apiVersion,
          kind: object.kind,
          name: meta.name,
          ...(meta.namespace ? { namespace: meta.namespace } : {}),
          ...(meta.uid ? { uid: meta.uid } : {}),
          ...(meta.resourceVersion ? { resourceVersion: meta.resourceVersion } : {}),
        },
        reason,
        message,
        source: { component: deps.component, ...(deps.host ? { host: deps.host } : {}) },
        firstTimestamp: seconds(now),
        lastTimestamp: seconds(now),
        count: 1,
        type,
        eventTime: null,
        reportingComponent: deps.component,
        reportingInstance: deps.host ?? '',
      } as unknown as KubeObject;
      void events()
        .create(namespace, event)
        .catch((e: unknown) => deps.log.debug('an event could not be recorded', { reason, object: meta.name, error: e instanceof Error ? e.message : String(e) }));
    },
  };
}
