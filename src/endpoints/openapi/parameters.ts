/**
 * The request parameters the API accepts, as the OpenAPI documents describe them, and which of
 * them each kind of operation takes. Clients read these lists: kubectl, for one, looks for
 * `fieldValidation` among a PATCH operation's parameters to learn that the server validates fields.
 */

export interface ParameterSpec {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly type: 'string' | 'integer' | 'boolean';
  readonly description: string;
  readonly required?: boolean;
}

const q = (name: string, type: ParameterSpec['type'], description: string): ParameterSpec => ({ name, in: 'query', type, description });

export const PARAMETERS = {
  pretty: q('pretty', 'string', "If 'true', the output is indented for reading. When absent, it is indented for browsers, curl and wget only."),
  dryRun: q('dryRun', 'string', 'When set to All, the request runs every stage (admission, validation) but persists nothing. Other values are refused.'),
  fieldManager: q('fieldManager', 'string', 'The name of the actor making the change, recorded in managedFields: at most 128 printable characters. Required for apply patches.'),
  fieldValidation: q('fieldValidation', 'string', 'What to do with unknown or duplicate fields in the body: Ignore drops them silently, Warn (the default) drops them with a Warning header each, Strict fails the request with BadRequest naming them all.'),
  force: q('force', 'boolean', 'For apply patches only: take over fields other managers own instead of failing with a conflict. Must be unset for other patch types.'),
  labelSelector: q('labelSelector', 'string', 'Only objects whose labels match this selector. Defaults to everything.'),
  fieldSelector: q('fieldSelector', 'string', 'Only objects whose fields match this selector. Defaults to everything.'),
  limit: q('limit', 'integer', 'The most objects to return. When more exist, the list metadata carries a continue token for the next page; pages of one list are served from the same consistent snapshot.'),
  continue: q('continue', 'string', 'The continue token of a previous page, to get the next page of the same list. An expired token is refused with 410 Gone.'),
  resourceVersion: q('resourceVersion', 'string', 'Constrains which resource version the request may be served from; see resourceVersionMatch. Unset means the most recent.'),
  resourceVersionMatch: q('resourceVersionMatch', 'string', 'How resourceVersion applies to a list: NotOlderThan or Exact. Should be set whenever resourceVersion is.'),
  watch: q('watch', 'boolean', 'Watch for changes to the selected objects and stream them as add, update and delete events, starting after resourceVersion.'),
  allowWatchBookmarks: q('allowWatchBookmarks', 'boolean', 'Ask for BOOKMARK events that carry only a resource version. The server sends them at its discretion. Ignored unless watching.'),
  sendInitialEvents: q('sendInitialEvents', 'boolean', 'With watch=true: start the stream with the current state as ADDED events, then a bookmark marking its end. Requires resourceVersionMatch=NotOlderThan.'),
  timeoutSeconds: q('timeoutSeconds', 'integer', 'The most seconds a list or watch call may last, whatever happens on it.'),
  gracePeriodSeconds: q('gracePeriodSeconds', 'integer', "Seconds before the object is deleted; 0 deletes at once. Unset uses the kind's default. Must not be negative."),
  orphanDependents: q('orphanDependents', 'boolean', 'Deprecated in favour of propagationPolicy: whether dependents are orphaned. Setting both is refused.'),
  propagationPolicy: q('propagationPolicy', 'string', 'How dependents are deleted: Orphan leaves them, Background deletes them after the owner, Foreground before it.'),
} as const satisfies Record<string, ParameterSpec>;

export function pathParameter(name: 'name' | 'namespace', description: string): ParameterSpec {
  return { name, in: 'path', type: 'string', description, required: true };
}

const P = PARAMETERS;

/** The query parameters of a list (and of the deprecated watch paths), sorted by name as Kubernetes lists them. */
export const LIST_PARAMETERS: readonly ParameterSpec[] = [
  P.allowWatchBookmarks, P.continue, P.fieldSelector, P.labelSelector, P.limit, P.resourceVersion,
  P.resourceVersionMatch, P.sendInitialEvents, P.timeoutSeconds, P.watch,
];
export const WRITE_PARAMETERS: readonly ParameterSpec[] = [P.dryRun, P.fieldManager, P.fieldValidation];
export const PATCH_PARAMETERS: readonly ParameterSpec[] = [P.dryRun, P.fieldManager, P.fieldValidation, P.force];
export const DELETE_PARAMETERS: readonly ParameterSpec[] = [P.dryRun, P.gracePeriodSeconds, P.orphanDependents, P.propagationPolicy];
export const DELETE_COLLECTION_PARAMETERS: readonly ParameterSpec[] = [
  P.continue, P.dryRun, P.fieldSelector, P.gracePeriodSeconds, P.labelSelector, P.limit, P.orphanDependents,
  P.propagationPolicy, P.resourceVersion, P.resourceVersionMatch, P.sendInitialEvents, P.timeoutSeconds,
];
