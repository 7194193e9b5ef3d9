/**
 * Interprets the resourceVersion, resourceVersionMatch, limit and continue parameters of get, list
 * and watch: every cell of document 1's three tables, with invalid combinations as a clear 400.
 */
import { errors } from '../machinery/errors.js';

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

/** Parses a resourceVersion as the server issued it: a positive decimal revision. */
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
}

export function listSemantics(p: ListParams): ReadSemantics {
  const rv = p.resourceVersion ?? '';
  const match = p.resourceVersionMatch ?? '';
  const paging = (p.limit ?? 0) > 0;
  const token = p.continue ?? '';
  if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan') {
    throw errors.badRequest(`resourceVersionMatch: Unsupported value: ${JSON.stringify(match)}: supported values: "Exact", "NotOlderThan"`);
  }
  if (match !== '' && rv === '') {
    throw errors.badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
  }
  if (token !== '') {
    if (match !== '') throw errors.badRequest('resourceVersionMatch is forbidden when continue is provided');
    // resourceVersion=0 with a continue token is invalid but served as the token (document 1).
    if (rv !== '' && rv !== '0') {
      throw errors.badRequest('specifying resource version is not allowed when using continue: send the continue token alone, with the same limit');
    }
    return { kind: 'continue', token };
  }
  if (match === 'Exact') {
    if (rv === '0') throw errors.badRequest('resourceVersionMatch "Exact" is forbidden for resourceVersion "0": name the version to read exactly');
    return { kind: 'exact', revision: parseResourceVersion(rv) };
  }
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
}

export interface WatchPlan {
  start: WatchStart;
  /** Streaming list: initial events end with a bookmark annotated as their end. */
  sendInitialEvents: boolean;
}

export function watchSemantics(p: WatchParams): WatchPlan {
  const rv = p.resourceVersion ?? '';
  const match = p.resourceVersionMatch ?? '';
  if (p.sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan') throw errors.badRequest('sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
    if (p.sendInitialEvents && !p.allowWatchBookmarks) throw errors.badRequest('sendInitialEvents requires setting allowWatchBookmarks to true');
  } else if (match !== '') {
    throw errors.badRequest('resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
  }
  if (p.sendInitialEvents) {
    if (rv === '') return { start: { kind: 'most-recent' }, sendInitialEvents: true };
    if (rv === '0') return { start: { kind: 'any' }, sendInitialEvents: true };
    return { start: { kind: 'not-older-than', revision: parseResourceVersion(rv) }, sendInitialEvents: true };
  }
  if (rv === '') return { start: { kind: 'most-recent' }, sendInitialEvents: false };
  if (rv === '0') return { start: { kind: 'any' }, sendInitialEvents: false };
  return { start: { kind: 'exact', revision: parseResourceVersion(rv) }, sendInitialEvents: false };
}
