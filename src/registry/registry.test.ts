import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from './define-resource.js';
import type { GenericStore } from './generic-store.js';
import { resourceKey, ResourceRegistry, type RegisteredResource } from './registry.js';

const resource = (group: string, version: string, name: string): RegisteredResource => ({
  def: { group, version, resource: name, kind: name, namespaced: true } as unknown as ResourceDefinition,
  store: { prefix: `/registry/${group}/${name}/` } as GenericStore,
});

describe('ResourceRegistry snapshots', () => {
  it('swaps whole snapshots: a snapshot taken before a change never sees it', () => {
    const registry = new ResourceRegistry();
    registry.change({ add: [resource('', 'v1', 'pods')] });
    const before = registry.current();
    registry.change({ add: [resource('example.com', 'v1', 'widgets'), resource('example.com', 'v1beta1', 'widgets')] });
    expect(before.lookup('example.com', 'v1', 'widgets')).toBeUndefined();
    expect(registry.lookup('example.com', 'v1', 'widgets')).toBeDefined();
    expect(registry.groups()).toEqual([{ name: '', versions: ['v1'] }, { name: 'example.com', versions: ['v1', 'v1beta1'] }]);
    registry.change({ remove: [resourceKey('example.com', 'v1', 'widgets')] });
    expect(registry.groups()[1]).toEqual({ name: 'example.com', versions: ['v1beta1'] });
  });

  it('refuses a resource served twice, changing nothing', () => {
    const registry = new ResourceRegistry();
    registry.change({ add: [resource('', 'v1', 'pods')] });
    const generation = registry.current().generation;
    expect(() => registry.change({ add: [resource('', 'v1', 'pods')] })).toThrow(/defined twice/);
    expect(registry.current().generation).toBe(generation);
  });

  it('makes a derived view once per snapshot and tells listeners of each swap', () => {
    const registry = new ResourceRegistry();
    let made = 0;
    const view = registry.derived((s) => (made++, s.all().length));
    const seen: number[] = [];
    registry.onChange((s) => seen.push(s.all().length));
    expect(view()).toBe(0);
    expect(view()).toBe(0);
    registry.change({ add: [resource('', 'v1', 'pods')] });
    expect(view()).toBe(1);
    expect(made).toBe(2);
    expect(seen).toEqual([1]);
  });
});
