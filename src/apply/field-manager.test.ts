import { describe, expect, it } from 'vitest';
import { StatusError } from '../machinery/errors.js';
import { objectHeader } from '../schema/meta.js';
import { t } from '../schema/dsl.js';
import type { KubeObject } from '../schema/index.js';
import { FieldManager } from './field-manager.js';
import type { ManagedFieldsEntry } from './managed-fields.js';
import type { JsonObject } from './value.js';

const Schema = t.struct('test.Thing', {
  ...objectHeader,
  data: t.field(2, t.map(t.string())),
  spec: t.field(3, t.struct('test.ThingSpec', { replicas: t.field(1, t.int32()), mode: t.field(2, t.string()) })),
});

const LAST_APPLIED = 'kubectl.example.com/last-applied-configuration';
const fm = new FieldManager({ schema: Schema, apiVersion: 'test/v1', kind: 'Thing', maxUpdateManagers: 3, lastAppliedAnnotation: LAST_APPLIED });
const at = (s: number): Date => new Date(Date.UTC(2024, 0, 1, 0, 0, s));
const obj = (data: Record<string, string>, managedFields?: ManagedFieldsEntry[], extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'test/v1',
  kind: 'Thing',
  metadata: { name: 'x', namespace: 'ns', uid: 'u', resourceVersion: '5', creationTimestamp: '2024-01-01T00:00:00Z', ...(managedFields ? { managedFields } : {}) },
  data,
  ...extra,
});
const config = (data: Record<string, string>, meta: JsonObject = {}): JsonObject => ({ apiVersion: 'test/v1', kind: 'Thing', metadata: { name: 'x', ...meta }, data });
const entriesOf = (o: JsonObject): ManagedFieldsEntry[] | undefined => (o.metadata as unknown as KubeObject['metadata']).managedFields;
const summary = (entries: ManagedFieldsEntry[] | undefined): unknown[] => (entries ?? []).map((e) => [e.manager, e.operation, e.time, e.fieldsV1]);

describe('FieldManager.update', () => {
  it('stamps the time only when the writer took fields, and merges into its earlier entry', () => {
    const first = fm.update(undefined, obj({ a: '1' }), { manager: 'w', subresource: '', now: at(1) });
    expect(summary(first)).toEqual([['w', 'Update', '2024-01-01T00:00:01Z', { 'f:data': { '.': {}, 'f:a': {} } }]]);
    const same = fm.update(obj({ a: '1' }, first), obj({ a: '1' }), { manager: 'w', subresource: '', now: at(2) });
    expect(same).toEqual(first);
    const more = fm.update(obj({ a: '1' }, first), obj({ a: '1', b: '2' }), { manager: 'w', subresource: '', now: at(3) });
    expect(summary(more)).toEqual([['w', 'Update', '2024-01-01T00:00:03Z', { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } }]]);
  });

  it('records an empty manager as "unknown"', () => {
    const out = fm.update(undefined, obj({ a: '2' }), { manager: '', subresource: '', now: at(1) });
    expect(summary(out)).toEqual([['unknown', 'Update', '2024-01-01T00:00:01Z', { 'f:data': { '.': {}, 'f:a': {} } }]]);
  });

  it('leaves an existing object nobody tracks untracked (malformed entries count as none), but not after a reset request', () => {
    const broken = [{ manager: 'x', operation: 'Bogus', apiVersion: 'test/v1', fieldsType: 'FieldsV1', fieldsV1: {} }];
    expect(fm.update(obj({ a: '1' }, broken), obj({ a: '2' }), { manager: 'w', subresource: '', now: at(1) })).toBeUndefined();
    expect(fm.update(obj({ a: '1' }), obj({ a: '2' }), { manager: 'w', subresource: '', now: at(1) })).toBeUndefined();
    const reset = obj({ a: '2' }, [{}]);
    expect(summary(fm.update(obj({ a: '1' }, broken), reset, { manager: 'w', subresource: '', now: at(1) }))).toEqual([['w', 'Update', '2024-01-01T00:00:01Z', { 'f:data': { 'f:a': {} } }]]);
  });

  it('sorts entries by operation, then time, then manager', () => {
    let live: KubeObject | undefined;
    const steps: [string, Record<string, string>, number][] = [
      ['z', { a: '1' }, 5],
      ['y', { a: '1', b: '1' }, 3],
      ['x', { a: '1', b: '1', c: '1' }, 3],
    ];
    for (const [manager, data, s] of steps) {
      const next = obj(data);
      next.metadata.managedFields = fm.update(live, next, { manager, subresource: '', now: at(s) });
      live = next;
    }
    expect((live?.metadata.managedFields ?? []).map((e) => e.manager)).toEqual(['x', 'y', 'z']);
  });

  it('keeps at most the configured number of Update entries, merging the oldest into ancient-changes', () => {
    let live: KubeObject | undefined;
    for (let i = 1; i <= 5; i++) {
      const next = obj({ ...(live?.data as Record<string, string> | undefined), [`k${i}`]: 'v' });
      next.metadata.managedFields = fm.update(live, next, { manager: `m${i}`, subresource: '', now: at(i) });
      live = next;
    }
    expect(summary(live?.metadata.managedFields)).toEqual([
      ['ancient-changes', 'Update', '2024-01-01T00:00:03Z', { 'f:data': { '.': {}, 'f:k1': {}, 'f:k2': {}, 'f:k3': {} } }],
      ['m4', 'Update', '2024-01-01T00:00:04Z', { 'f:data': { 'f:k4': {} } }],
      ['m5', 'Update', '2024-01-01T00:00:05Z', { 'f:data': { 'f:k5': {} } }],
    ]);
  });
});

describe('FieldManager.apply', () => {
  it('keeps the time of an apply that changes nothing; a new sharer gets no time', () => {
    const created = fm.apply(undefined, config({ a: '1' }), { manager: 'a', subresource: '', force: false, now: at(1) });
    const live = obj({ a: '1' }, entriesOf(created));
    const again = fm.apply(live, config({ a: '1' }), { manager: 'a', subresource: '', force: false, now: at(9) });
    expect(summary(entriesOf(again))).toEqual([['a', 'Apply', '2024-01-01T00:00:01Z', { 'f:data': { 'f:a': {} } }]]);
    const shared = fm.apply(live, config({ a: '1' }), { manager: 'b', subresource: '', force: false, now: at(9) });
    expect(summary(entriesOf(shared))).toEqual([
      ['b', 'Apply', undefined, { 'f:data': { 'f:a': {} } }],
      ['a', 'Apply', '2024-01-01T00:00:01Z', { 'f:data': { 'f:a': {} } }],
    ]);
  });

  it('lets kubectl take over fields its client-side apply annotation claims, and keeps the annotation current', () => {
    const annotation = JSON.stringify(config({ a: '1' }));
    const csa = [{ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'test/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} } } }];
    const live = obj({ a: '1', b: '1' }, csa, {});
    live.metadata.annotations = { [LAST_APPLIED]: annotation };
    // b is not in the annotation: still a conflict.
    expect(() => fm.apply(live, config({ a: '2', b: '2' }), { manager: 'kubectl', subresource: '', force: false, now: at(1) })).toThrow(StatusError);
    try {
      fm.apply(live, config({ a: '2', b: '2' }), { manager: 'kubectl', subresource: '', force: false, now: at(1) });
    } catch (e) {
      expect((e as StatusError).status.details?.causes?.map((c) => c.field)).toEqual(['.data.b']);
    }
    const out = fm.apply(live, config({ a: '2' }), { manager: 'kubectl', subresource: '', force: false, now: at(1) });
    expect(out.data).toEqual({ a: '2', b: '1' });
    expect(JSON.parse((out.metadata as { annotations: Record<string, string> }).annotations[LAST_APPLIED] as string)).toEqual(config({ a: '2' }));
    // Other managers get the conflict.
    expect(() => fm.apply(live, config({ a: '2' }), { manager: 'someone', subresource: '', force: false, now: at(1) })).toThrow(StatusError);
  });
});
