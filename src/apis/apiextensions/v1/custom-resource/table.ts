/**
 * A custom resource's Table: Name, then the version's additionalPrinterColumns evaluated by their
 * JSONPath, cells typed as Kubernetes types them (dates as ages); without columns, Age.
 */
import { humanAge } from '../../../../machinery/duration.js';
import { defineTable, nameColumn, type TableDefinition } from '../../../../registry/define-resource.js';
import type { KubeObject } from '../../../../schema/index.js';
import type { CrdColumn } from '../types.js';
import { evaluateJsonPath, parseJsonPath } from './jsonpath.js';

const AGE: CrdColumn = {
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
};

type Cell = string | number | boolean | null;

function cellOf(type: string, value: unknown, now: Date): Cell {
  if (value === undefined) return null;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? (Number.isNaN(Date.parse(value)) ? '<invalid>' : humanAge(value, now)) : null;
    default:
      return null;
  }
}

export function customResourceTable(columns: readonly CrdColumn[]): TableDefinition {
  const shown = columns.length ? columns : [AGE];
  const paths = shown.map((c) => {
    try {
      return parseJsonPath(c.jsonPath);
    } catch {
      return undefined;
    }
  });
  return defineTable<KubeObject>({
    columns: [
      nameColumn,
      ...shown.map((c) => ({
        name: c.name,
        type: (['string', 'integer', 'number', 'boolean', 'date'].includes(c.type) ? c.type : 'string') as 'string',
        ...(c.format ? { format: c.format } : {}),
        description: c.description ?? '',
        priority: c.priority ?? 0,
      })),
    ],
    cells: (obj, ctx) => [
      obj.metadata.name ?? '',
      ...shown.map((c, i) => {
        const steps = paths[i];
        return steps ? cellOf(c.type, evaluateJsonPath(steps, obj)[0], ctx.now) : null;
      }),
    ],
  });
}
