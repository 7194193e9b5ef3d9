/**
 * Listers over a real watch cache on a real memory store: reads, the namespace scope, an index, and
 * changes both visible and told, whether written through the generic store or straight to the store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../test/helpers/chain-server.js';
import { admissionChain } from '../admission/types.js';
import { configMapResource } from '../apis/core/v1/configmap.js';
import { createApiNames } from '../machinery/api-names.js';
import type { ListerEvent } from '../machinery/lister.js';
import { WatchCache } from '../storage/cacher/cache.js';
import type { RevisionedKV } from '../storage/kv.js';
import { createMemoryKV } from '../storage/memory/memory-kv.js';
import { GenericStore, type RequestScope } from './generic-store.js';
import { ResourceListers } from './lister.js';

interface ConfigMap {
  metadata: { name: string; namespace: string; labels?: Record<string, string>; resourceVersion?: string };
  data?: Record<string, string>;
}

const PREFIX = '/registry/core/configmaps/';
const names = createApiNames();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0)) await f();
});

async function setup(opts: { seed?: (kv: RevisionedKV) => Promise<void>; beforeStart?: (listers: ResourceListers) => void } = {}) {
  const kv = createMemoryKV();
  const cache = new WatchCache(kv);
  const logs: { level: string; msg: string }[] = [];
  const stores = new Map<string, GenericStore>();
  const listers = new ResourceListers(cache, stores, memoryLogger(logs));
  const store = new GenericStore({ def: configMapResource(names, { names }), names, kv, cache, admission: admissionChain([]), prefix: PREFIX });
  stores.set('/configmaps', store);
  cache.register(PREFIX, store.makeEntry);
  await opts.seed?.(kv);
  opts.beforeStart?.(listers);
  await cache.start('/registry/');
  cleanups.push(() => cache.close(), () => kv.close());
  const scope = (namespace: string): RequestScope => ({ namespace, signal: new AbortController().signal, warnings: [] });
  const create = (namespace: string, name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}) =>
    store.create(scope(namespace), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data }, { dryRun: false });
  const relabel = (namespace: string, name: string, labels: Record<string, string>) =>
    store.update(scope(namespace), name, (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels } }), { dryRun: false, subresource: '', allowCreate: false });
  const remove = (namespace: string, name: string) => store.delete(scope(namespace), name, {}, { dryRun: false });
  const settled = () => cache.syncWithStore();
  return { kv, cache, listers, logs, create, relabel, remove, settled };
}

const byTeam = (cm: ConfigMap): string[] => (cm.metadata.labels?.team ? [cm.metadata.labels.team] : []);

describe('ResourceListers', () => {
  it('gets and lists the stored objects, all or by namespace, frozen', async () => {
    const t = await setup();
    await t.create('a', 'one', {}, { k: 'v' });
    await t.create('a', 'two');
    await t.create('b', 'three');
    await t.settled();
    const lister = t.listers.for<ConfigMap>('', 'configmaps');
    expect(lister.get('a', 'one')?.data).toEqual({ k: 'v' });
    expect(lister.get('a', 'three')).toBeUndefined();
    expect(lister.list().map((c) => c.metadata.name)).toEqual(['one', 'two', 'three']);
    expect(lister.list('a').map((c) => c.metadata.name)).toEqual(['one', 'two']);
    expect(lister.list('nowhere')).toEqual([]);
    expect(Object.isFrozen(lister.get('a', 'one')?.metadata)).toBe(true);
    expect(t.listers.for('', 'configmaps')).toBe(lister);
  });

  it('makes a change visible and tells it: ADDED, MODIFIED with the old object, DELETED', async () => {
    const t = await setup();
    const lister = t.listers.for<ConfigMap>('', 'configmaps');
    const events: ListerEvent<ConfigMap>[] = [];
    const stop = lister.onChange((e) => events.push(e));
    await t.create('a', 'one', { team: 'red' });
    await t.settled();
    expect(lister.get('a', 'one')?.metadata.labels).toEqual({ team: 'red' });
    await t.relabel('a', 'one', { team: 'blue' });
    await t.settled();
    expect(lister.get('a', 'one')?.metadata.labels).toEqual({ team: 'blue' });
    await t.remove('a', 'one');
    await t.settled();
    expect(lister.get('a', 'one')).toBeUndefined();
    expect(events.map((e) => [e.type, e.object.metadata.labels?.team, e.oldObject?.metadata.labels?.team])).toEqual([
      ['ADDED', 'red', undefined],
      ['MODIFIED', 'blue', 'red'],
      ['DELETED', 'blue', undefined],
    ]);
    stop();
    await t.create('a', 'two');
    await t.settled();
    expect(events).toHaveLength(3);
  });

  it('keeps an index up to date as objects move between its values and go away', async () => {
    const t = await setup();
    await t.create('a', 'one', { team: 'red' });
    await t.create('b', 'two', { team: 'red' });
    await t.settled();
    const lister = t.listers.for<ConfigMap>('', 'configmaps', { indexes: { team: byTeam } });
    expect(lister.byIndex('team', 'red').map((c) => c.metadata.name)).toEqual(['one', 'two']);
    await t.relabel('a', 'one', { team: 'blue' });
    await t.remove('b', 'two');
    await t.create('c', 'three', { team: 'blue' });
    await t.settled();
    expect(lister.byIndex('team', 'red')).toEqual([]);
    expect(lister.byIndex('team', 'blue').map((c) => c.metadata.name)).toEqual(['one', 'three']);
    expect(() => lister.byIndex('owner', 'x')).toThrow(/no index owner/);
    expect(() => t.listers.for<ConfigMap>('', 'configmaps', { indexes: { team: (c) => [c.metadata.name] } })).toThrow(/already defined differently/);
  });

  it('sees a write made straight to the store once synced', async () => {
    const t = await setup();
    const lister = t.listers.for<ConfigMap>('', 'configmaps');
    await t.kv.create(`${PREFIX}a/raw`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'raw', namespace: 'a' } }));
    await lister.synced();
    expect(lister.get('a', 'raw')?.metadata.name).toBe('raw');
  });

  it('made before the cache starts, tells what the first load finds as ADDED', async () => {
    const events: string[] = [];
    await setup({
      seed: async (kv) => {
        await kv.create(`${PREFIX}a/early`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'early', namespace: 'a' } }));
      },
      beforeStart: (listers) => void listers.for<ConfigMap>('', 'configmaps').onChange((e) => events.push(`${e.type} ${e.object.metadata.name}`)),
    });
    expect(events).toEqual(['ADDED early']);
  });

  it('a listener that throws is logged and stops nothing', async () => {
    const t = await setup();
    const lister = t.listers.for<ConfigMap>('', 'configmaps');
    const told: string[] = [];
    lister.onChange(() => {
      throw new Error('reader bug');
    });
    lister.onChange((e) => told.push(e.object.metadata.name));
    await t.create('a', 'one');
    await t.create('a', 'two');
    await t.settled();
    expect(told).toEqual(['one', 'two']);
    expect(lister.list('a')).toHaveLength(2);
    expect(t.logs.filter((l) => l.level === 'error')).toHaveLength(2);
  });

  it('finds its store on first use, and says so when the resource is not stored', async () => {
    const t = await setup();
    const missing = t.listers.for('', 'widgets');
    expect(() => missing.list()).toThrow(/no stored resource widgets/);
  });
});
