import { describe, expect, it } from 'vitest';
import { createApiNames } from '../../machinery/api-names.js';
import { definitionName, extensionKeys, groupWord, operationGroupVersion, tagOf } from './names.js';

const k8s = createApiNames('k8s.io');
const orch = createApiNames('orch.io');

describe('definitionName', () => {
  it.each([
    ['core.v1.ConfigMap', 'io.k8s.api.core.v1.ConfigMap', 'io.orch.api.core.v1.ConfigMap'],
    ['apps.v1.Deployment', 'io.k8s.api.apps.v1.Deployment', 'io.orch.api.apps.v1.Deployment'],
    ['rbac.v1.ClusterRole', 'io.k8s.api.rbac.v1.ClusterRole', 'io.orch.api.rbac.v1.ClusterRole'],
    ['meta.v1.ObjectMeta', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta'],
    ['runtime.RawExtension', 'io.k8s.apimachinery.pkg.runtime.RawExtension', 'io.orch.apimachinery.pkg.runtime.RawExtension'],
    ['intstr.IntOrString', 'io.k8s.apimachinery.pkg.util.intstr.IntOrString', 'io.orch.apimachinery.pkg.util.intstr.IntOrString'],
    ['resource.Quantity', 'io.k8s.apimachinery.pkg.api.resource.Quantity', 'io.orch.apimachinery.pkg.api.resource.Quantity'],
    [
      'apiextensions.v1.CustomResourceDefinition',
      'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
      'io.orch.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
    ],
    ['apiregistration.v1.APIService', 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService', 'io.orch.orch-aggregator.pkg.apis.apiregistration.v1.APIService'],
  ])('names %s as Kubernetes does under k8s.io, and under the orch.io prefix otherwise', (schema, underK8s, underOrch) => {
    expect(definitionName(k8s, schema)).toBe(underK8s);
    expect(definitionName(orch, schema)).toBe(underOrch);
  });
});

describe('extension keys', () => {
  it('use x-kubernetes- under k8s.io and the product word otherwise', () => {
    expect(extensionKeys(k8s).groupVersionKind).toBe('x-kubernetes-group-version-kind');
    expect(extensionKeys(k8s).listMapKeys).toBe('x-kubernetes-list-map-keys');
    expect(extensionKeys(orch).patchStrategy).toBe('x-orch-patch-strategy');
    expect(extensionKeys(createApiNames('example.com')).action).toBe('x-example-action');
  });
});

describe('operation naming', () => {
  it.each([
    ['', 'v1', 'core', 'core_v1', 'CoreV1'],
    ['apps', 'v1', 'apps', 'apps_v1', 'AppsV1'],
    ['rbac.authorization.k8s.io', 'v1', 'rbacAuthorization', 'rbacAuthorization_v1', 'RbacAuthorizationV1'],
    ['flowcontrol.apiserver.k8s.io', 'v1beta3', 'flowcontrolApiserver', 'flowcontrolApiserver_v1beta3', 'FlowcontrolApiserverV1beta3'],
    ['stable.example.com', 'v1', 'stableExampleCom', 'stableExampleCom_v1', 'StableExampleComV1'],
  ])('group %j version %s', (group, version, word, tag, opPart) => {
    expect(groupWord(k8s, group)).toBe(word);
    expect(tagOf(k8s, group, version)).toBe(tag);
    expect(operationGroupVersion(k8s, group, version)).toBe(opPart);
  });

  it('strips the server\'s own domain, whichever it is', () => {
    expect(groupWord(orch, 'rbac.authorization.orch.io')).toBe('rbacAuthorization');
  });
});
