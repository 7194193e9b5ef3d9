/**
 * One watch on etcd: its own gRPC Watch stream (one watcher per stream, so a stream-wide progress
 * report concerns this watch only), events converted to KVEvents in revision order, resumed from
 * the last delivered revision when the stream breaks, failed with KVError('compacted') when etcd
 * cancels it for compaction.
 *
 * Progress (only for watches opened with `progress`). etcd's revision advances with writes anywhere
 * in the cluster, so a follower waiting for the current revision may see no event that carries it.
 * `requestProgress(revision)` makes the watch yield `{ type: 'progress', revision }` ≥ that revision,
 * after every event before it, in one of two ways:
 * - 'request': a WatchProgressRequest on the stream; etcd answers with its current revision. etcd
 *   orders that answer after pending events only from 3.4.31 / 3.5.13 (before, the answer could
 *   overtake events still queued for the stream, which would let a reader miss them).
 * - 'write': a put of the watch's marker key (the prefix itself, inside the watched range); its
 *   event comes through the same watcher as every other event, so it is ordered on every etcd
 *   version. It costs a write, so it waits a moment for events already in flight to arrive first.
 * etcd's periodic progress notifications for this watcher (progress_notify) are ordered on every
 * version and are used too.
 *
 * Backpressure: when the consumer leaves PAUSE_AT responses' events unread, the gRPC stream is paused
 * (HTTP/2 flow control then holds etcd back, which keeps what it cannot send in its own bounded way)
 * and resumed once the consumer is down to RESUME_AT, so a slow consumer never makes this process
 * buffer an unbounded part of etcd's history.
 */
import type { IDuplexStream, IEvent, IKeyValue, IWatchRequest, IWatchResponse, WatchClient } from 'etcd3';
import { AsyncQueue } from '../../util/async-queue.js';
import { KVError, type KVEntry, type KVEvent, type KVWatchEvent } from '../kv.js';
import type { Keyspace } from './keyspace.js';

export type ProgressMode = 'request' | 'write';

export interface EtcdWatchDeps {
  watchClient: WatchClient;
  keys: Keyspace;
  mode: ProgressMode;
  /** Puts the marker key of a watched prefix; resolves with the revision of the put. */
  writeMarker(prefix: string): Promise<number>;
  /** etcd reported history compacted up to this revision. */
  noteCompacted(revision: number): void;
  /** The watch ended (for whatever reason); the store forgets it. */
  onStop(watch: EtcdWatch): void;
}

/** How long a marker write waits for events already in flight to satisfy the request. */
const MARKER_GRACE_MS = 20;
/** Progress requests repeat while the watch is behind: a follower may answer with an older revision. */
const REQUEST_RETRY_MS = 50;
const RECONNECT_MIN_MS = 50;
const RECONNECT_MAX_MS = 5_000;
/** Queued events (and progress reports) at which the stream is paused, and at which it resumes. */
const PAUSE_AT = 1024;
const RESUME_AT = 256;

/** The etcd3 typings leave out that the stream is a Node duplex stream, which can pause. */
type WatchStream = IDuplexStream<IWatchRequest, IWatchResponse> & { pause?(): unknown; resume?(): unknown };

export function entryOf(keys: Keyspace, kv: IKeyValue): KVEntry {
  return { key: keys.rel(kv.key), value: kv.value.toString('utf8'), createRevision: Number(kv.create_revision), modRevision: Number(kv.mod_revision) };
}

export class EtcdWatch {
  readonly queue: AsyncQueue<KVWatchEvent>;
  /** Every event up to this revision has been delivered. */
  private last: number;
  /** The newest revision a follower waits for. */
  private wanted = 0;
  private stream: WatchStream | undefined;
  private created = false;
  private stopped = false;
  private nudgeTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay = RECONNECT_MIN_MS;
  private markerInFlight = false;
  private paused = false;

  constructor(
    private readonly deps: EtcdWatchDeps,
    private readonly prefix: string,
    fromRevision: number,
    private readonly signal: AbortSignal,
    /** Whether the consumer wants progress reports (KVWatchOptions.progress). */
    private readonly reportsProgress: boolean,
  ) {
    this.last = fromRevision;
    this.queue = new AsyncQueue<KVWatchEvent>({ onClose: () => this.stop(), onTake: () => this.resumeIfCaughtUp() });
    this.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  private readonly onAbort = (): void => this.queue.end();

  start(): void {
    if (this.signal.aborted) {
      this.queue.end();
      return;
    }
    void this.open();
  }

  /** Ends the watch with an error (the store closing, compaction). */
  fail(error: KVError): void {
    this.queue.fail(error);
  }

  requestProgress(revision: number): void {
    if (!this.reportsProgress || this.stopped || revision <= this.last) return;
    this.wanted = Math.max(this.wanted, revision);
    this.scheduleNudge(this.deps.mode === 'request' ? 0 : MARKER_GRACE_MS);
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.signal.removeEventListener('abort', this.onAbort);
    clearTimeout(this.nudgeTimer);
    clearTimeout(this.reconnectTimer);
    this.closeStream();
    this.deps.onStop(this);
  }

  private closeStream(): void {
    const s = this.stream;
    this.stream = undefined;
    this.created = false;
    if (s) discard(s);
  }

  private async open(): Promise<void> {
    let stream: WatchStream;
    try {
      stream = await this.deps.watchClient.watch();
    } catch {
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      discard(stream);
      return;
    }
    this.stream = stream;
    this.paused = false;
    stream.on('data', (r) => {
      this.onResponse(stream, r);
      this.pauseIfBehind();
    });
    stream.on('error', () => this.onBroken(stream));
    stream.on('end', () => this.onBroken(stream));
    const range = this.deps.keys.prefixRange(this.prefix);
    stream.write({ create_request: { key: range.start, range_end: range.end, start_revision: this.last + 1, prev_kv: true, progress_notify: this.reportsProgress } });
  }

  private pauseIfBehind(): void {
    if (this.paused || this.queue.size < PAUSE_AT || !this.stream?.pause) return;
    this.paused = true;
    this.stream.pause();
  }

  private resumeIfCaughtUp(): void {
    if (!this.paused || this.queue.size > RESUME_AT) return;
    this.paused = false;
    this.stream?.resume?.();
  }

  private onBroken(stream: WatchStream): void {
    if (stream !== this.stream || this.stopped) return;
    this.closeStream();
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(RECONNECT_MAX_MS, delay * 2);
    this.reconnectTimer = setTimeout(() => void this.open(), delay);
  }

  private onResponse(stream: WatchStream, r: IWatchResponse): void {
    if (stream !== this.stream || this.stopped) return;
    if (r.canceled) {
      const compacted = Number(r.compact_revision);
      if (compacted > 0) {
        this.deps.noteCompacted(compacted);
        this.fail(new KVError('compacted', `required revision ${this.last + 1} has been compacted`, undefined, compacted));
      } else {
        this.fail(new KVError('unavailable', `etcd canceled the watch${r.cancel_reason ? `: ${r.cancel_reason}` : ''}`));
      }
      return;
    }
    if (r.created) {
      this.created = true;
      this.reconnectDelay = RECONNECT_MIN_MS;
      if (this.wanted > this.last && this.deps.mode === 'request') this.scheduleNudge(0);
      return;
    }
    if (r.events.length === 0) {
      // A progress notification: this watcher's periodic one (ordered with its events on every
      // version), or the answer to our request (watch id -1), which only 'request' mode trusts.
      if (r.watch_id === '-1' && this.deps.mode !== 'request') return;
      this.progress(Number(r.header.revision));
      return;
    }
    for (const ev of r.events) {
      const revision = Number(ev.kv.mod_revision);
      const converted = this.convert(ev, revision);
      if (!converted) return;
      if (converted === 'marker') this.progress(revision);
      else this.deliver(converted);
    }
  }

  private convert(ev: IEvent, revision: number): KVEvent | 'marker' | undefined {
    const keys = this.deps.keys;
    const key = keys.rel(ev.kv.key);
    if (key === keys.prefixKey(this.prefix)) return 'marker';
    const prev = ev.prev_kv ? entryOf(keys, ev.prev_kv) : undefined;
    if (String(ev.type).toLowerCase() === 'delete') {
      if (!prev) return this.lostHistory(key, revision);
      return { type: 'delete', key, modRevision: revision, prev };
    }
    const createRevision = Number(ev.kv.create_revision);
    if (createRevision === revision) return { type: 'put', key, value: ev.kv.value.toString('utf8'), createRevision, modRevision: revision };
    if (!prev) return this.lostHistory(key, revision);
    return { type: 'put', key, value: ev.kv.value.toString('utf8'), createRevision, modRevision: revision, prev };
  }

  /** etcd could not attach the previous value: the revision before the event is compacted. */
  private lostHistory(key: string, revision: number): undefined {
    this.fail(new KVError('compacted', `the state of ${key} before revision ${revision} has been compacted`, undefined, revision));
    return undefined;
  }

  private deliver(ev: KVEvent): void {
    // An event at or before a reported progress only comes from a progress request answered out of
    // order (etcd before 3.4.31 / 3.5.13, 'request' forced): late is better than lost.
    this.queue.push(ev);
    if (ev.modRevision > this.last) this.advanced(ev.modRevision);
  }

  private progress(revision: number): void {
    if (!this.reportsProgress || revision <= this.last) return;
    this.queue.push({ type: 'progress', revision });
    this.advanced(revision);
  }

  private advanced(revision: number): void {
    this.last = revision;
    if (revision >= this.wanted && this.nudgeTimer) {
      clearTimeout(this.nudgeTimer);
      this.nudgeTimer = undefined;
    }
  }

  private scheduleNudge(delayMs: number): void {
    if (this.nudgeTimer || this.stopped) return;
    this.nudgeTimer = setTimeout(() => {
      this.nudgeTimer = undefined;
      void this.nudge();
    }, delayMs);
  }

  private async nudge(): Promise<void> {
    if (this.stopped || this.last >= this.wanted) return;
    if (this.deps.mode === 'request') {
      if (this.stream && this.created) this.stream.write({ progress_request: {} });
      this.scheduleNudge(REQUEST_RETRY_MS);
      return;
    }
    // One marker at a time: its event arrives in order and satisfies every wait it covers.
    if (this.markerInFlight) return;
    this.markerInFlight = true;
    try {
      const revision = await this.deps.writeMarker(this.prefix);
      this.markerInFlight = false;
      if (this.wanted > revision) this.scheduleNudge(0);
    } catch {
      this.markerInFlight = false;
      this.scheduleNudge(RECONNECT_MAX_MS);
    }
  }
}

function discard(stream: WatchStream): void {
  try {
    // Ending our side first matters: the etcd3 client counts an error on a still-writable stream
    // (our own cancel included) as a failure of the endpoint, and after three in a row it stops
    // using the endpoint for seconds.
    stream.end();
    stream.cancel();
  } catch {
    // already gone
  }
}
