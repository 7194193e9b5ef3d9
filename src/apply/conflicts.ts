/**
 * Apply conflicts as the 409 Conflict Kubernetes answers: one cause per field (reason
 * FieldManagerConflict, the field path, `conflict with "manager"`), and a message listing them
 * grouped by manager. Pure.
 */
import { StatusError } from '../machinery/errors.js';
import { parseIdentifier } from './managed-fields.js';
import { compareElements, pathToString, type PathElement } from './path.js';
import type { Conflict } from './updater.js';

/** A manager as conflicts name it: `"m"`, `"m" with subresource "status"`, `"m" using apps/v1`. */
export function describeManager(id: string): string {
  const info = parseIdentifier(id);
  let text = JSON.stringify(info.manager ?? '');
  if (info.subresource) text += ` with subresource ${JSON.stringify(info.subresource)}`;
  if (info.operation === 'Update') text += ` using ${info.apiVersion ?? ''}`;
  return text;
}

function comparePaths(a: Conflict, b: Conflict): number {
  for (let i = 0; i < Math.min(a.path.length, b.path.length); i++) {
    const c = compareElements(a.path[i] as PathElement, b.path[i] as PathElement);
    if (c !== 0) return c;
  }
  return a.path.length - b.path.length;
}

/** Conflicts sorted by manager identifier, then by path. */
export function sortConflicts(conflicts: readonly Conflict[]): Conflict[] {
  return [...conflicts].sort((a, b) => (a.manager < b.manager ? -1 : a.manager > b.manager ? 1 : comparePaths(a, b)));
}

export function conflictMessage(conflicts: readonly Conflict[]): string {
  const sorted = sortConflicts(conflicts);
  if (sorted.length === 1) {
    const [c] = sorted as [Conflict];
    return `Apply failed with 1 conflict: conflict with ${describeManager(c.manager)}: ${pathToString(c.path)}`;
  }
  const lines: string[] = [];
  let current: string | undefined;
  for (const c of sorted) {
    if (c.manager !== current) {
      current = c.manager;
      lines.push(`conflicts with ${describeManager(c.manager)}:`);
    }
    lines.push(`- ${pathToString(c.path)}`);
  }
  return `Apply failed with ${sorted.length} conflicts: ${lines.join('\n')}`;
}

export function applyConflictError(conflicts: readonly Conflict[]): StatusError {
  return new StatusError(409, 'Conflict', conflictMessage(conflicts), {
    causes: sortConflicts(conflicts).map((c) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with ${describeManager(c.manager)}`,
      field: pathToString(c.path),
    })),
  });
}
