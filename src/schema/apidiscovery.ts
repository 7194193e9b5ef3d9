/**
 * Aggregated discovery (apidiscovery v2 and v2beta1, identical in shape): every group, version and
 * resource in one document, the answer of /api and /apis when a client asks for it by content type.
 * Protobuf numbers follow Kubernetes' apidiscovery/v2 generated.proto.
 */
import { t } from './dsl.js';
import { ListMeta, ObjectMeta } from './meta.js';

export const GroupVersionKind = t.struct('meta.v1.GroupVersionKind', {
  group: t.required(1, t.string(), { always: true }),
  version: t.required(2, t.string(), { always: true }),
  kind: t.required(3, t.string(), { always: true }),
}, { description: 'A kind named with its group and version.' });

export const APISubresourceDiscovery = t.struct('apidiscovery.v2.APISubresourceDiscovery', {
  subresource: t.required(1, t.string(), { always: true, description: 'The name of the subresource, such as status or scale.' }),
  responseKind: t.field(2, GroupVersionKind, { pointer: true, description: 'The kind the subresource answers with.' }),
  acceptedTypes: t.field(3, t.list(GroupVersionKind, { listType: 'atomic' }), { description: 'The kinds the subresource accepts, when it accepts others than its response kind.' }),
  verbs: t.required(4, t.list(t.string(), { listType: 'set' }), { always: true, description: 'The verbs the subresource supports.' }),
});

export const APIResourceDiscovery = t.struct('apidiscovery.v2.APIResourceDiscovery', {
  resource: t.required(1, t.string(), { always: true, description: 'The plural name of the resource, as URLs spell it.' }),
  responseKind: t.field(2, GroupVersionKind, { pointer: true, description: 'The kind the resource answers with; empty group and version mean the ones it is served in.' }),
  scope: t.required(3, t.string({ enum: ['Cluster', 'Namespaced'] }), { always: true, description: 'Cluster or Namespaced.' }),
  singularResource: t.required(4, t.string(), { always: true, description: 'The singular name of the resource.' }),
  verbs: t.required(5, t.list(t.string(), { listType: 'set' }), { always: true, description: 'The verbs the resource supports.' }),
  shortNames: t.field(6, t.list(t.string(), { listType: 'set' }), { description: 'Short aliases clients accept for the resource.' }),
  categories: t.field(7, t.list(t.string(), { listType: 'set' }), { description: 'Groupings the resource belongs to, such as all.' }),
  subresources: t.field(8, t.list(APISubresourceDiscovery, { listType: 'map', listMapKeys: ['subresource'] }), { description: 'The subresources of the resource.' }),
});

export const APIVersionDiscovery = t.struct('apidiscovery.v2.APIVersionDiscovery', {
  version: t.required(1, t.string(), { always: true, description: 'The version, such as v1.' }),
  resources: t.field(2, t.list(APIResourceDiscovery, { listType: 'map', listMapKeys: ['resource'] }), { description: 'The resources the version serves.' }),
  freshness: t.field(3, t.string({ enum: ['Current', 'Stale'] }), { description: 'Current when the document is up to date; Stale when it could not be refreshed.' }),
});

export const APIGroupDiscovery = t.struct('apidiscovery.v2.APIGroupDiscovery', {
  kind: t.field(undefined, t.string()),
  apiVersion: t.field(undefined, t.string()),
  metadata: t.field(1, ObjectMeta, { description: 'The group\'s name is metadata.name; empty for the core group.' }),
  versions: t.field(2, t.list(APIVersionDiscovery, { listType: 'map', listMapKeys: ['version'] }), { description: 'The served versions, the preferred one first.' }),
});

export const APIGroupDiscoveryList = t.struct('apidiscovery.v2.APIGroupDiscoveryList', {
  kind: t.field(undefined, t.string()),
  apiVersion: t.field(undefined, t.string()),
  metadata: t.field(1, ListMeta),
  items: t.required(2, t.list(APIGroupDiscovery, { listType: 'atomic' }), { always: true, description: 'The served groups, in preference order.' }),
}, { description: 'Every served group, version and resource, for clients to discover the API in one request.' });
