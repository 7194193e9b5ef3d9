import { describe, expect, it } from 'vitest';
import type { ManagedFieldsEntry } from './managed-fields.js';
import { fieldPath } from './path.js';
import { parentEntriesFromView, viewEntriesFromParent, type ViewFieldMapping } from './view-fields.js';

const mapping: ViewFieldMapping = {
  viewPath: fieldPath('spec', 'replicas'),
  viewApiVersion: 'autoscaling/v1',
  parentPaths: new Map([['apps/v1', fieldPath('spec', 'replicas')]]),
  parentApiVersion: 'apps/v1',
};

const REPLICAS = { 'f:spec': { 'f:replicas': {} } };
const REPLICAS_AND_SELECTOR = { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } };
const SELECTOR = { 'f:spec': { 'f:selector': {} } };

function entry(manager: string, operation: 'Apply' | 'Update', apiVersion: string, fieldsV1: object, extra: Partial<ManagedFieldsEntry> = {}): ManagedFieldsEntry {
  return { manager, operation, apiVersion, fieldsType: 'FieldsV1', fieldsV1, ...extra };
}

describe('viewEntriesFromParent', () => {
  it('keeps only owners of the mapped field, reduced to it at the view version, with their time and subresource', () => {
    const parent = [
      entry('owner', 'Apply', 'apps/v1', REPLICAS_AND_SELECTOR, { time: '2024-01-01T00:00:00Z' }),
      entry('other', 'Update', 'apps/v1', SELECTOR, { time: '2024-01-01T00:00:01Z' }),
      entry('hpa', 'Update', 'apps/v1', REPLICAS, { time: '2024-01-01T00:00:02Z', subresource: 'scale' }),
    ];
    expect(viewEntriesFromParent(parent, mapping)).toEqual([
      entry('owner', 'Apply', 'autoscaling/v1', REPLICAS, { time: '2024-01-01T00:00:00Z' }),
      entry('hpa', 'Update', 'autoscaling/v1', REPLICAS, { time: '2024-01-01T00:00:02Z', subresource: 'scale' }),
    ]);
  });

  it('skips entries at an apiVersion the parent is not known at, and gives none when nobody owns the field', () => {
    expect(viewEntriesFromParent([entry('old', 'Apply', 'apps/v9', REPLICAS)], mapping)).toBeUndefined();
    expect(viewEntriesFromParent([entry('sel', 'Apply', 'apps/v1', SELECTOR)], mapping)).toBeUndefined();
    expect(viewEntriesFromParent(undefined, mapping)).toBeUndefined();
  });
});

describe('parentEntriesFromView', () => {
  it('a new view owner takes the field from a parent owner, which keeps the rest; the new entry has no time', () => {
    const parent = [entry('test', 'Apply', 'apps/v1', REPLICAS_AND_SELECTOR, { time: '2024-01-01T00:00:00Z' })];
    const view = [entry('scaler', 'Update', 'autoscaling/v1', REPLICAS, { time: '2024-02-02T00:00:00Z', subresource: 'scale' })];
    expect(parentEntriesFromView(parent, view, mapping)).toEqual([
      entry('test', 'Apply', 'apps/v1', SELECTOR, { time: '2024-01-01T00:00:00Z' }),
      entry('scaler', 'Update', 'apps/v1', REPLICAS, { subresource: 'scale' }),
    ]);
  });

  it('a parent owner that kept the field through the write stays as it was (Apply entries match across versions)', () => {
    const parent = [entry('test', 'Apply', 'apps/v1', REPLICAS_AND_SELECTOR)];
    const view = [entry('test', 'Apply', 'autoscaling/v1', REPLICAS), entry('co', 'Apply', 'autoscaling/v1', REPLICAS, { subresource: 'scale' })];
    expect(parentEntriesFromView(parent, view, mapping)).toEqual([
      entry('co', 'Apply', 'apps/v1', REPLICAS, { subresource: 'scale' }),
      entry('test', 'Apply', 'apps/v1', REPLICAS_AND_SELECTOR),
    ]);
  });

  it('an owner left with nothing is dropped', () => {
    const parent = [entry('test', 'Apply', 'apps/v1', REPLICAS)];
    const view = [entry('scaler', 'Update', 'autoscaling/v1', REPLICAS, { subresource: 'scale' })];
    expect(parentEntriesFromView(parent, view, mapping)).toEqual([entry('scaler', 'Update', 'apps/v1', REPLICAS, { subresource: 'scale' })]);
  });

  it('view entries not owning the field (a Scale status) are not carried to the parent', () => {
    const parent = [entry('test', 'Apply', 'apps/v1', SELECTOR)];
    const view = [entry('scaler', 'Update', 'autoscaling/v1', { 'f:status': { 'f:replicas': {} } }, { subresource: 'scale' })];
    expect(parentEntriesFromView(parent, view, mapping)).toEqual(parent);
  });

  it('drops parent entries at an unknown apiVersion', () => {
    const parent = [entry('test', 'Apply', 'apps/v1', REPLICAS), entry('future', 'Apply', 'apps/v10', SELECTOR)];
    const view = [entry('scaler', 'Update', 'autoscaling/v1', REPLICAS)];
    expect(parentEntriesFromView(parent, view, mapping)).toEqual([entry('scaler', 'Update', 'apps/v1', REPLICAS)]);
  });

  it('an updater of the parent keeping the field comes back as a second entry of the same manager (updates are told apart by version)', () => {
    const parent = [entry('create', 'Update', 'apps/v1', REPLICAS_AND_SELECTOR, { time: '2024-01-01T00:00:00Z' })];
    const view = [entry('create', 'Update', 'autoscaling/v1', REPLICAS, { time: '2024-01-01T00:00:00Z' })];
    expect(parentEntriesFromView(parent, view, mapping)).toEqual([
      entry('create', 'Update', 'apps/v1', REPLICAS),
      entry('create', 'Update', 'apps/v1', SELECTOR, { time: '2024-01-01T00:00:00Z' }),
    ]);
  });
});
