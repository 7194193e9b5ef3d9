/**
 * The embedded durable backend: one SQLite file in WAL mode with `synchronous=FULL`, holding a log
 * of every version (revision = row id) like kine, read with SQL at any kept revision.
 *
 * Writes from one event-loop turn commit together in one transaction (group commit): each caller's
 * promise resolves only after that transaction is durable, and events go to watchers after it, in
 * order. A key index in memory (current revision per live key) decides create/update/delete
 * preconditions without a read, which is sound because one process owns the file.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { KVError, prefixEnd, type KVEntry, type KVEvent, type KVListOptions, type KVListResult, type KVWatchEvent, type KVWatchOptions, type RevisionedKV } from '../kv.js';
import { WatchHub } from '../watch-hub.js';

export interface SqliteKVOptions {
  /** Path of the database file; created with its directory when missing. */
  path: string;
}

interface Row {
  revision: number;
  key: string;
  create_revision: number;
  prev_revision: number;
  deleted: number;
  value: string;
}

interface IndexEntry {
  createRevision: number;
  modRevision: number;
  value: string;
}

interface PendingWrite {
  row: Row;
  event: KVEvent;
  /** The index entry this write replaced, to undo it if the transaction fails. */
  undo: IndexEntry | undefined;
  resolve: () => void;
  reject: (e: unknown) => void;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS kv (
  revision INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  value TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS kv_key_revision ON kv (key, revision);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
`;

export function createSqliteKV(opts: SqliteKVOptions): RevisionedKV {
  return new SqliteKV(opts);
}

class SqliteKV implements RevisionedKV {
  readonly backend = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly hub = new WatchHub();
  /** Live keys at the newest assigned revision (committed or pending). */
  private readonly index = new Map<string, IndexEntry>();
  private assigned = 0;
  private committed = 0;
  private compacted = 0;
  private pending: PendingWrite[] = [];
  private flushScheduled = false;
  private closed = false;
  private readonly stmt;

  constructor(opts: SqliteKVOptions) {
    if (opts.path !== ':memory:') mkdirSync(dirname(opts.path), { recursive: true });
    this.db = new Database(opts.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    this.stmt = {
      insert: this.db.prepare('INSERT INTO kv (revision, key, create_revision, prev_revision, deleted, value) VALUES (@revision, @key, @create_revision, @prev_revision, @deleted, @value)'),
      getAt: this.db.prepare<[string, number], Row>('SELECT * FROM kv WHERE key = ? AND revision <= ? ORDER BY revision DESC LIMIT 1'),
      byRevision: this.db.prepare<[number], Row>('SELECT * FROM kv WHERE revision = ?'),
      listAt: this.db.prepare<[string, string, number, number], Row>(
        `SELECT kv.* FROM kv JOIN (SELECT MAX(revision) AS r FROM kv WHERE key >= ? AND key < ? AND revision <= ? GROUP BY key) latest
         ON kv.revision = latest.r WHERE kv.deleted = 0 ORDER BY kv.key LIMIT ?`,
      ),
      countAt: this.db.prepare<[string, string, number], { n: number }>(
        `SELECT COUNT(*) AS n FROM kv JOIN (SELECT MAX(revision) AS r FROM kv WHERE key >= ? AND key < ? AND revision <= ? GROUP BY key) latest
         ON kv.revision = latest.r WHERE kv.deleted = 0`,
      ),
      eventsAfter: this.db.prepare<[number, string, string, number], Row>('SELECT * FROM kv WHERE revision > ? AND key >= ? AND key < ? AND revision <= ? ORDER BY revision'),
      setMeta: this.db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
      getMeta: this.db.prepare<[string], { value: number }>('SELECT value FROM meta WHERE name = ?'),
      compact: this.db.prepare(
        `DELETE FROM kv WHERE revision <= @c AND (deleted = 1 OR EXISTS (
           SELECT 1 FROM kv newer WHERE newer.key = kv.key AND newer.revision > kv.revision AND newer.revision <= @c))`,
      ),
    };
    this.load();
  }

  private load(): void {
    const maxRow = this.db.prepare('SELECT MAX(revision) AS r FROM kv').get() as { r: number | null };
    this.compacted = this.stmt.getMeta.get('compacted')?.value ?? 0;
    this.committed = Math.max(maxRow.r ?? 0, this.compacted);
    this.assigned = this.committed;
    const live = this.db
      .prepare<[], Row>('SELECT kv.* FROM kv JOIN (SELECT MAX(revision) AS r FROM kv GROUP BY key) latest ON kv.revision = latest.r WHERE kv.deleted = 0')
      .all();
    for (const row of live) this.index.set(row.key, { createRevision: row.create_revision, modRevision: row.revision, value: row.value });
  }

  private check(): void {
    if (this.closed) throw new KVError('closed', 'the store is closed');
  }

  private readable(revision: number | undefined): number {
    const at = revision && revision > 0 ? revision : this.committed;
    if (at < this.compacted) throw new KVError('compacted', `required revision ${at} has been compacted`, undefined, this.compacted);
    if (at > this.committed) throw new KVError('future-revision', `required revision ${at} is a future revision`);
    return at;
  }

  private static entry(row: Row): KVEntry {
    return { key: row.key, value: row.value, createRevision: row.create_revision, modRevision: row.revision };
  }

  async get(key: string, revision?: number): Promise<{ entry: KVEntry | undefined; revision: number }> {
    this.check();
    const at = this.readable(revision);
    const row = this.stmt.getAt.get(key, at);
    return { entry: row && !row.deleted ? SqliteKV.entry(row) : undefined, revision: at };
  }

  async list(prefix: string, opts: KVListOptions = {}): Promise<KVListResult> {
    this.check();
    const at = this.readable(opts.revision);
    const from = opts.start && opts.start > prefix ? opts.start : prefix;
    const end = prefixEnd(prefix);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : -1;
    const rows = this.stmt.listAt.all(from, end, at, limit);
    let remaining = 0;
    const last = rows[rows.length - 1];
    if (limit > 0 && rows.length === limit && last) {
      remaining = this.stmt.countAt.get(`${last.key}\u0000`, end, at)?.n ?? 0;
    }
    return { entries: rows.map(SqliteKV.entry), revision: at, remaining };
  }

  private enqueue(row: Row, event: KVEvent, undo: IndexEntry | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ row, event, undo, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private readonly writeBatch = (batch: PendingWrite[]): void => {
    for (const w of batch) this.stmt.insert.run(w.row);
  };

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      if (this.closed) throw new KVError('closed', 'the store is closed');
      this.db.transaction(this.writeBatch)(batch);
    } catch (e) {
      this.rollback(batch);
      const err = e instanceof KVError ? e : new KVError('unavailable', `the store could not commit: ${(e as Error).message}`);
      for (const w of batch) w.reject(err);
      return;
    }
    this.committed = (batch[batch.length - 1] as PendingWrite).row.revision;
    this.hub.publish(batch.map((w) => w.event));
    for (const w of batch) w.resolve();
  }

  /** Restores the key index and revision counter after a failed transaction. */
  private rollback(batch: PendingWrite[]): void {
    for (let i = batch.length - 1; i >= 0; i--) {
      const w = batch[i] as PendingWrite;
      if (w.undo) this.index.set(w.row.key, w.undo);
      else this.index.delete(w.row.key);
    }
    this.assigned = this.committed;
  }

  async create(key: string, value: string): Promise<KVEntry> {
    this.check();
    if (this.index.has(key)) throw new KVError('exists', `key ${key} already exists`);
    const revision = ++this.assigned;
    const row: Row = { revision, key, create_revision: revision, prev_revision: 0, deleted: 0, value };
    this.index.set(key, { createRevision: revision, modRevision: revision, value });
    await this.enqueue(row, { type: 'put', key, value, createRevision: revision, modRevision: revision }, undefined);
    return { key, value, createRevision: revision, modRevision: revision };
  }

  async update(key: string, value: string, expectedModRevision: number): Promise<KVEntry> {
    this.check();
    const current = this.index.get(key);
    if (!current) throw new KVError('not-found', `key ${key} not found`);
    const prev: KVEntry = { key, value: current.value, createRevision: current.createRevision, modRevision: current.modRevision };
    if (current.modRevision !== expectedModRevision) {
      throw new KVError('conflict', `key ${key} has revision ${current.modRevision}, not ${expectedModRevision}`, prev);
    }
    const revision = ++this.assigned;
    const row: Row = { revision, key, create_revision: current.createRevision, prev_revision: current.modRevision, deleted: 0, value };
    this.index.set(key, { createRevision: current.createRevision, modRevision: revision, value });
    await this.enqueue(row, { type: 'put', key, value, createRevision: current.createRevision, modRevision: revision, prev }, current);
    return { key, value, createRevision: current.createRevision, modRevision: revision };
  }

  async delete(key: string, expectedModRevision?: number): Promise<{ revision: number; prev: KVEntry }> {
    this.check();
    const current = this.index.get(key);
    if (!current) throw new KVError('not-found', `key ${key} not found`);
    const prev: KVEntry = { key, value: current.value, createRevision: current.createRevision, modRevision: current.modRevision };
    if (expectedModRevision !== undefined && current.modRevision !== expectedModRevision) {
      throw new KVError('conflict', `key ${key} has revision ${current.modRevision}, not ${expectedModRevision}`, prev);
    }
    const revision = ++this.assigned;
    // A deletion row keeps the last value, so history readers can report what was deleted.
    const row: Row = { revision, key, create_revision: current.createRevision, prev_revision: current.modRevision, deleted: 1, value: current.value };
    this.index.delete(key);
    await this.enqueue(row, { type: 'delete', key, modRevision: revision, prev }, current);
    return { revision, prev };
  }

  watch(prefix: string, fromRevision: number, signal: AbortSignal, opts: KVWatchOptions = {}): AsyncIterable<KVWatchEvent> {
    return this.hub.subscribe(prefix, signal, () => {
      this.check();
      if (fromRevision < this.compacted) {
        throw new KVError('compacted', `required revision ${fromRevision} has been compacted`, undefined, this.compacted);
      }
      if (fromRevision >= this.committed) return [];
      const rows = this.stmt.eventsAfter.all(fromRevision, prefix, prefixEnd(prefix), this.committed);
      return rows.map((row) => this.eventOf(row));
    }, opts.progress === true);
  }

  private eventOf(row: Row): KVEvent {
    const prevRow = row.prev_revision ? this.stmt.byRevision.get(row.prev_revision) : undefined;
    const prev = prevRow ? SqliteKV.entry(prevRow) : undefined;
    if (row.deleted) {
      return { type: 'delete', key: row.key, modRevision: row.revision, prev: prev ?? { key: row.key, value: row.value, createRevision: row.create_revision, modRevision: row.prev_revision } };
    }
    return { type: 'put', key: row.key, value: row.value, createRevision: row.create_revision, modRevision: row.revision, ...(prev ? { prev } : {}) };
  }

  requestProgress(): void {
    // Every committed event is already queued for its watchers, so the newest revision is the answer.
    if (!this.closed) this.hub.progress(this.committed);
  }

  async currentRevision(): Promise<number> {
    this.check();
    return this.committed;
  }

  async compactedRevision(): Promise<number> {
    return this.compacted;
  }

  async compact(revision: number): Promise<void> {
    this.check();
    const target = Math.min(revision, this.committed);
    if (target <= this.compacted) return;
    this.db.transaction(() => {
      this.stmt.compact.run({ c: target });
      this.stmt.setMeta.run('compacted', target);
    })();
    this.compacted = target;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Writes already accepted commit before the file closes.
    this.flush();
    this.closed = true;
    this.hub.close();
    this.db.close();
  }
}
