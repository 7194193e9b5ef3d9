/**
 * Discovery's resource list (meta/v1 APIResourceList), the answer of /api/v1 and
 * /apis/{group}/{version}; protobuf numbers follow Kubernetes.
 */
import { t } from './dsl.js';

export const APIResource = t.struct('meta.v1.APIResource', {
  name: t.required(1, t.string(), { always: true, description: 'The plural name of the resource, as URLs spell it.' }),
  singularName: t.required(6, t.string(), { always: true, description: 'The singular name of the resource, for clients to present.' }),
  namespaced: t.required(2, t.bool(), { always: true, description: 'Whether the resource lives in namespaces.' }),
  group: t.field(8, t.string(), { description: 'The preferred group of the resource when it differs from the list it is in.' }),
  version: t.field(9, t.string(), { description: 'The preferred version of the resource when it differs from the list it is in.' }),
  kind: t.required(3, t.string(), { always: true, description: 'The kind of the resource.' }),
  verbs: t.required(4, t.list(t.string()), { always: true, description: 'The verbs the resource supports: get, list, watch, create, update, patch, delete, deletecollection.' }),
  shortNames: t.field(5, t.list(t.string(), { listType: 'atomic' }), { description: 'Short aliases clients accept for the resource.' }),
  categories: t.field(7, t.list(t.string(), { listType: 'atomic' }), { description: 'Groupings the resource belongs to, such as all.' }),
  storageVersionHash: t.field(10, t.string(), { description: 'A hash of the version objects are stored in; it changes when that version changes.' }),
}, { description: 'One resource a group-version serves.' });

export const APIResourceList = t.struct('meta.v1.APIResourceList', {
  kind: t.field(undefined, t.string(), { description: 'Always APIResourceList.' }),
  apiVersion: t.field(undefined, t.string(), { description: 'Always v1.' }),
  groupVersion: t.required(1, t.string(), { always: true, description: 'The group-version the list describes.' }),
  resources: t.required(2, t.list(APIResource, { listType: 'atomic' }), { always: true, description: 'The resources served in the group-version.' }),
}, { description: 'The resources one group-version serves, and what each supports.' });
