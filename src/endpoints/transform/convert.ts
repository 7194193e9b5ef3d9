/**
 * The conversions a client may ask for in Accept (`as=Table`, `as=PartialObjectMetadata`,
 * `as=PartialObjectMetadataList`), applied to what get, list and watch read. Rows are made from
 * the stored object (the kind's table is written against it); the object a row carries is the
 * served one, or its metadata.
 */
import { StatusError } from '../../machinery/errors.js';
import type { KubeObject } from '../../schema/index.js';
import { defaultTable, type TableContext, type TableDefinition } from '../../registry/table.js';
import type { Conversion, ConversionSupport } from '../respond.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import type { TableOptions } from './table-options.js';

/** One object to convert: as stored (for table cells) and as served (for the object a row carries). */
export interface SourceObject {
  readonly stored: KubeObject;
  served(): KubeObject;
}

export interface ListMetaValue {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** Every resource endpoint can answer a Table and metadata-only objects. */
export function conversionSupport(ep: ResourceEndpoint): ConversionSupport {
  return { metaGroup: ep.names.metaGroup, table: true, partialObjectMetadata: true };
}

function notAcceptable(message: string): StatusError {
  return new StatusError(406, 'NotAcceptable', message);
}

function metaApiVersion(c: Conversion): string {
  return `${c.group}/${c.version}`;
}

function partialOf(obj: KubeObject, c: Conversion): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: metaApiVersion(c), metadata: obj.metadata };
}

function rowObject(source: SourceObject, c: Conversion, options: TableOptions): unknown {
  switch (options.includeObject) {
    case 'Object':
      return source.served();
    case 'None':
      return null;
    default:
      return partialOf(source.served(), c);
  }
}

/** A Table of the objects; lists keep their paging fields, a single object its resourceVersion. */
export function buildTable(
  table: TableDefinition | undefined,
  sources: readonly SourceObject[],
  meta: ListMetaValue,
  c: Conversion,
  options: TableOptions,
  ctx: TableContext,
): Record<string, unknown> {
  const def = table ?? defaultTable;
  const compare = def.compareRows;
  const ordered = compare && sources.length > 1 ? [...sources].sort((a, b) => compare(a.stored, b.stored)) : sources;
  return {
    kind: 'Table',
    apiVersion: metaApiVersion(c),
    metadata: meta,
    // Go's nil slice: later watch events carry no column definitions.
    columnDefinitions: options.noHeaders
      ? null
      : def.columns.map((col) => ({ name: col.name, type: col.type, format: col.format ?? '', description: col.description, priority: col.priority ?? 0 })),
    rows: ordered.map((source) => {
      const conditions = def.conditions?.(source.stored);
      return {
        cells: def.cells(source.stored, ctx),
        ...(conditions?.length ? { conditions } : {}),
        object: rowObject(source, c, options),
      };
    }),
  };
}

/** The answer for one object (get, a watch event): a one-row Table or its metadata. */
export function convertObject(
  table: TableDefinition | undefined,
  source: SourceObject,
  c: Conversion,
  options: TableOptions,
  ctx: TableContext,
): Record<string, unknown> {
  if (c.kind === 'Table') {
    const rv = source.stored.metadata.resourceVersion;
    return buildTable(table, [source], rv ? { resourceVersion: rv } : {}, c, options, ctx);
  }
  if (c.kind === 'PartialObjectMetadata') return partialOf(source.served(), c);
  throw notAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (${source.stored.kind ?? 'object'})`);
}

/** The answer for a list: a Table or a PartialObjectMetadataList. */
export function convertList(
  table: TableDefinition | undefined,
  listKind: string,
  sources: readonly SourceObject[],
  meta: ListMetaValue,
  c: Conversion,
  options: TableOptions,
  ctx: TableContext,
): Record<string, unknown> {
  if (c.kind === 'Table') return buildTable(table, sources, meta, c, options, ctx);
  if (c.kind === 'PartialObjectMetadataList') {
    return { kind: 'PartialObjectMetadataList', apiVersion: metaApiVersion(c), metadata: meta, items: sources.map((s) => partialOf(s.served(), c)) };
  }
  throw notAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (${listKind})`);
}
