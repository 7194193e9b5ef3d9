/**
 * The revisioned key-value seam every backend implements (memory, sqlite, etcd).
 *
 * One global revision, strictly increasing, assigned inside the write transaction; events are
 * published to watchers after commit, in revision order. Values are the JSON text of objects
 * without their resourceVersion (which is the entry's modRevision).
 *
 * Errors: only KVError with one of its codes. Writes are not retried here; Storage retries.
 */
export interface KVEntry {
  key: string;
  value: string;
  createRevision: number;
  modRevision: number;
}

export type KVEvent =
  | { type: 'put'; key: string; value: string; createRevision: number; modRevision: number; prev?: KVEntry }
  | { type: 'delete'; key: string; modRevision: number; prev: KVEntry };

/**
 * What a watch yields: the events under its prefix, and progress reports. A progress report says
 * that every event under the prefix up to `revision` has been delivered, so a follower may treat
 * `revision` as seen even though nothing under the prefix changed there (a revision also advances
 * with writes outside the prefix, or, on etcd, anywhere in the cluster).
 */
export type KVWatchEvent = KVEvent | { type: 'progress'; revision: number };

export interface KVWatchOptions {
  /**
   * Report progress when asked (requestProgress). For a follower of the whole store (the watch
   * cache); on etcd it may cost a write of a marker key equal to the watched prefix, which must
   * therefore not be a prefix that holds data.
   */
  progress?: boolean;
}

export interface KVListOptions {
  /** Read at this revision; 0 or absent reads the current state. */
  revision?: number;
  /** First key to include (a continue position); must lie inside the prefix. */
  start?: string;
  /** Maximum entries to return; absent or 0 means all. */
  limit?: number;
}

export interface KVListResult {
  entries: KVEntry[];
  /** The revision the list was read at. */
  revision: number;
  /** Entries under the prefix after the last one returned, at the same revision. */
  remaining: number;
}

export interface RevisionedKV {
  readonly backend: 'memory' | 'sqlite' | 'etcd';
  get(key: string, revision?: number): Promise<{ entry: KVEntry | undefined; revision: number }>;
  list(prefix: string, opts?: KVListOptions): Promise<KVListResult>;
  /** Throws KVError('exists') when the key is live. */
  create(key: string, value: string): Promise<KVEntry>;
  /** Compare-and-swap on modRevision. Throws KVError('conflict' | 'not-found'). */
  update(key: string, value: string, expectedModRevision: number): Promise<KVEntry>;
  /** Deletes when modRevision matches (or unconditionally). Throws KVError('conflict' | 'not-found'). */
  delete(key: string, expectedModRevision?: number): Promise<{ revision: number; prev: KVEntry }>;
  /**
   * Events under the prefix with modRevision > fromRevision, first from history, then live.
   * Throws KVError('compacted') when fromRevision is older than the kept history. Ends when the
   * signal aborts or the store closes.
   */
  watch(prefix: string, fromRevision: number, signal: AbortSignal, opts?: KVWatchOptions): AsyncIterable<KVWatchEvent>;
  /**
   * Asks the open watches with `progress` that have not yet reported `revision` to report progress up to it (or
   * beyond) soon, even when nothing under their prefix changes. Called by a follower that waits for
   * a revision it learned from currentRevision() or from a client.
   */
  requestProgress(revision: number): void;
  /** The newest committed revision (a consistent read of it, for distributed backends). */
  currentRevision(): Promise<number>;
  /** The oldest revision that can still be read; older reads throw KVError('compacted'). */
  compactedRevision(): Promise<number>;
  /** Drops history before `revision`. Idempotent; compacting to an older revision is a no-op. */
  compact(revision: number): Promise<void>;
  close(): Promise<void>;
}

/** 'too-large': the store refuses a value of that size (etcd's request limit). */
export type KVErrorCode = 'exists' | 'not-found' | 'conflict' | 'compacted' | 'future-revision' | 'too-large' | 'closed' | 'unavailable';

export class KVError extends Error {
  constructor(
    readonly code: KVErrorCode,
    message: string,
    /** For 'conflict': the entry as it is now, when the backend has it at hand. */
    readonly current?: KVEntry,
    /** For 'compacted': the oldest readable revision. */
    readonly compactedRevision?: number,
  ) {
    super(message);
    this.name = 'KVError';
  }
}

export function isKVError(e: unknown, code?: KVErrorCode): e is KVError {
  return e instanceof KVError && (code === undefined || e.code === code);
}

/** The first key after every key with this prefix. */
export function prefixEnd(prefix: string): string {
  if (prefix === '') return '\uffff';
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}
