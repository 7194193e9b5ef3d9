/**
 * The name and namespace a URL addresses must be usable as one path segment, as Kubernetes'
 * storage key functions require (IsValidPathSegmentName): not `.` or `..`, no `/` or `%`. Checked
 * before any handler runs, so a malformed name never reaches storage, admission or a lookup.
 */
import { errors } from '../machinery/errors.js';
import { isPathSegmentName } from '../machinery/name-validation.js';
import type { ResourceRequestInfo } from './request-info.js';

/** Throws 400 for a name or namespace that cannot be a path segment. */
export function checkPathNames(info: ResourceRequestInfo): void {
  if (info.name) refuse('Name', info.name);
  // Kubernetes leaves the namespace to the lookup that fails; refusing it here says why, and
  // keeps `..` out of every storage key.
  if (info.namespace && info.namespace !== info.name) refuse('Namespace', info.namespace);
}

function refuse(what: 'Name' | 'Namespace', value: string): void {
  const problems = isPathSegmentName(value);
  if (problems.length) throw errors.badRequest(`${what} parameter invalid: ${JSON.stringify(value)}: ${problems.join(';')}`);
}
