import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeKVContract } from '../testing/kv.case.js';
import { createSqliteKV } from './sqlite-kv.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-sqlite-kv-'));
let n = 0;
const freshPath = (): string => join(dir, `kv-${n++}`, 'state.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeKVContract('sqlite', { create: async () => createSqliteKV({ path: freshPath() }) });

describe('sqlite backend durability', () => {
  it('keeps data, revisions and compaction across reopen', async () => {
    const path = freshPath();
    const kv = createSqliteKV({ path });
    const a = await kv.create('/d/a', 'a1');
    await kv.update('/d/a', 'a2', a.modRevision);
    await kv.create('/d/b', 'b1');
    const del = await kv.delete('/d/b');
    await kv.compact(del.revision);
    await kv.close();

    const again = createSqliteKV({ path });
    expect(await again.currentRevision()).toBe(del.revision);
    expect(await again.compactedRevision()).toBe(del.revision);
    expect((await again.get('/d/a')).entry?.value).toBe('a2');
    expect((await again.get('/d/b')).entry).toBeUndefined();
    // The key index is rebuilt: preconditions still hold.
    await expect(again.create('/d/a', 'x')).rejects.toThrow(/exists/);
    const next = await again.create('/d/b', 'b2');
    expect(next.modRevision).toBe(del.revision + 1);
    await again.close();
  });

  it('never reuses a revision after the newest rows were compacted away', async () => {
    const path = freshPath();
    const kv = createSqliteKV({ path });
    await kv.create('/r/a', 'a');
    const d = await kv.delete('/r/a');
    await kv.compact(d.revision);
    await kv.close();
    const again = createSqliteKV({ path });
    expect((await again.create('/r/b', 'b')).modRevision).toBe(d.revision + 1);
    await again.close();
  });

  it('commits every write accepted before close', async () => {
    const path = freshPath();
    const kv = createSqliteKV({ path });
    const writes = Array.from({ length: 20 }, (_, i) => kv.create(`/c/${i}`, String(i)));
    await kv.close();
    const results = await Promise.allSettled(writes);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    const again = createSqliteKV({ path });
    expect((await again.list('/c/')).entries).toHaveLength(20);
    await again.close();
  });
});
