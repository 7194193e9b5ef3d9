/**
 * The answers of writes (create, update, patch, apply, delete, deletecollection), as Kubernetes'
 * transformResponseObject makes them: the returned object served as is, or converted to a Table or
 * metadata when Accept asks for it; a Status is never converted. The output is negotiated before
 * the write, so a 406 or a bad table option changes nothing.
 */
import { toServed } from '../conversion.js';
import { StatusError } from '../../machinery/errors.js';
import { jsonSerializer } from '../../machinery/codec/serializers.js';
import { listKindOf } from '../../registry/define-resource.js';
import type { TableDefinition } from '../../registry/table.js';
import { Status as StatusSchema, type KubeObject, type StructSchema } from '../../schema/index.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { isProtobuf, negotiateOutputChoice, protobufFor, type OutputChoice } from '../respond.js';
import { conversionSupport, convertList, convertObject, type ListMetaValue, type SourceObject } from './convert.js';
import { optionsFor, respondConverted, tableContext } from './respond-converted.js';
import type { TableOptions } from './table-options.js';

/** What a write answers in: the serializer, any conversion, and its (already validated) table options. */
export interface WriteOutput {
  readonly choice: OutputChoice;
  readonly options: TableOptions;
}

/**
 * Negotiates the answer of a write. `returns` says what it answers with: one object of `schema`
 * (create, update, patch), a list of them (deletecollection), or either an object or a Status
 * (delete, whose answer is known only after it). A metadata conversion of the wrong shape is
 * refused here, before the write, where Kubernetes refuses it after.
 */
export function negotiateWriteOutput(ctx: RequestContext, ep: ResourceEndpoint, returns: 'object' | 'list' | 'objectOrStatus', schema: StructSchema = ep.def.schema): WriteOutput {
  const choice = negotiateOutputChoice(ctx, { schema, conversions: conversionSupport(ep) });
  const kind = choice.conversion?.kind;
  if (returns === 'object' && kind === 'PartialObjectMetadataList') {
    throw new StatusError(406, 'NotAcceptable', `you requested PartialObjectMetadataList, but the requested object is not a list (${ep.def.kind})`);
  }
  if (returns === 'list' && kind === 'PartialObjectMetadata') {
    throw new StatusError(406, 'NotAcceptable', `you requested PartialObjectMetadata, but the requested object is a list (${listKindOf(ep.def)})`);
  }
  return { choice, options: optionsFor(ctx, choice) };
}

/** The object a write returns, served or converted (`table`: the kind's, or a view's). */
export function respondWrittenObject(
  ctx: RequestContext,
  ep: ResourceEndpoint,
  code: number,
  out: WriteOutput,
  source: SourceObject,
  table: TableDefinition | undefined = ep.def.table,
): void {
  const { choice } = out;
  const value = choice.conversion ? convertObject(table, source, choice.conversion, out.options, tableContext(ep)) : source.served();
  respondConverted(ctx, code, choice, value);
}

/** A stored object the endpoint returns: rows are made from it, the row's object is the served one. */
export function storedSource(ep: ResourceEndpoint, stored: KubeObject): SourceObject {
  return { stored, served: () => toServed(ep, stored) };
}

/** The deleted objects of a deletecollection, as a list or converted. */
export function respondWrittenList(ctx: RequestContext, ep: ResourceEndpoint, out: WriteOutput, sources: readonly SourceObject[], meta: ListMetaValue, list: () => unknown): void {
  const { choice } = out;
  const value = choice.conversion ? convertList(ep.def.table, listKindOf(ep.def), sources, meta, choice.conversion, out.options, tableContext(ep)) : list();
  respondConverted(ctx, 200, choice, value);
}

/**
 * A Status a write answers with: never converted (Kubernetes passes it through), written in the
 * negotiated format; protobuf with the Status' own schema.
 */
export function respondWriteStatus(ctx: RequestContext, code: number, out: WriteOutput, status: unknown): void {
  const s = isProtobuf(ctx, out.choice.serializer) ? (protobufFor(ctx, StatusSchema) ?? jsonSerializer) : out.choice.serializer;
  respondConverted(ctx, code, { serializer: s }, status);
}
