/**
 * Routes a parsed resource request to its verb handler, after checking that the resource is served,
 * that the URL's scope fits the resource, and that the resource supports the verb.
 */
import { errors, StatusError } from '../machinery/errors.js';
import { protobufGaps } from '../schema/protobuf/index.js';
import { ALL_VERBS, type Deprecation, type ResourceDefinition, type SubresourceDefinition, type Verb } from '../registry/define-resource.js';
import { Status as StatusSchema, type StructSchema } from '../schema/index.js';
import { listSchemaFor } from './list-schema.js';
import type { RegistrySnapshot, ResourceRegistry } from '../registry/registry.js';
import { handleCreate } from './handlers/create.js';
import { handleDelete, handleDeleteCollection } from './handlers/delete.js';
import { handleGet } from './handlers/get.js';
import { handleList } from './handlers/list.js';
import { handlePatch } from './handlers/patch.js';
import { handleUpdate } from './handlers/update.js';
import { handleWatch } from './handlers/watch.js';
import { handleAction } from './handlers/action.js';
import { handleView } from './handlers/view.js';
import { handleNamedCreate } from './handlers/named-create.js';
import { apiVersionOf } from '../machinery/gvk.js';
import type { RequestContext } from '../machinery/request-context.js';
import { checkPathNames } from './path-names.js';
import { negotiateOutput } from './respond.js';
import { conversionSupport } from './transform/convert.js';
import type { ResourceRequestInfo } from './request-info.js';
import type { EndpointSettings, ResourceEndpoint } from './resource-endpoint.js';
import type { ApiNames } from '../machinery/api-names.js';

type VerbHandler = (ctx: RequestContext, ep: ResourceEndpoint, info: ResourceRequestInfo) => Promise<void>;

const HANDLERS: Record<ResourceRequestInfo['verb'], VerbHandler> = {
  get: handleGet,
  list: handleList,
  watch: handleWatch,
  create: handleCreate,
  update: handleUpdate,
  patch: handlePatch,
  delete: handleDelete,
  deletecollection: handleDeleteCollection,
};

/** The schema of what a verb answers with: the view, the list, or the object (a Status has a protobuf form whenever the object does). */
function responseSchema(def: ResourceDefinition, verb: Verb, sub: SubresourceDefinition | undefined): StructSchema {
  if (sub?.kind === 'view' || sub?.kind === 'create') return sub.schema;
  if (sub?.kind === 'action') return StatusSchema;
  return verb === 'list' || verb === 'deletecollection' ? listSchemaFor(def) : def.schema;
}

export function notFoundResource(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** Kubernetes' warning for a deprecated version: `apps/v1beta1 Deployment is deprecated in v1.9+, unavailable in v1.16+; use apps/v1 Deployment`. */
function deprecationWarning(def: ResourceDefinition, d: Deprecation): string {
  if (d.warning !== undefined) return d.warning;
  const use = d.replacement ? `; use ${d.replacement} ${def.kind}` : '';
  const removed = d.removedIn ? `, unavailable in v${d.removedIn}+` : '';
  return `${apiVersionOf(def)} ${def.kind} is deprecated in v${d.deprecatedIn}+${removed}${use}`;
}

export interface DeprecatedRequest {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  removedRelease: string;
}

export function createResourceRouter(
  registry: ResourceRegistry,
  names: ApiNames,
  settings: EndpointSettings,
  onDeprecated: (r: DeprecatedRequest) => void = () => undefined,
) {
  // Endpoints of the resources served now, made again after each registry change; a request
  // resolves its endpoint once, so a change while it runs does not reach it halfway.
  const endpointsNow = registry.derived((snapshot: RegistrySnapshot) => {
    const endpoints = new Map<string, ResourceEndpoint>();
    for (const r of snapshot.all()) {
      endpoints.set(`${r.def.group}/${r.def.version}/${r.def.resource}`, { def: r.def, store: r.store, names, settings });
    }
    return endpoints;
  });
  return async function routeResource(ctx: RequestContext, info: ResourceRequestInfo): Promise<void> {
    if ((info.apiPrefix === 'api') !== (info.apiGroup === '')) throw notFoundResource();
    const ep = endpointsNow().get(`${info.apiGroup}/${info.apiVersion}/${info.resource}`);
    if (!ep) throw notFoundResource();
    // An empty segment (`namespaces//configmaps`, `configmaps//status`) names nothing.
    if (info.parts.includes('') || (info.inNamespace && !info.namespace)) throw notFoundResource();
    const { def } = ep;
    if (!def.namespaced && info.inNamespace) throw notFoundResource();
    if (def.namespaced && !info.namespace && (info.name || info.verb === 'create' || info.verb === 'deletecollection')) {
      // Items and writes of a namespaced resource live under /namespaces/{namespace}/.
      throw info.name ? notFoundResource() : errors.methodNotAllowed();
    }
    if (info.parts.length > 3) throw notFoundResource();
    // `/watch/...` makes any method a watch; only GET is served there.
    if (info.verb === 'watch' && ctx.req.method !== 'GET' && ctx.req.method !== 'HEAD') throw errors.methodNotAllowed();
    let verbs: readonly Verb[] = def.verbs ?? ALL_VERBS;
    if (info.subresource) {
      // Subresources are never watched: Kubernetes has no route for `/watch/.../{name}/{subresource}`.
      if (info.verb === 'watch') throw notFoundResource();
      const sub = def.subresources?.[info.subresource];
      if (!sub) throw notFoundResource();
      verbs = sub.verbs;
    }
    const verb: Verb = info.verb;
    const sub = info.subresource ? def.subresources?.[info.subresource] : undefined;
    // PUT and PATCH address one object; on a collection they are verbs the path does not take.
    if (!info.name && (verb === 'update' || verb === 'patch')) throw errors.methodNotAllowed();
    // A watch of one object is a filtered collection watch: allowed wherever watch is.
    if (!verbs.includes(verb)) throw errors.methodNotAllowed();
    checkPathNames(info);
    // A kind without a protobuf form answers nothing in protobuf, errors included.
    ctx.protobufRefused = protobufGaps(sub?.kind === 'view' || sub?.kind === 'create' ? sub.schema : def.schema).length > 0;
    // Refuse an unanswerable Accept before any work, so a write it would fail to report never happens.
    // Every verb may also answer a Table or metadata only (as=Table, as=PartialObjectMetadata...):
    // writes convert the object they return, as Kubernetes' transformResponseObject does.
    if (verb !== 'watch') negotiateOutput(ctx, { schema: responseSchema(def, verb, sub), conversions: conversionSupport(ep) });
    if (def.deprecation) {
      ctx.warnings.push(deprecationWarning(def, def.deprecation));
      // Kubernetes' audit annotations of a deprecated endpoint (document 1, Versioning).
      ctx.audit.annotations[names.key('deprecated')] = 'true';
      if (def.deprecation.removedIn) ctx.audit.annotations[names.key('removed-release')] = def.deprecation.removedIn;
      onDeprecated({ group: def.group, version: def.version, resource: def.resource, subresource: info.subresource, removedRelease: def.deprecation.removedIn ?? '' });
    }
    if (sub?.kind === 'view') return handleView(ctx, ep, info, sub);
    if (sub?.kind === 'action') return handleAction(ctx, ep, info, sub);
    if (sub?.kind === 'create') return handleNamedCreate(ctx, ep, info, sub);
    await HANDLERS[info.verb](ctx, ep, info);
  };
}
