/**
 * Creates per second at concurrency 1 and 16, against raw SQLite commits of the same rows with the
 * server's durability setting: better-sqlite3, WAL, synchronous=FULL, one transaction per row.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { wrk } from '../lib/generators.mjs';
import { expectStatus } from '../lib/load.mjs';
import { configMap } from '../lib/objects.mjs';
import { tempDir } from '../lib/procs.mjs';
import { median } from '../lib/stats.mjs';
import { alternate, generatorNotes, prepareNamespace } from './common.mjs';

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

/**
 * A wrk Lua script POSTing ConfigMaps named <prefix><n> (n = 1, 2, …) built from `template` (the
 * JSON of one ConfigMap with @NAME@ for its name), so that every request creates a new object.
 */
function createScript(dir, prefix, path, template) {
  const file = join(dir, `create-${prefix}.lua`);
  // Long brackets keep the JSON verbatim; a level no JSON here contains.
  const lua = [
    `local template = [==[${template}]==]`,
    `local path = [==[${path}]==]`,
    'local n = 0',
    'wrk.method = "POST"',
    'wrk.headers["Content-Type"] = "application/json"',
    'request = function()',
    '  n = n + 1',
    `  local body = string.gsub(template, "@NAME@", "${prefix}" .. n)`,
    '  return wrk.format("POST", path, nil, body)',
    'end',
    '',
  ].join('\n');
  writeFileSync(file, lua);
  return file;
}

export async function benchCreate({ cfg, tools, server, backend, mode, record, skip }) {
  if (!tools.wrk.path) return skip(`creates (${mode})`, tools.wrk.missing);
  const ns = 'bench-create';
  await prepareNamespace(server, ns);
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  const first = await expectStatus(server.url, { method: 'POST', path, body: JSON.stringify(configMap('c-template')), access: server.user }, 201);
  const stored = first.body.toString().replace('"c-template"', '"@NAME@"');
  const raw = rawSqlite(stored);
  const template = JSON.stringify(configMap('@NAME@', 7));
  const scripts = tempDir('lua');
  const headers = server.user?.headers ?? {};
  let prefixSeq = 0;
  const drive = (connections, durationS) =>
    wrk(tools, { url: server.url + path, connections, durationS, headers, serverPid: server.pid, script: createScript(scripts, `c${prefixSeq++}-`, path, template) });
  try {
    for (const concurrency of cfg.createConcurrency) {
      await drive(concurrency, cfg.warmupS);
      const values = [];
      const base = [];
      const cpuPerReq = [];
      const notes = new Set();
      for (let round = 0; round < cfg.rounds; round++) {
        const [v, b] = await alternate(
          round,
          async () => {
            const r = await drive(concurrency, cfg.durationS);
            if (r.non2xx || r.errors) throw new Error(`creates: ${r.non2xx} of ${r.total} answers were not 2xx${r.errors ? `; ${r.errors}` : ''}`);
            cpuPerReq.push(r.serverCpuUs / r.total);
            for (const n of generatorNotes(r, 'wrk')) notes.add(n);
            return r.rps;
          },
          async () => raw.rowsPerSecond(cfg.warmupS * 1000, cfg.durationS * 1000),
        );
        values.push(v);
        base.push(b);
      }
      record({
        id: `create.c${concurrency}`,
        measure: `creates, c=${concurrency} (/s)`,
        backend,
        mode,
        values,
        serverCpuUs: median(cpuPerReq),
        notes: [...notes],
        baseline: { what: `raw better-sqlite3 commits (WAL, synchronous=FULL, 1 row/txn) of the same ${first.body.length}-byte rows; server driven by wrk (HTTP/1.1${server.secure ? ' over TLS, bearer token, RBAC' : ''}) with unique names`, values: base },
      });
    }
  } finally {
    raw.close();
    rmSync(scripts, { recursive: true, force: true });
  }
}
