/**
 * Interprets the resourceVersion, resourceVersionMatch, limit and continue parameters of get, list
 * and watch: every cell of document 1's three tables.
 *
 * Combinations the tables mark invalid fail validation the way Kubernetes validates ListOptions:
 * 422 Invalid naming `ListOptions.<metaGroup>` with one cause per problem. The one cell document 1
 * gives a code (a continue token with a non-zero resourceVersion) is a 400 Bad Request, as is a
 * resourceVersion this server never issued. Nothing here does I/O.
 */
import { errors, StatusError } from '../machinery/errors.js';
import { fieldErr, type FieldError } from '../machinery/field-errors.js';

export type ReadSemantics =
  | { kind: 'most-recent' }
  | { kind: 'any' }
  | { kind: 'not-older-than'; revision: number }
  | { kind: 'exact'; revision: number }
  | { kind: 'continue'; token: string };

export type WatchStart =
  | { kind: 'most-recent' } // Get State and Start at Most Recent
  | { kind: 'any' } // Get State and Start at Any
  | { kind: 'not-older-than'; revision: number } // streaming list: state not older than the revision
  | { kind: 'exact'; revision: number }; // Start at Exact

/** Parses a resourceVersion as the server issued it: a decimal revision (0 means "any"). */
export function parseResourceVersion(rv: string, param = 'resourceVersion'): number {
  if (!/^\d+$/.test(rv) || rv.length > 15) {
    throw errors.badRequest(`invalid ${param} ${JSON.stringify(rv)}: a resourceVersion is the decimal number the server returned in metadata.resourceVersion`);
  }
  return Number(rv);
}

export function getSemantics(resourceVersion: string | undefined): ReadSemantics {
  if (resourceVersion === undefined || resourceVersion === '') return { kind: 'most-recent' };
  if (resourceVersion === '0') return { kind: 'any' };
  return { kind: 'not-older-than', revision: parseResourceVersion(resourceVersion) };
}

export interface ListParams {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
  /** Only meaningful for watch; a list that carries it is invalid. */
  sendInitialEvents?: boolean;
}

/** The ListOptions problems of a list (not a watch), as Kubernetes reports them. */
export function validateListOptions(p: ListParams): FieldError[] {
  const errs: FieldError[] = [];
  const match = p.resourceVersionMatch ?? '';
  if (match !== '') {
    if ((p.resourceVersion ?? '') === '') errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if ((p.continue ?? '') !== '') errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(fieldErr.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && p.resourceVersion === '0') {
      errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (p.sendInitialEvents !== undefined) errs.push(fieldErr.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errs;
}

/**
 * The project's issue asks for a 400 on invalid combinations (document 1 states a code only for one
 * cell); the message and causes are Kubernetes' ListOptions validation text.
 */
function invalidOptions(metaGroup: string, errs: FieldError[]): never {
  const invalid = errors.invalid({ group: metaGroup, kind: 'ListOptions' }, '', errs).status;
  throw new StatusError(400, 'BadRequest', invalid.message ?? '', invalid.details);
}

/**
 * The semantics of a list. Throws 400 (ListOptions validation text) for the invalid cells, and 400 for a
 * continue token with a non-zero resourceVersion or a malformed resourceVersion.
 */
export function listSemantics(p: ListParams, metaGroup: string): ReadSemantics {
  const errs = validateListOptions(p);
  if (errs.length) invalidOptions(metaGroup, errs);
  const rv = p.resourceVersion ?? '';
  const match = p.resourceVersionMatch ?? '';
  const paging = (p.limit ?? 0) > 0;
  const token = p.continue ?? '';
  if (token !== '') {
    // resourceVersion=0 with a continue token is invalid but served as the token (document 1).
    if (rv !== '' && rv !== '0') throw errors.badRequest('specifying resource version is not allowed when using continue');
    return { kind: 'continue', token };
  }
  if (match === 'Exact') return { kind: 'exact', revision: parseResourceVersion(rv) };
  if (match === 'NotOlderThan') {
    if (rv === '0') return { kind: 'any' };
    return { kind: 'not-older-than', revision: parseResourceVersion(rv) };
  }
  if (rv === '') return { kind: 'most-recent' };
  if (rv === '0') return { kind: 'any' };
  const revision = parseResourceVersion(rv);
  return paging ? { kind: 'exact', revision } : { kind: 'not-older-than', revision };
}

export interface WatchParams {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  sendInitialEvents?: boolean;
  allowWatchBookmarks?: boolean;
  continue?: string;
}

export interface WatchPlan {
  start: WatchStart;
  /** Begin with synthetic ADDED events for the state at the start. */
  initialEvents: boolean;
  /** Streaming list: the initial events end with a bookmark annotated as their end. */
  initialEventsEndBookmark: boolean;
}

/** The ListOptions problems of a watch, as Kubernetes reports them. */
export function validateWatchOptions(p: WatchParams): FieldError[] {
  const errs: FieldError[] = [];
  const match = p.resourceVersionMatch ?? '';
  if (p.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    errs.push(fieldErr.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (match !== '') {
    if (p.sendInitialEvents === undefined) errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errs.push(fieldErr.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    if ((p.continue ?? '') !== '') errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}

/**
 * Where a watch starts and whether it sends the state first. Without sendInitialEvents these are
 * document 1's three cells; `sendInitialEvents=true` sends the state not older than the version
 * (a streaming list), `sendInitialEvents=false` starts without state: at the newest version for
 * unset or "0", after the given version otherwise.
 */
export function watchSemantics(p: WatchParams, metaGroup: string): WatchPlan {
  const errs = validateWatchOptions(p);
  if (errs.length) invalidOptions(metaGroup, errs);
  const rv = p.resourceVersion ?? '';
  if (p.sendInitialEvents === true) {
    const initialEventsEndBookmark = !!p.allowWatchBookmarks;
    if (rv === '') return { start: { kind: 'most-recent' }, initialEvents: true, initialEventsEndBookmark };
    if (rv === '0') return { start: { kind: 'any' }, initialEvents: true, initialEventsEndBookmark };
    return { start: { kind: 'not-older-than', revision: parseResourceVersion(rv) }, initialEvents: true, initialEventsEndBookmark };
  }
  if (p.sendInitialEvents === false) {
    if (rv === '') return { start: { kind: 'most-recent' }, initialEvents: false, initialEventsEndBookmark: false };
    if (rv === '0') return { start: { kind: 'any' }, initialEvents: false, initialEventsEndBookmark: false };
    return { start: { kind: 'exact', revision: parseResourceVersion(rv) }, initialEvents: false, initialEventsEndBookmark: false };
  }
  if (rv === '') return { start: { kind: 'most-recent' }, initialEvents: true, initialEventsEndBookmark: false };
  if (rv === '0') return { start: { kind: 'any' }, initialEvents: true, initialEventsEndBookmark: false };
  return { start: { kind: 'exact', revision: parseResourceVersion(rv) }, initialEvents: false, initialEventsEndBookmark: false };
}
