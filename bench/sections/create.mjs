/**
 * Creates per second at concurrency 1 and 16, against raw SQLite commits of the same rows with the
 * server's durability setting: better-sqlite3, WAL, synchronous=FULL, one transaction per row.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { expectStatus, runLoad } from '../lib/load.mjs';
import { configMap } from '../lib/objects.mjs';
import { tempDir } from '../lib/procs.mjs';
import { alternate, createNamespace } from './common.mjs';

/** The server's table, so each baseline row costs what a stored revision costs. */
const SCHEMA = `
CREATE TABLE kv (revision INTEGER PRIMARY KEY, key TEXT NOT NULL, create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL, deleted INTEGER NOT NULL, value TEXT NOT NULL);
CREATE INDEX kv_key_revision ON kv (key, revision);`;

/** A raw SQLite writer; rowsPerSecond() commits rows one transaction each, for a bounded time. */
export function rawSqlite(storedJson) {
  const dir = tempDir('raw');
  const db = new Database(join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(SCHEMA);
  const insert = db.prepare('INSERT INTO kv (revision, key, create_revision, prev_revision, deleted, value) VALUES (?, ?, ?, 0, 0, ?)');
  const commit = db.transaction((rev, name) => insert.run(rev, `/registry/core/configmaps/bench-create/${name}`, rev, storedJson.replace('@NAME@', name)));
  let rev = 0;
  return {
    rowsPerSecond(warmupMs, durationMs) {
      const start = performance.now();
      const from = start + warmupMs;
      const until = from + durationMs;
      let counted = 0;
      for (let now = start; now < until; ) {
        rev++;
        commit(rev, `c-${rev}`);
        now = performance.now();
        if (now >= from && now <= until) counted++;
      }
      return (counted * 1000) / durationMs;
    },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function benchCreate({ cfg, server, backend, record }) {
  const ns = 'bench-create';
  await createNamespace(server.url, ns);
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  const first = await expectStatus(server.url, { method: 'POST', path, body: JSON.stringify(configMap('c-template')) }, 201);
  const stored = first.body.toString().replace('"c-template"', '"@NAME@"');
  const raw = rawSqlite(stored);
  let seq = 0;
  const next = () => {
    const n = seq++;
    return { method: 'POST', path, body: JSON.stringify(configMap(`c-${n}`, n)) };
  };
  try {
    for (const concurrency of [1, 16]) {
      const values = [];
      const base = [];
      for (let round = 0; round < cfg.rounds; round++) {
        const [v, b] = await alternate(
          round,
          () => runLoad(server.url, { concurrency, warmupMs: cfg.warmupMs, durationMs: cfg.durationMs, next, expect: 201 }),
          async () => raw.rowsPerSecond(cfg.warmupMs, cfg.durationMs),
        );
        values.push(v);
        base.push(b);
      }
      record({
        id: `create.c${concurrency}`,
        measure: `creates, c=${concurrency} (/s)`,
        backend,
        values,
        baseline: { what: `raw better-sqlite3 commits (WAL, synchronous=FULL, 1 row/txn) of the same ${first.body.length}-byte rows`, values: base },
      });
    }
  } finally {
    raw.close();
  }
}
