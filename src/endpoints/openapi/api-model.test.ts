import { describe, expect, it } from 'vitest';
import { configMapResource } from '../../apis/core/v1/configmap.js';
import { namespaceResource } from '../../apis/core/v1/namespace.js';
import { createApiNames } from '../../machinery/api-names.js';
import { nameValidators } from '../../machinery/name-validation.js';
import type { ResourceDefinition } from '../../registry/define-resource.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { ResourceRegistry } from '../../registry/registry.js';
import { objectHeader, t } from '../../schema/index.js';
import { buildApiModel, type PathSpec } from './api-model.js';

const names = createApiNames('k8s.io');

const widget: ResourceDefinition = {
  group: 'widgets.k8s.io',
  version: 'v1beta1',
  kind: 'Widget',
  resource: 'widgets',
  singular: 'widget',
  namespaced: false,
  verbs: ['get', 'list', 'create'],
  schema: t.struct('widgets.v1beta1.Widget', { ...objectHeader }),
  strategy: { nameValidator: nameValidators.dnsSubdomain },
};

function model() {
  const registry = new ResourceRegistry();
  const fakeStore = {} as GenericStore;
  for (const def of [namespaceResource(names, { names }), configMapResource(names, { names }), widget]) registry.add({ def, store: fakeStore });
  return buildApiModel(registry, names);
}

function summary(paths: readonly PathSpec[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of paths) out[p.path] = p.operations.map((o) => `${o.method} ${o.action ?? '-'} ${o.operationId}`);
  return out;
}

describe('buildApiModel', () => {
  it('groups kinds by group-version, with the v3 index keys', () => {
    const m = model();
    expect(m.groupVersions.map((g) => g.key)).toEqual(['api/v1', 'apis/widgets.k8s.io/v1beta1']);
    expect(m.groupVersions[0]?.kinds.map((k) => [k.gvk.kind, k.listGvk.kind, k.listSchema.name])).toEqual([
      ['Namespace', 'NamespaceList', 'core.v1.NamespaceList'],
      ['ConfigMap', 'ConfigMapList', 'core.v1.ConfigMapList'],
    ]);
  });

  it('gives a namespaced kind every path Kubernetes serves for it', () => {
    const core = model().groupVersions[0];
    const cm = Object.fromEntries(Object.entries(summary(core?.paths ?? [])).filter(([p]) => p.includes('configmaps')));
    expect(cm).toEqual({
      '/api/v1/namespaces/{namespace}/configmaps': [
        'delete deletecollection deleteCoreV1CollectionNamespacedConfigMap',
        'get list listCoreV1NamespacedConfigMap',
        'post post createCoreV1NamespacedConfigMap',
      ],
      '/api/v1/namespaces/{namespace}/configmaps/{name}': [
        'delete delete deleteCoreV1NamespacedConfigMap',
        'get get readCoreV1NamespacedConfigMap',
        'patch patch patchCoreV1NamespacedConfigMap',
        'put put replaceCoreV1NamespacedConfigMap',
      ],
      '/api/v1/configmaps': ['get list listCoreV1ConfigMapForAllNamespaces'],
      '/api/v1/watch/namespaces/{namespace}/configmaps': ['get watchlist watchCoreV1NamespacedConfigMapList'],
      '/api/v1/watch/namespaces/{namespace}/configmaps/{name}': ['get watch watchCoreV1NamespacedConfigMap'],
      '/api/v1/watch/configmaps': ['get watchlist watchCoreV1ConfigMapListForAllNamespaces'],
    });
  });

  it('serves the subresources of a cluster-scoped kind and only the verbs it has', () => {
    const core = summary(model().groupVersions[0]?.paths ?? []);
    expect(core['/api/v1/namespaces']).toEqual(['get list listCoreV1Namespace', 'post post createCoreV1Namespace']);
    expect(core['/api/v1/namespaces/{name}/status']).toEqual([
      'get get readCoreV1NamespaceStatus',
      'patch patch patchCoreV1NamespaceStatus',
      'put put replaceCoreV1NamespaceStatus',
    ]);
    expect(core['/api/v1/namespaces/{name}/finalize']).toEqual(['put put replaceCoreV1NamespaceFinalize']);
    expect(core['/api/v1/']).toEqual(['get - getCoreV1APIResources']);
    const widgets = summary(model().groupVersions[1]?.paths ?? []);
    expect(widgets).toEqual({
      '/apis/widgets.k8s.io/v1beta1/': ['get - getWidgetsV1beta1APIResources'],
      '/apis/widgets.k8s.io/v1beta1/widgets': ['get list listWidgetsV1beta1Widget', 'post post createWidgetsV1beta1Widget'],
      '/apis/widgets.k8s.io/v1beta1/widgets/{name}': ['get get readWidgetsV1beta1Widget'],
    });
  });

  it('gives each operation the parameters it accepts', () => {
    const paths = model().groupVersions[0]?.paths ?? [];
    const find = (path: string) => paths.find((p) => p.path === path) as PathSpec;
    const params = (path: string, method: string) => find(path).operations.find((o) => o.method === method)?.parameters.map((p) => p.name);
    const item = '/api/v1/namespaces/{namespace}/configmaps/{name}';
    const coll = '/api/v1/namespaces/{namespace}/configmaps';
    expect(params(item, 'patch')).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(params(item, 'put')).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(params(item, 'delete')).toEqual(['dryRun', 'gracePeriodSeconds', 'orphanDependents', 'propagationPolicy']);
    expect(params(coll, 'post')).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(params(coll, 'get')).toEqual([
      'allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch',
      'sendInitialEvents', 'timeoutSeconds', 'watch',
    ]);
    expect(params(coll, 'delete')).toEqual(expect.arrayContaining(['gracePeriodSeconds', 'propagationPolicy', 'labelSelector', 'limit', 'continue']));
    expect(find(item).parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:name', 'path:namespace', 'query:pretty']);
    expect(find('/api/v1/watch/namespaces/{namespace}/configmaps/{name}').parameters.map((p) => p.name)).toEqual([
      'allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'name', 'namespace', 'pretty',
      'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch',
    ]);
  });
});
