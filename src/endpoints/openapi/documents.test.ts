import { describe, expect, it } from 'vitest';
import { configMapResource } from '../../apis/core/v1/configmap.js';
import { createApiNames } from '../../machinery/api-names.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { ResourceRegistry } from '../../registry/registry.js';
import { createOpenApiDocuments } from './documents.js';

function docs() {
  const names = createApiNames('k8s.io');
  const registry = new ResourceRegistry();
  registry.add({ def: configMapResource(names, { names }), store: {} as GenericStore });
  return createOpenApiDocuments(registry, names, { version: 'v1.2.3' });
}

describe('createOpenApiDocuments', () => {
  it('renders each document once and hands out the same bytes after', () => {
    const d = docs();
    expect(d.v2Json()).toBe(d.v2Json());
    expect(d.v2Protobuf()).toBe(d.v2Protobuf());
    expect(d.v3Index()).toBe(d.v3Index());
    expect(d.v3('api/v1')).toBe(d.v3('api/v1'));
  });

  it('gives a group-version URL with the hash of its content, and nothing for one it does not serve', () => {
    const d = docs();
    const doc = d.v3('api/v1');
    expect(doc?.hash).toMatch(/^[0-9A-F]{128}$/);
    expect(d.v3Url('api/v1')).toBe(`/openapi/v3/api/v1?hash=${doc?.hash}`);
    expect(JSON.parse(d.v3Index().body.toString())).toEqual({ paths: { 'api/v1': { serverRelativeURL: d.v3Url('api/v1') } } });
    expect(d.v3('apis/apps/v1')).toBeUndefined();
    expect(d.v3Url('apis/apps/v1')).toBeUndefined();
  });

  it('renders the same content for the same registry, so hashes are stable across restarts', () => {
    expect(docs().v3('api/v1')?.hash).toBe(docs().v3('api/v1')?.hash);
    expect(docs().v2Json().hash).toBe(docs().v2Json().hash);
    expect(JSON.parse(docs().v2Json().body.toString()).info).toEqual({ title: 'Kubernetes', version: 'v1.2.3' });
  });
});
