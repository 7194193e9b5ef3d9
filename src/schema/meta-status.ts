/**
 * The meta/v1 types the API answers with besides objects: Status (every failure and some
 * deletions), WatchEvent (each frame of a watch) and Patch (the body of a PATCH). They give the
 * OpenAPI documents their response and request types; protobuf numbers follow Kubernetes.
 */
import { t } from './dsl.js';
import { ListMeta } from './meta.js';

export const StatusCause = t.struct('meta.v1.StatusCause', {
  reason: t.field(1, t.string(), { description: 'A machine-readable reason for this cause, such as FieldValueInvalid.' }),
  message: t.field(2, t.string(), { description: 'What went wrong, for a person to read.' }),
  field: t.field(3, t.string(), { description: 'The path of the field at fault, such as spec.containers[0].name, when there is one.' }),
}, { description: 'One cause of a failure, often naming the field at fault.' });

export const StatusDetails = t.struct('meta.v1.StatusDetails', {
  name: t.field(1, t.string(), { description: 'The name of the resource the status is about, when there is one.' }),
  group: t.field(2, t.string(), { description: 'The group of the resource the status is about.' }),
  kind: t.field(3, t.string(), { description: 'The kind of the resource the status is about.' }),
  uid: t.field(6, t.string(), { description: 'The UID of the resource the status is about, when known.' }),
  causes: t.field(4, t.list(StatusCause, { listType: 'atomic' }), { description: 'Further details of the failure; a validation error has one per invalid field.' }),
  retryAfterSeconds: t.field(5, t.int32(), { description: 'When set, the number of seconds a client should wait before trying again.' }),
}, { description: 'Machine-readable details of a Status, set according to its reason.' });

export const Status = t.struct('meta.v1.Status', {
  kind: t.field(undefined, t.string(), { description: 'Always Status.' }),
  apiVersion: t.field(undefined, t.string(), { description: 'Always v1.' }),
  metadata: t.field(1, ListMeta, { description: 'Standard list metadata; usually empty.' }),
  status: t.field(2, t.string(), { description: 'Success or Failure.' }),
  message: t.field(3, t.string(), { description: 'A description of the outcome, for a person to read.' }),
  reason: t.field(4, t.string(), { description: 'A machine-readable reason for a failure (NotFound, Conflict, Invalid, ...); empty when none applies.' }),
  details: t.field(5, StatusDetails, { pointer: true, description: 'Further data tied to the reason. Its shape does not depend on the reason.' }),
  code: t.field(6, t.int32(), { description: 'The HTTP status code of the answer, when there is one.' }),
}, { description: 'The outcome of a call that returns no object: every failure, and some deletions.' });

export const WatchEvent = t.struct('meta.v1.WatchEvent', {
  type: t.required(1, t.string(), { always: true, description: 'ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.' }),
  object: t.required(2, t.raw({ name: 'runtime.RawExtension' }), {
    description: 'The object the event is about: the new state for ADDED and MODIFIED, the last state for DELETED, an object with only a resourceVersion for BOOKMARK, a Status for ERROR.',
  }),
}, { description: 'One change seen by a watch.' });

export const Patch = t.struct('meta.v1.Patch', {}, { description: 'The body of a PATCH request: a JSON patch, a merge patch, a strategic merge patch or an apply configuration, as its Content-Type says.' });
