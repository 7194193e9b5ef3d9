/**
 * The Table representation of a kind: the columns `kubectl get` shows and how one object fills a
 * row. A definition names its table (ResourceDefinition.table); kinds without one get the default
 * table of Name and Created At, as Kubernetes gives kinds without a printer.
 */
import type { ApiNames } from '../machinery/api-names.js';
import { humanAge } from '../machinery/duration.js';
import type { KubeObject } from '../schema/index.js';

export interface TableColumn {
  readonly name: string;
  /** An OpenAPI type: string, integer, number, boolean or date. */
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  /** `name` marks the column holding the object's name. */
  readonly format?: string;
  readonly description: string;
  /** 0 for the default view; 1 for columns only `-o wide` shows. */
  readonly priority?: number;
}

export type TableCell = string | number | boolean | null;

/** A condition of a row (a finished pod's row says Completed, so clients may hide it). */
export interface TableRowCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

export interface TableContext {
  readonly names: ApiNames;
  /** The clock ages are measured against. */
  readonly now: Date;
}

export interface TableDefinition<T extends KubeObject = KubeObject> {
  readonly columns: readonly TableColumn[];
  /** One cell per column, in column order. Pure. */
  cells(obj: T, ctx: TableContext): TableCell[];
  conditions?(obj: T): TableRowCondition[] | undefined;
  /**
   * The order of a list Table's rows, where Kubernetes' list printer sorts them (FlowSchemas by
   * matching precedence); without it rows keep the list's order. Pure.
   */
  compareRows?(a: T, b: T): number;
}

/** Typed helper, erasing the object type for the definition that holds it. */
export function defineTable<T extends KubeObject>(table: TableDefinition<T>): TableDefinition<T> {
  return table;
}

export const nameColumn: TableColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace. Cannot be updated.',
};

export const ageColumn: TableColumn = {
  name: 'Age',
  type: 'string',
  description: 'When the object was created, as time elapsed since then.',
};

/** A string column; `priority: 1` for wide-only columns. */
export function column(name: string, description: string, opts: { type?: TableColumn['type']; priority?: number } = {}): TableColumn {
  return { name, type: opts.type ?? 'string', description, ...(opts.priority ? { priority: opts.priority } : {}) };
}

/** The default table: Name and Created At (RFC 3339, UTC). */
export const defaultTable: TableDefinition = {
  columns: [nameColumn, { name: 'Created At', type: 'date', description: 'When the object was created (RFC 3339, UTC).' }],
  cells: (obj) => [obj.metadata.name ?? '', createdAt(obj.metadata.creationTimestamp)],
};

function createdAt(ts: string | undefined): string {
  const t = ts ? Date.parse(ts) : NaN;
  // Go prints a zero time as its year-one value.
  return Number.isNaN(t) ? '0001-01-01T00:00:00Z' : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function age(obj: KubeObject, ctx: TableContext): string {
  return humanAge(obj.metadata.creationTimestamp, ctx.now);
}
