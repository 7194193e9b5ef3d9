/**
 * What the server serves, as OpenAPI needs to know it: for each group-version, its kinds (with a
 * list type made from each) and its paths with their operations. Built from the registry, the same
 * source routing and discovery use, and neutral to the OpenAPI version: the v2 and v3 builders each
 * render it in their own format.
 */
import type { ApiNames } from '../../machinery/api-names.js';
import { ALL_VERBS, listKindOf, type ResourceDefinition, type Verb } from '../../registry/define-resource.js';
import type { RegistryView } from '../../registry/registry.js';
import { APIResourceList, DeleteOptions, ListMeta, Patch, Status, t, WatchEvent, type StructSchema } from '../../schema/index.js';
import { operationGroupVersion, tagOf } from './names.js';
import {
  DELETE_COLLECTION_PARAMETERS,
  DELETE_PARAMETERS,
  LIST_PARAMETERS,
  PARAMETERS,
  PATCH_PARAMETERS,
  pathParameter,
  WRITE_PARAMETERS,
  type ParameterSpec,
} from './parameters.js';

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The `x-kubernetes-action` of an operation. */
export type OperationAction = 'get' | 'list' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection' | 'watch' | 'watchlist';

export interface ResponseSpec {
  readonly code: '200' | '201' | '202';
  readonly description: string;
  readonly schema: StructSchema;
}

export interface OperationSpec {
  readonly method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  /** Absent on operations that belong to no kind (discovery). */
  readonly action?: OperationAction;
  readonly gvk?: GroupVersionKind;
  readonly operationId: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly parameters: readonly ParameterSpec[];
  readonly body?: { readonly schema: StructSchema; readonly required: boolean; readonly contentTypes: readonly string[] };
  readonly responses: readonly ResponseSpec[];
  /** Media types of the responses. */
  readonly produces: readonly string[];
}

export interface PathSpec {
  readonly path: string;
  /** Parameters every operation of the path shares. */
  readonly parameters: readonly ParameterSpec[];
  readonly operations: readonly OperationSpec[];
}

export interface KindModel {
  readonly gvk: GroupVersionKind;
  readonly schema: StructSchema;
  readonly listGvk: GroupVersionKind;
  readonly listSchema: StructSchema;
}

export interface GroupVersionModel {
  readonly group: string;
  readonly version: string;
  /** `api/v1` or `apis/apps/v1`: the key of the OpenAPI v3 index. */
  readonly key: string;
  readonly kinds: readonly KindModel[];
  readonly paths: readonly PathSpec[];
}

export interface ApiModel {
  readonly groupVersions: readonly GroupVersionModel[];
}

const PATCH_CONTENT_TYPES = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];

/** The list type Kubernetes defines beside every kind (`ConfigMapList`), made from the kind's schema. */
export function listSchemaOf(def: Pick<ResourceDefinition, 'kind' | 'schema' | 'resource'>): StructSchema {
  return t.struct(`${def.schema.name}List`, {
    kind: t.field(undefined, t.string(), { description: `Always ${listKindOf(def)}.` }),
    apiVersion: t.field(undefined, t.string(), { description: 'The versioned schema of the list, as group/version.' }),
    metadata: t.field(1, ListMeta, { description: "The list's metadata: its resourceVersion and, for a page, the continue token." }),
    items: t.required(2, t.list(def.schema), { always: true, description: `The ${def.resource} in the list.` }),
  }, { description: `A list of ${def.kind} objects.` });
}

function withSuffix(action: string, gv: string, middle: string, suffix = ''): string {
  return `${action}${gv}${middle}${suffix}`;
}

/** Builds the paths of one resource, following Kubernetes' layout (including the deprecated /watch/ paths, which we serve). */
function resourcePaths(names: ApiNames, def: ResourceDefinition, prefix: string): PathSpec[] {
  const { kind, resource, namespaced } = def;
  const verbs = new Set<Verb>(def.verbs ?? ALL_VERBS);
  const gvk: GroupVersionKind = { group: def.group, version: def.version, kind };
  const gv = operationGroupVersion(names, def.group, def.version);
  const tags = [tagOf(names, def.group, def.version)];
  const scoped = namespaced ? 'Namespaced' : '';
  const list = listSchemaOf(def);
  const writeTypes = ['application/json', 'application/yaml', names.protobufMediaType];
  const streamTypes = [...writeTypes, 'application/json;stream=watch', `${names.protobufMediaType};stream=watch`];
  const nsParam = pathParameter('namespace', 'The namespace of the objects: a scope for names, access rules and quotas.');
  const nameParam = pathParameter('name', `The name of the ${kind}.`);
  const ok = (schema: StructSchema): ResponseSpec => ({ code: '200', description: 'OK', schema });
  const created = (schema: StructSchema): ResponseSpec => ({ code: '201', description: 'Created', schema });
  const accepted = (schema: StructSchema): ResponseSpec => ({ code: '202', description: 'Accepted', schema });
  const op = (o: Omit<OperationSpec, 'gvk' | 'tags' | 'produces'> & { produces?: readonly string[] }): OperationSpec => ({ gvk, tags, produces: writeTypes, ...o });

  const scopeSegment = namespaced ? '/namespaces/{namespace}' : '';
  const collection = `${prefix}${scopeSegment}/${resource}`;
  const item = `${collection}/{name}`;
  const scopeParams = namespaced ? [nsParam] : [];
  const paths: PathSpec[] = [];

  const collectionOps: OperationSpec[] = [];
  if (verbs.has('deletecollection')) {
    collectionOps.push(op({
      method: 'delete', action: 'deletecollection', operationId: withSuffix('delete', gv, `Collection${scoped}${kind}`),
      description: `delete a collection of ${kind}`, parameters: DELETE_COLLECTION_PARAMETERS,
      body: { schema: DeleteOptions, required: false, contentTypes: ['*/*'] }, responses: [ok(Status)],
    }));
  }
  if (verbs.has('list')) {
    collectionOps.push(op({
      method: 'get', action: 'list', operationId: withSuffix('list', gv, `${scoped}${kind}`),
      description: `list or watch objects of kind ${kind}`, parameters: LIST_PARAMETERS, responses: [ok(list)], produces: streamTypes,
    }));
  }
  if (verbs.has('create')) {
    collectionOps.push(op({
      method: 'post', action: 'post', operationId: withSuffix('create', gv, `${scoped}${kind}`), description: `create a ${kind}`,
      parameters: WRITE_PARAMETERS, body: { schema: def.schema, required: true, contentTypes: ['*/*'] },
      responses: [ok(def.schema), created(def.schema), accepted(def.schema)],
    }));
  }
  if (collectionOps.length) paths.push({ path: collection, parameters: [...scopeParams, PARAMETERS.pretty], operations: collectionOps });

  const itemOps: OperationSpec[] = [];
  if (verbs.has('delete')) {
    const deleted = def.strategy.returnDeletedObject ? def.schema : Status;
    itemOps.push(op({
      method: 'delete', action: 'delete', operationId: withSuffix('delete', gv, `${scoped}${kind}`), description: `delete a ${kind}`,
      parameters: DELETE_PARAMETERS, body: { schema: DeleteOptions, required: false, contentTypes: ['*/*'] },
      responses: [ok(deleted), accepted(deleted)],
    }));
  }
  if (verbs.has('get')) {
    itemOps.push(op({ method: 'get', action: 'get', operationId: withSuffix('read', gv, `${scoped}${kind}`), description: `read the named ${kind}`, parameters: [], responses: [ok(def.schema)] }));
  }
  if (verbs.has('patch')) {
    itemOps.push(op({
      method: 'patch', action: 'patch', operationId: withSuffix('patch', gv, `${scoped}${kind}`), description: `partially update the named ${kind}`,
      parameters: PATCH_PARAMETERS, body: { schema: Patch, required: true, contentTypes: PATCH_CONTENT_TYPES },
      responses: [ok(def.schema), created(def.schema)],
    }));
  }
  if (verbs.has('update')) {
    itemOps.push(op({
      method: 'put', action: 'put', operationId: withSuffix('replace', gv, `${scoped}${kind}`), description: `replace the named ${kind}`,
      parameters: WRITE_PARAMETERS, body: { schema: def.schema, required: true, contentTypes: ['*/*'] },
      responses: [ok(def.schema), created(def.schema)],
    }));
  }
  if (itemOps.length) paths.push({ path: item, parameters: [nameParam, ...scopeParams, PARAMETERS.pretty], operations: itemOps });

  for (const [sub, spec] of Object.entries(def.subresources ?? {})) {
    const word = sub.charAt(0).toUpperCase() + sub.slice(1);
    const subOps: OperationSpec[] = [];
    const subVerbs = new Set(spec.verbs);
    if (subVerbs.has('get')) {
      subOps.push(op({ method: 'get', action: 'get', operationId: withSuffix('read', gv, `${scoped}${kind}`, word), description: `read ${sub} of the named ${kind}`, parameters: [], responses: [ok(def.schema)] }));
    }
    if (subVerbs.has('patch')) {
      subOps.push(op({
        method: 'patch', action: 'patch', operationId: withSuffix('patch', gv, `${scoped}${kind}`, word), description: `partially update ${sub} of the named ${kind}`,
        parameters: PATCH_PARAMETERS, body: { schema: Patch, required: true, contentTypes: PATCH_CONTENT_TYPES }, responses: [ok(def.schema), created(def.schema)],
      }));
    }
    if (subVerbs.has('update')) {
      subOps.push(op({
        method: 'put', action: 'put', operationId: withSuffix('replace', gv, `${scoped}${kind}`, word), description: `replace ${sub} of the named ${kind}`,
        parameters: WRITE_PARAMETERS, body: { schema: def.schema, required: true, contentTypes: ['*/*'] }, responses: [ok(def.schema), created(def.schema)],
      }));
    }
    if (spec.kind === 'create' && subVerbs.has('create')) {
      // A named create (serviceaccounts/token): the request and answer are the subresource's own kind.
      subOps.push({
        ...op({
          method: 'post', action: 'post', operationId: withSuffix('create', gv, `${scoped}${kind}`, word), description: `create ${sub} of a ${kind}`,
          parameters: WRITE_PARAMETERS, body: { schema: spec.schema, required: true, contentTypes: ['*/*'] },
          responses: [ok(spec.schema), created(spec.schema), accepted(spec.schema)],
        }),
        gvk: spec.request,
      });
    }
    if (subOps.length) paths.push({ path: `${item}/${sub}`, parameters: [nameParam, ...scopeParams, PARAMETERS.pretty], operations: subOps });
  }

  if (verbs.has('list') && namespaced) {
    paths.push({
      path: `${prefix}/${resource}`,
      parameters: [...LIST_PARAMETERS, PARAMETERS.pretty],
      operations: [op({
        method: 'get', action: 'list', operationId: withSuffix('list', gv, kind, 'ForAllNamespaces'), description: `list or watch objects of kind ${kind} in every namespace`,
        parameters: [], responses: [ok(list)], produces: streamTypes,
      })],
    });
  }
  if (verbs.has('watch')) {
    const watchTypes = streamTypes;
    const watchList = (path: string, operationId: string, extra: ParameterSpec[]): PathSpec => ({
      path,
      parameters: [...LIST_PARAMETERS, ...extra, PARAMETERS.pretty].sort((a, b) => a.name.localeCompare(b.name)),
      operations: [op({
        method: 'get', action: 'watchlist', operationId, parameters: [], responses: [ok(WatchEvent)], produces: watchTypes,
        description: `watch changes to a list of ${kind}; deprecated: use the watch parameter of the list operation`,
      })],
    });
    paths.push(watchList(`${prefix}/watch${scopeSegment}/${resource}`, withSuffix('watch', gv, `${scoped}${kind}`, 'List'), scopeParams));
    paths.push({
      path: `${prefix}/watch${scopeSegment}/${resource}/{name}`,
      parameters: [...LIST_PARAMETERS, nameParam, ...scopeParams, PARAMETERS.pretty].sort((a, b) => a.name.localeCompare(b.name)),
      operations: [op({
        method: 'get', action: 'watch', operationId: withSuffix('watch', gv, `${scoped}${kind}`), parameters: [], responses: [ok(WatchEvent)], produces: watchTypes,
        description: `watch changes to the named ${kind}; deprecated: use the watch parameter of the list operation with a metadata.name field selector`,
      })],
    });
    if (namespaced) paths.push(watchList(`${prefix}/watch/${resource}`, withSuffix('watch', gv, kind, 'ListForAllNamespaces'), []));
  }
  return paths;
}

export function buildApiModel(registry: RegistryView, names: ApiNames): ApiModel {
  const groupVersions: GroupVersionModel[] = [];
  for (const g of registry.groups()) {
    for (const version of g.versions) {
      const resources = registry.inGroupVersion(g.name, version);
      const prefix = g.name === '' ? `/api/${version}` : `/apis/${g.name}/${version}`;
      const kinds = new Map<string, KindModel>();
      const paths: PathSpec[] = [{
        path: `${prefix}/`,
        parameters: [],
        operations: [{
          method: 'get', operationId: `get${operationGroupVersion(names, g.name, version)}APIResources`, description: 'get the resources this group-version serves',
          tags: [tagOf(names, g.name, version)], parameters: [], responses: [{ code: '200', description: 'OK', schema: APIResourceList }],
          produces: ['application/json', 'application/yaml', names.protobufMediaType],
        }],
      }];
      for (const { def } of resources) {
        if (!kinds.has(def.kind)) {
          kinds.set(def.kind, {
            gvk: { group: def.group, version: def.version, kind: def.kind },
            schema: def.schema,
            listGvk: { group: def.group, version: def.version, kind: listKindOf(def) },
            listSchema: listSchemaOf(def),
          });
        }
        paths.push(...resourcePaths(names, def, prefix));
      }
      groupVersions.push({ group: g.name, version, key: prefix.slice(1), kinds: [...kinds.values()], paths });
    }
  }
  return { groupVersions };
}
