/** Writing a converted answer (a Table, metadata only) in the negotiated format. */
import { writeBody } from '../../http/respond.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { isPretty, type OutputChoice } from '../respond.js';
import type { TableContext } from '../../registry/table.js';
import { tableOptionsOf, type TableOptions } from './table-options.js';
import { auditResponseObject } from '../../machinery/audit-record.js';

export function respondConverted(ctx: RequestContext, code: number, choice: OutputChoice, value: unknown): void {
  auditResponseObject(ctx.audit, value);
  writeBody(ctx, code, choice.serializer.mediaType, choice.serializer.encode(value, isPretty(ctx)));
}

/** The table options of a Table request; the other conversions take none (Kubernetes reads them only for Table). */
export function optionsFor(ctx: RequestContext, choice: OutputChoice): TableOptions {
  return choice.conversion?.kind === 'Table' ? tableOptionsOf(ctx.url.searchParams) : { includeObject: 'Metadata', noHeaders: false };
}

export function tableContext(ep: ResourceEndpoint): TableContext {
  return { names: ep.names, now: new Date() };
}
