/**
 * DELETE of one object, and of a collection. A deleted object answers with a Success Status (or
 * the object, for kinds that return it); an object that finalizers keep answers with itself.
 */
import { toServed } from '../conversion.js';
import { errors } from '../../machinery/errors.js';
import { DecodeError, decodeObject, DeleteOptions } from '../../schema/index.js';
import { listSchemaFor } from '../list-schema.js';
import type { DeleteOptions as DeleteOptionsType } from '../../schema/index.js';
import type { RequestContext } from '../../machinery/request-context.js';
import type { ResourceRequestInfo } from '../request-info.js';
import type { ResourceEndpoint } from '../resource-endpoint.js';
import { negotiateWriteOutput, respondWriteStatus, respondWrittenList, respondWrittenObject, storedSource } from '../transform/respond-object.js';
import { QueryParams } from '../params.js';
import { readOptionalBody } from './decode-object.js';
import { listValue } from './list.js';
import { scopeOf } from './scope.js';
import { withRequestTimeout } from './timeout.js';
import { auditRequestObject } from '../../machinery/audit-record.js';

/** DeleteOptions from the query, overridden by a body when one is sent. */
async function deleteOptions(ctx: RequestContext, ep: ResourceEndpoint, q: QueryParams): Promise<{ options: DeleteOptionsType; dryRun: boolean }> {
  const options: DeleteOptionsType = {};
  const grace = q.int('gracePeriodSeconds');
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  const policy = q.string('propagationPolicy');
  if (policy) options.propagationPolicy = policy;
  const orphan = q.bool('orphanDependents');
  if (orphan !== undefined) options.orphanDependents = orphan;
  let dryRun = q.dryRun('DeleteOptions');
  const body = await readOptionalBody(ctx, ep, DeleteOptions);
  if (body !== undefined) {
    auditRequestObject(ctx.audit, body);
    let decoded: DeleteOptionsType;
    try {
      decoded = decodeObject<DeleteOptionsType>(DeleteOptions, body).value;
    } catch (e) {
      if (e instanceof DecodeError) throw errors.badRequest(`DeleteOptions cannot be decoded: ${e.message}`);
      throw e;
    }
    const { kind: _k, apiVersion: _a, ...rest } = decoded as DeleteOptionsType & { kind?: string; apiVersion?: string };
    Object.assign(options, rest);
    if ((decoded.dryRun ?? []).length) dryRun = true;
  }
  return { options, dryRun };
}

export async function handleDelete(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): Promise<void> {
  if (info.subresource) throw errors.methodNotAllowed();
  const out = negotiateWriteOutput(ctx, ep, 'objectOrStatus');
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const { options, dryRun } = await deleteOptions(ctx, ep, q);
  const { object, deleted } = await ep.store.delete(scopeOf(ctx), info.name, options, { dryRun });
  if (deleted && !ep.def.strategy.returnDeletedObject) {
    respondWriteStatus(ctx, 200, out, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: info.name, ...(ep.def.group ? { group: ep.def.group } : {}), kind: ep.def.resource, uid: object.metadata.uid },
    });
    return;
  }
  // Kubernetes answers 202 for an object still pending only when the caller asked for cascading
  // deletion the old way (orphanDependents=false); every other pending delete answers 200.
  respondWrittenObject(ctx, ep, !deleted && options.orphanDependents === false ? 202 : 200, out, storedSource(ep, object));
}

export async function handleDeleteCollection(ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo): Promise<void> {
  const out = negotiateWriteOutput(ctx, ep, 'list', listSchemaFor(ep.def));
  const q = new QueryParams(ctx.url.searchParams, ep.names.metaGroup);
  const { options, dryRun } = await deleteOptions(ctx, ep, q);
  const labels = q.labelSelector();
  const fields = q.fieldSelector(ep.def);
  const limit = q.int('limit', { min: 0 });
  const cont = q.string('continue');
  const rv = q.string('resourceVersion');
  const rvm = q.string('resourceVersionMatch');
  const deleted = await withRequestTimeout(ctx, q.int('timeoutSeconds', { min: 0 }), async (signal) => {
    const selected = await ep.store.list({
      namespace: info.namespace,
      signal,
      ...(labels ? { labels } : {}),
      ...(fields ? { fields } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(cont !== undefined ? { continue: cont } : {}),
      ...(rv !== undefined ? { resourceVersion: rv } : {}),
      ...(rvm !== undefined ? { resourceVersionMatch: rvm } : {}),
    });
    const objects = await ep.store.deleteCollection({ ...scopeOf(ctx), signal }, selected.items, options, { dryRun });
    return { selected, objects };
  });
  const meta = { resourceVersion: deleted.selected.resourceVersion };
  respondWrittenList(ctx, ep, out, deleted.objects.map((o) => storedSource(ep, o)), meta, () =>
    listValue(ep, { items: [], ...meta }, deleted.objects.map((o) => toServed(ep, o))),
  );
}
