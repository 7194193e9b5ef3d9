/**
 * POST to a kind that is never stored (the access reviews): the object is decoded, defaulted and
 * validated as any create, then the server's answerer fills in its status, and the answer comes
 * back with 201 Created, as Kubernetes answers these creates. Nothing is written; dry run changes
 * nothing here either.
 */
import { errors } from '../../machinery/errors.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { Answerer, ResourceEndpoint } from '../resource-endpoint.js';
import { negotiateWriteOutput, respondWrittenObject } from '../transform/respond-object.js';
import { QueryParams } from '../params.js';
import { decodeRequestObject } from './decode-object.js';

export async function handleAnswer(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo, answer: Answerer): Promise<void> {
  if (info.name || info.verb !== 'create') throw errors.methodNotAllowed();
  const out = negotiateWriteOutput(ctx, ep, 'object');
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  q.dryRun('CreateOptions');
  const obj = await decodeRequestObject(ctx, ep, q.fieldValidation('CreateOptions'));
  const { def } = ep;
  if (def.namespaced) {
    const ns = obj.metadata.namespace as string | undefined;
    if (ns && ns !== info.namespace) throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    obj.metadata.namespace = info.namespace;
  }
  const strategyCtx = { names: ep.names, namespace: info.namespace, subresource: '', now: new Date(), ...(ctx.user ? { user: ctx.user } : {}) };
  const problems = def.strategy.validate?.(obj, strategyCtx) ?? [];
  if (problems.length) throw errors.invalid({ group: def.group, kind: def.kind }, '', problems);
  const answered = await answer(obj, { ...(ctx.user ? { user: ctx.user } : {}), namespace: info.namespace, signal: ctx.signal });
  respondWrittenObject(ctx, ep, 201, out, { stored: answered, served: () => answered });
}
