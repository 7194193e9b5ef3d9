/** GET of one object (or of a subresource that shows the whole object, like status). */
import { toServedText } from '../conversion.js';
import type { RequestContext } from '../request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { respondText } from '../respond.js';
import { QueryParams } from '../params.js';

export async function handleGet(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): Promise<void> {
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const entry = await ep.store.get(info.namespace, info.name, q.string('resourceVersion'), ctx.signal);
  respondText(ctx, 200, toServedText(ep, entry.object), ep.def.schema);
}
