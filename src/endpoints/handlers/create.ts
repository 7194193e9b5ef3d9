/** POST to a collection: create an object, 201 with the stored object (also under dry run). */
import { managedFieldsStep, requestManager } from '../field-manager.js';
import { errors } from '../../machinery/errors.js';
import type { ReviewContext } from '../../registry/define-resource.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { negotiateWriteOutput, respondWrittenObject, storedSource } from '../transform/respond-object.js';
import { QueryParams } from '../params.js';
import { decodeRequestObject } from './decode-object.js';
import { scopeOf } from './scope.js';
import { respondValue } from '../respond.js';
import { Status as StatusSchema } from '../../schema/index.js';

function reviewContext(ctx: RequestContext, ep: ResourceEndpoint, dryRun: boolean): ReviewContext {
  const scope = scopeOf(ctx);
  return {
    names: ep.names,
    namespace: scope.namespace,
    subresource: '',
    now: new Date(),
    signal: ctx.signal,
    dryRun,
    ...(scope.user ? { user: scope.user } : {}),
    ...(scope.groupVersion ? { requestGroupVersion: scope.groupVersion } : {}),
  };
}

export async function handleCreate(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): Promise<void> {
  if (info.name) throw errors.methodNotAllowed();
  const out = negotiateWriteOutput(ctx, ep, 'object');
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const dryRun = q.dryRun('CreateOptions');
  const manager = requestManager(ctx, q, ep, 'CreateOptions');
  const obj = await decodeRequestObject(ctx, ep, q.fieldValidation('CreateOptions'));
  if (ep.def.review) {
    // A review is answered, not stored: dry run or not, nothing is written.
    const answer = await ep.def.review(obj, reviewContext(ctx, ep, dryRun));
    if (answer.kind === 'Status') return respondValue(ctx, 201, answer, StatusSchema);
    respondWrittenObject(ctx, ep, 201, out, storedSource(ep, answer));
    return;
  }
  const created = await ep.store.create(scopeOf(ctx), obj, { dryRun, managedFields: managedFieldsStep(ep, manager, '') });
  respondWrittenObject(ctx, ep, 201, out, storedSource(ep, created));
}
