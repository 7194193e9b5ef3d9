/** PUT of an object or a subresource: replace it (create it where the kind allows), 200 or 201. */
import { managedFieldsStep, requestManager } from '../field-manager.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { negotiateWriteOutput, respondWrittenObject, storedSource } from '../transform/respond-object.js';
import { QueryParams } from '../params.js';
import { checkName } from './check-name.js';
import { decodeRequestObject } from './decode-object.js';
import { scopeOf } from './scope.js';

export async function handleUpdate(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): Promise<void> {
  const out = negotiateWriteOutput(ctx, ep, 'object');
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const dryRun = q.dryRun('UpdateOptions');
  const manager = requestManager(ctx, q, ep, 'UpdateOptions');
  const obj = await decodeRequestObject(ctx, ep, q.fieldValidation('UpdateOptions'));
  checkName(obj, ep, info);
  const { object, created } = await ep.store.update(scopeOf(ctx), info.name, () => obj, {
    dryRun,
    managedFields: managedFieldsStep(ep, manager, info.subresource),
    // A uid in the body is a precondition (Kubernetes' DefaultUpdatedObjectInfo); a patch has none.
    ...(obj.metadata.uid ? { preconditions: { uid: obj.metadata.uid } } : {}),
    subresource: info.subresource,
    allowCreate: !info.subresource && (ep.def.strategy.allowCreateOnUpdate ?? false),
  });
  respondWrittenObject(ctx, ep, created ? 201 : 200, out, storedSource(ep, object));
}
