import { describe, expect, it } from 'vitest';
import { createMemoryKV } from '../memory/memory-kv.js';
import { EncodedObject } from '../encoded-object.js';
import { WatchCache, type CacheEntry } from './cache.js';

const make = (key: string, value: string, revision: number): CacheEntry => ({ key, revision, object: new EncodedObject(value), labels: undefined, fields: {} });

describe('WatchCache and the store revision', () => {
  it('catches up with revisions made by writes outside the watched prefix', async () => {
    const kv = createMemoryKV();
    const cache = new WatchCache(kv, { freshnessTimeoutMs: 5_000 });
    cache.register('/registry/things/', make);
    await cache.start('/registry/');
    await kv.create('/registry/things/a', '{}');
    const outside = await kv.create('/elsewhere/b', 'b');
    // A consistent read waits for the store's newest revision, which no event under /registry/ carries.
    await cache.syncWithStore();
    expect(cache.currentRevision).toBeGreaterThanOrEqual(outside.modRevision);
    expect(cache.get('/registry/things/', '/registry/things/a').entry).toBeDefined();
    cache.close();
    await kv.close();
  });
});
