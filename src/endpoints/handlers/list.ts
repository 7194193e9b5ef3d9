/** GET of a collection: a `<Kind>List`, one page of it with `limit`; JSON is written from stored JSON text. */
import { toServed, toServedText } from '../conversion.js';
import { writeBody } from '../../http/respond.js';
import { jsonSerializer } from '../../machinery/codec/serializers.js';
import { apiVersionOf } from '../../machinery/gvk.js';
import { listKindOf } from '../../registry/define-resource.js';
import type { ListResult } from '../../registry/store-reads.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { isPretty, negotiateOutputChoice } from '../respond.js';
import type { KubeObject } from '../../schema/index.js';
import { conversionSupport, convertList, type SourceObject } from '../transform/convert.js';
import { optionsFor, respondConverted, tableContext } from '../transform/respond-converted.js';
import { listSchemaFor } from '../list-schema.js';
import { QueryParams } from '../params.js';
import { withRequestTimeout } from './timeout.js';
import { auditResponseObject, auditResponseText } from '../../machinery/audit-record.js';

export async function handleList(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): Promise<void> {
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const choice = negotiateOutputChoice(ctx, { schema: listSchemaFor(ep.def), conversions: conversionSupport(ep) });
  const { serializer } = choice;
  if (ep.def.computed) {
    const items = await ep.def.computed({ signal: ctx.signal });
    if (choice.conversion) {
      const sources = items.map((stored): SourceObject => ({ stored, served: () => stored }));
      respondConverted(ctx, 200, choice, convertList(ep.def.table, listKindOf(ep.def), sources, {}, choice.conversion, optionsFor(ctx, choice), tableContext(ep)));
      return;
    }
    const list = { kind: listKindOf(ep.def), apiVersion: apiVersionOf(ep.def), metadata: {}, items };
    writeBody(ctx, 200, serializer.mediaType, serializer.encode(list, isPretty(ctx)));
    return;
  }
  const labels = q.labelSelector();
  const fields = q.fieldSelector(ep.def);
  const limit = q.int('limit', { min: 0 });
  const timeoutSeconds = q.int('timeoutSeconds', { min: 0 });
  const cont = q.string('continue');
  const rv = q.string('resourceVersion');
  const rvm = q.string('resourceVersionMatch');
  const sendInitialEvents = q.bool('sendInitialEvents');
  const result = await withRequestTimeout(ctx, timeoutSeconds, (signal) =>
    ep.store.list({
      namespace: info.namespace,
      signal,
      ...(labels ? { labels } : {}),
      ...(fields ? { fields } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(cont !== undefined ? { continue: cont } : {}),
      ...(rv !== undefined ? { resourceVersion: rv } : {}),
      ...(rvm !== undefined ? { resourceVersionMatch: rvm } : {}),
      ...(sendInitialEvents !== undefined ? { sendInitialEvents } : {}),
    }),
  );
  if (choice.conversion) {
    const sources = result.items.map((e): SourceObject => {
      const stored = e.object.parse<KubeObject>();
      return { stored, served: () => toServed(ep, stored) };
    });
    const value = convertList(ep.def.table, listKindOf(ep.def), sources, listMeta(result), choice.conversion, optionsFor(ctx, choice), tableContext(ep));
    respondConverted(ctx, 200, choice, value);
    return;
  }
  const pretty = isPretty(ctx);
  if (serializer === jsonSerializer && !pretty) {
    const text = listJson(ep, result);
    auditResponseText(ctx.audit, text);
    writeBody(ctx, 200, serializer.mediaType, text);
  } else {
    const value = listValue(ep, result);
    auditResponseObject(ctx.audit, value);
    writeBody(ctx, 200, serializer.mediaType, serializer.encode(value, pretty));
  }
}

function listMeta(result: ListResult): Record<string, unknown> {
  return {
    resourceVersion: result.resourceVersion,
    ...(result.continue ? { continue: result.continue } : {}),
    ...(result.remainingItemCount !== undefined ? { remainingItemCount: result.remainingItemCount } : {}),
  };
}

/** The list as JSON text, with each item's stored text spliced in unparsed. */
export function listJson(ep: ResourceEndpoint, result: ListResult): string {
  const head = `{"kind":${JSON.stringify(listKindOf(ep.def))},"apiVersion":${JSON.stringify(apiVersionOf(ep.def))},"metadata":${JSON.stringify(listMeta(result))},"items":[`;
  const parts: string[] = [head];
  result.items.forEach((item, i) => {
    if (i > 0) parts.push(',');
    parts.push(toServedText(ep, item.object).json);
  });
  parts.push(']}');
  return parts.join('');
}

export function listValue(ep: ResourceEndpoint, result: ListResult, items: unknown[] = result.items.map((e) => toServedText(ep, e.object).parse())): Record<string, unknown> {
  return { kind: listKindOf(ep.def), apiVersion: apiVersionOf(ep.def), metadata: listMeta(result), items };
}
