/** GET of one object (or of a subresource that shows the whole object, like status), or its Table row. */
import { toServed, toServedText } from '../conversion.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { negotiateOutputChoice, respondText } from '../respond.js';
import { QueryParams } from '../params.js';
import { errors } from '../../machinery/errors.js';
import type { KubeObject } from '../../schema/index.js';
import { conversionSupport, convertObject } from '../transform/convert.js';
import { optionsFor, respondConverted, tableContext } from '../transform/respond-converted.js';

export async function handleGet(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): Promise<void> {
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const choice = negotiateOutputChoice(ctx, { schema: ep.def.schema, conversions: conversionSupport(ep) });
  if (ep.def.computed) {
    const found = (await ep.def.computed({ signal: ctx.signal })).find((o) => o.metadata.name === info.name);
    if (!found) throw errors.notFound({ group: ep.def.group, resource: ep.def.resource }, info.name);
    const value = choice.conversion ? convertObject(ep.def.table, { stored: found, served: () => found }, choice.conversion, optionsFor(ctx, choice), tableContext(ep)) : found;
    respondConverted(ctx, 200, choice, value);
    return;
  }
  const entry = await ep.store.get(info.namespace, info.name, q.string('resourceVersion'), ctx.signal);
  if (!choice.conversion) {
    respondText(ctx, 200, toServedText(ep, entry.object), ep.def.schema);
    return;
  }
  const stored = entry.object.parse<KubeObject>();
  const value = convertObject(ep.def.table, { stored, served: () => toServed(ep, stored) }, choice.conversion, optionsFor(ctx, choice), tableContext(ep));
  respondConverted(ctx, 200, choice, value);
}
