import { describe, expect, it } from 'vitest';
import { parseRequestInfo, type ResourceRequestInfo } from './request-info.js';

function info(method: string, path: string): ReturnType<typeof parseRequestInfo> {
  const q = path.indexOf('?');
  return parseRequestInfo(method, q < 0 ? path : path.slice(0, q), new URLSearchParams(q < 0 ? '' : path.slice(q + 1)));
}

function resource(method: string, path: string): ResourceRequestInfo {
  const i = info(method, path);
  if (!i.isResourceRequest) throw new Error(`${method} ${path} parsed as a non-resource request`);
  return i;
}

type Want = Partial<Omit<ResourceRequestInfo, 'isResourceRequest' | 'path'>>;

describe('parseRequestInfo: resource requests', () => {
  const cases: [string, string, Want][] = [
    // core group
    ['GET', '/api/v1/namespaces', { verb: 'list', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', resource: 'namespaces', namespace: '', name: '', subresource: '', inNamespace: false }],
    ['GET', '/api/v1/namespaces/ns1', { verb: 'get', resource: 'namespaces', namespace: 'ns1', name: 'ns1', inNamespace: false }],
    ['GET', '/api/v1/namespaces/ns1/configmaps', { verb: 'list', resource: 'configmaps', namespace: 'ns1', name: '', inNamespace: true, parts: ['configmaps'] }],
    ['GET', '/api/v1/namespaces/ns1/configmaps/cm', { verb: 'get', resource: 'configmaps', namespace: 'ns1', name: 'cm', inNamespace: true, parts: ['configmaps', 'cm'] }],
    ['GET', '/api/v1/configmaps', { verb: 'list', resource: 'configmaps', namespace: '', inNamespace: false }],
    ['GET', '/api/v1/nodes/n1', { verb: 'get', resource: 'nodes', name: 'n1', namespace: '' }],
    // named group
    ['GET', '/apis/apps/v1/deployments', { verb: 'list', apiPrefix: 'apis', apiGroup: 'apps', apiVersion: 'v1', resource: 'deployments', namespace: '' }],
    ['GET', '/apis/apps/v1/namespaces/ns1/deployments/d', { verb: 'get', apiGroup: 'apps', resource: 'deployments', namespace: 'ns1', name: 'd', inNamespace: true }],
    ['GET', '/apis/rbac.orch.io/v1/clusterroles/admin', { verb: 'get', apiGroup: 'rbac.orch.io', resource: 'clusterroles', name: 'admin', namespace: '' }],
    // subresources
    ['GET', '/apis/apps/v1/namespaces/ns1/deployments/d/status', { verb: 'get', resource: 'deployments', name: 'd', subresource: 'status' }],
    ['PUT', '/apis/apps/v1/namespaces/ns1/deployments/d/scale', { verb: 'update', subresource: 'scale' }],
    ['PATCH', '/api/v1/nodes/n1/status', { verb: 'patch', resource: 'nodes', name: 'n1', subresource: 'status', namespace: '' }],
    // a namespace's own subresources stay on the namespaces resource
    ['GET', '/api/v1/namespaces/ns1/status', { verb: 'get', resource: 'namespaces', name: 'ns1', namespace: 'ns1', subresource: 'status', inNamespace: false }],
    ['PUT', '/api/v1/namespaces/ns1/status', { verb: 'update', resource: 'namespaces', name: 'ns1', subresource: 'status' }],
    ['PUT', '/api/v1/namespaces/ns1/finalize', { verb: 'update', resource: 'namespaces', name: 'ns1', subresource: 'finalize', inNamespace: false }],
    // parts beyond the subresource are kept for the router to refuse
    ['GET', '/api/v1/namespaces/ns1/pods/p/log/extra', { resource: 'pods', name: 'p', subresource: 'log', parts: ['pods', 'p', 'log', 'extra'] }],
    // verbs by method
    ['HEAD', '/api/v1/namespaces/ns1/configmaps/cm', { verb: 'get' }],
    ['POST', '/api/v1/namespaces/ns1/configmaps', { verb: 'create', name: '' }],
    ['PUT', '/api/v1/namespaces/ns1/configmaps/cm', { verb: 'update' }],
    ['PATCH', '/api/v1/namespaces/ns1/configmaps/cm', { verb: 'patch' }],
    ['DELETE', '/api/v1/namespaces/ns1/configmaps/cm', { verb: 'delete', name: 'cm' }],
    ['DELETE', '/api/v1/namespaces/ns1/configmaps', { verb: 'deletecollection', name: '' }],
    ['DELETE', '/api/v1/configmaps', { verb: 'deletecollection' }],
    ['DELETE', '/api/v1/namespaces/ns1', { verb: 'delete', resource: 'namespaces', name: 'ns1' }],
    ['DELETE', '/api/v1/namespaces', { verb: 'deletecollection', resource: 'namespaces' }],
    // ?watch on collections
    ['GET', '/api/v1/namespaces/ns1/configmaps?watch=1', { verb: 'watch', resource: 'configmaps', namespace: 'ns1' }],
    ['GET', '/api/v1/namespaces/ns1/configmaps?watch=true', { verb: 'watch' }],
    ['GET', '/api/v1/namespaces/ns1/configmaps?watch', { verb: 'watch' }],
    ['GET', '/api/v1/namespaces/ns1/configmaps?watch=false', { verb: 'list' }],
    ['GET', '/api/v1/namespaces/ns1/configmaps?watch=0', { verb: 'list' }],
    ['GET', '/api/v1/namespaces/ns1/configmaps?watch=False', { verb: 'list' }],
    ['GET', '/api/v1/configmaps?watch=1', { verb: 'watch', namespace: '' }],
    // ?watch on an item: a watch of that object
    ['GET', '/api/v1/namespaces/ns1/configmaps/cm?watch=1', { verb: 'watch', name: 'cm' }],
    ['GET', '/api/v1/namespaces/ns1/configmaps/cm?watch=false', { verb: 'get', name: 'cm' }],
    ['GET', '/api/v1/namespaces/ns1?watch=true', { verb: 'watch', resource: 'namespaces', name: 'ns1' }],
    // ?watch on a subresource is not a watch
    ['GET', '/api/v1/namespaces/ns1/status?watch=1', { verb: 'get', subresource: 'status' }],
    // ?watch only matters for GET
    ['DELETE', '/api/v1/namespaces/ns1/configmaps?watch=1', { verb: 'deletecollection' }],
    // the legacy /watch/ prefix
    ['GET', '/api/v1/watch/namespaces/ns1/configmaps', { verb: 'watch', resource: 'configmaps', namespace: 'ns1', name: '', inNamespace: true }],
    ['GET', '/api/v1/watch/namespaces/ns1/configmaps/cm', { verb: 'watch', resource: 'configmaps', namespace: 'ns1', name: 'cm' }],
    ['GET', '/api/v1/watch/configmaps', { verb: 'watch', resource: 'configmaps', namespace: '' }],
    ['GET', '/api/v1/watch/namespaces', { verb: 'watch', resource: 'namespaces', namespace: '' }],
    ['GET', '/api/v1/watch/namespaces/ns1', { verb: 'watch', resource: 'namespaces', name: 'ns1', namespace: 'ns1' }],
    ['GET', '/apis/apps/v1/watch/namespaces/ns1/deployments', { verb: 'watch', apiGroup: 'apps', resource: 'deployments', namespace: 'ns1' }],
    ['GET', '/api/v1/watch/namespaces/ns1/configmaps/cm?watch=false', { verb: 'watch' }],
    // Kubernetes keeps the subresource of a legacy watch path (the router then finds no such route)
    ['GET', '/api/v1/watch/namespaces/ns1/pods/p/status', { verb: 'watch', name: 'p', subresource: 'status' }],
    // outer slashes are trimmed; inner empty segments are kept (Kubernetes' splitPath), never collapsed
    ['GET', '//api/v1/namespaces/ns1/configmaps/', { verb: 'list', resource: 'configmaps', namespace: 'ns1' }],
    ['DELETE', '/api/v1/namespaces//configmaps', { verb: 'deletecollection', resource: 'configmaps', namespace: '', inNamespace: true }],
    ['DELETE', '/api/v1/namespaces/ns1/configmaps//x', { resource: 'configmaps', name: '', parts: ['configmaps', '', 'x'] }],
    // dot segments are segments like any other
    ['DELETE', '/api/v1/namespaces/ns1/configmaps/..', { verb: 'delete', resource: 'configmaps', namespace: 'ns1', name: '..' }],
    ['DELETE', '/api/v1/namespaces/ns1/configmaps/cm/..', { verb: 'delete', name: 'cm', subresource: '..' }],
  ];
  it.each(cases)('%s %s', (method, path, want) => {
    expect(resource(method, path)).toMatchObject(want);
  });
});

describe('parseRequestInfo: non-resource requests', () => {
  it.each([
    ['GET', '/'],
    ['GET', '/healthz'],
    ['GET', '/version'],
    ['GET', '/api'],
    ['GET', '/api/v1'],
    ['GET', '/apis'],
    ['GET', '/apis/apps'],
    ['GET', '/apis/apps/v1'],
    ['GET', '/api/v1/watch'],
    ['GET', '/openapi/v2'],
    ['GET', '/apiv1/namespaces'],
    ['OPTIONS', '/api/v1/namespaces'],
  ])('%s %s', (method, path) => {
    const i = info(method, path);
    expect(i.isResourceRequest).toBe(false);
    expect(i.verb).toBe(method.toLowerCase());
  });
});
