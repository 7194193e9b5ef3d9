/** PUT of an object or a subresource: replace it (create it where the kind allows), 200 or 201. */
import { errors } from '../../machinery/errors.js';
import type { RequestContext } from '../request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { respondValue } from '../respond.js';
import { QueryParams } from '../params.js';
import { decodeRequestObject } from './decode-object.js';
import { scopeOf } from './scope.js';

export async function handleUpdate(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): Promise<void> {
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const dryRun = q.dryRun('UpdateOptions');
  const obj = await decodeRequestObject(ctx, ep, q.fieldValidation('UpdateOptions'));
  if ((obj.metadata.name ?? '') !== info.name) {
    throw errors.badRequest(`the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${info.name})`);
  }
  if (ep.def.namespaced && obj.metadata.namespace && obj.metadata.namespace !== info.namespace) {
    throw errors.badRequest(`the namespace of the object (${obj.metadata.namespace}) does not match the namespace on the request (${info.namespace})`);
  }
  const { object, created } = await ep.store.update(scopeOf(ctx), info.name, () => obj, {
    dryRun,
    subresource: info.subresource,
    allowCreate: !info.subresource && (ep.def.strategy.allowCreateOnUpdate ?? false),
  });
  respondValue(ctx, created ? 201 : 200, object);
}
