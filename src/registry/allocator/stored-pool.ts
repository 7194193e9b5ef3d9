/**
 * A pool kept as one bitmap object in the store (Kubernetes' RangeAllocation), changed only by
 * compare-and-swap on its revision: several servers on one store never hand out the same value.
 *
 * Requests arriving while a write is in flight are applied together in the next write, so a burst
 * of creates costs a few store writes rather than one contended write each. A lost race re-reads
 * the bitmap and applies the whole batch again. Every answer is decided on the state of the store:
 * either the write carrying it succeeds, or, when nothing changes, the bitmap is re-read first.
 *
 * When the bitmap is missing, or was written for another range, it is rebuilt from the values the
 * stored objects hold (`inUse`), so a changed flag or an old data directory starts consistent.
 */
import { errors, StatusError } from '../../machinery/errors.js';
import { isKVError, type KVEntry, type RevisionedKV } from '../../storage/kv.js';
import { Bitmap } from './bitmap.js';
import type { RangeSpec } from './ranges.js';
import type { AllocationResult, ValuePool } from './types.js';

export interface StoredPoolOptions<T> {
  kv: RevisionedKV;
  /** Where the bitmap lives; under /registry/internal/ so the watch cache's revision follows it. */
  key: string;
  /** The object's name, for people reading the store. */
  name: string;
  spec: RangeSpec<T>;
  /** The values stored objects hold now: how a missing or re-ranged bitmap is rebuilt. */
  inUse: () => Promise<readonly T[]>;
  random?: () => number;
}

type Op<T> = { kind: 'allocate'; requests: readonly (T | undefined)[] } | { kind: 'release'; values: readonly T[] };

interface Pending<T> {
  op: Op<T>;
  resolve(result: AllocationResult<T> | undefined): void;
  reject(e: unknown): void;
}

interface State {
  bits: Bitmap;
  /** 0 when the object does not exist yet. */
  modRevision: number;
  /** The bits were rebuilt rather than read: they must be written even if no request changes them. */
  rebuilt: boolean;
}

interface StoredRange {
  apiVersion?: string;
  kind?: string;
  range?: unknown;
  data?: unknown;
}

const MAX_ATTEMPTS = 100;

export class StoredPool<T> implements ValuePool<T> {
  private known: State | undefined;
  private readonly queue: Pending<T>[] = [];
  private draining = false;
  private readonly random: () => number;

  constructor(private readonly opts: StoredPoolOptions<T>) {
    this.random = opts.random ?? Math.random;
  }

  get range(): string {
    return this.opts.spec.text;
  }

  async allocate(requests: readonly (T | undefined)[], options: { dryRun?: boolean } = {}): Promise<AllocationResult<T>> {
    if (options.dryRun) {
      // A dry run answers from the current state without writing it.
      const state = await this.read();
      return this.apply(state.bits.clone(), { kind: 'allocate', requests }) as AllocationResult<T>;
    }
    return (await this.enqueue({ kind: 'allocate', requests })) as AllocationResult<T>;
  }

  async release(values: readonly T[]): Promise<void> {
    if (values.length === 0) return;
    await this.enqueue({ kind: 'release', values });
  }

  private enqueue(op: Op<T>): Promise<AllocationResult<T> | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        try {
          const results = await this.commit(batch.map((p) => p.op));
          batch.forEach((p, i) => p.resolve(results[i]));
        } catch (e) {
          for (const p of batch) p.reject(e);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** Applies the operations to the latest bitmap and writes it, retrying on a lost race. */
  private async commit(ops: Op<T>[]): Promise<(AllocationResult<T> | undefined)[]> {
    const { kv, key } = this.opts;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const cached = this.known !== undefined;
      const base = this.known ?? (await this.read());
      const bits = base.bits.clone();
      const results = ops.map((op) => this.apply(bits, op));
      if (base.modRevision !== 0 && !base.rebuilt && bits.equals(base.bits)) {
        // Nothing to write, so no compare-and-swap vouches for the state the answers came from:
        // a refusal decided on a remembered bitmap is checked against the store first.
        if (cached) {
          const fresh = await this.read();
          if (fresh.modRevision !== base.modRevision || fresh.rebuilt) {
            this.known = fresh;
            continue;
          }
        }
        this.known = base;
        return results;
      }
      try {
        const value = this.encode(bits);
        const entry = base.modRevision === 0 ? await kv.create(key, value) : await kv.update(key, value, base.modRevision);
        this.known = { bits, modRevision: entry.modRevision, rebuilt: false };
        return results;
      } catch (e) {
        this.known = undefined;
        if (isKVError(e, 'conflict') && e.current) {
          this.known = await this.fromEntry(e.current);
          continue;
        }
        if (isKVError(e, 'conflict') || isKVError(e, 'exists') || isKVError(e, 'not-found')) continue;
        throw storageFailure(e);
      }
    }
    throw errors.serviceUnavailable(`the ${this.opts.name} allocation is being changed too often; try again`);
  }

  private apply(bits: Bitmap, op: Op<T>): AllocationResult<T> | undefined {
    const { spec } = this.opts;
    if (op.kind === 'release') {
      for (const v of op.values) {
        const offset = spec.offsetOf(v);
        if (offset !== undefined) bits.clear(offset);
      }
      return undefined;
    }
    const taken: number[] = [];
    const values: T[] = [];
    const fail = (index: number, reason: 'allocated' | 'not-in-range' | 'full', message: string): AllocationResult<T> => {
      for (const offset of taken) bits.clear(offset);
      return { ok: false, index, reason, message };
    };
    for (let i = 0; i < op.requests.length; i++) {
      const wanted = op.requests[i];
      if (wanted !== undefined) {
        const offset = spec.offsetOf(wanted);
        if (offset === undefined) return fail(i, 'not-in-range', spec.notInRangeMessage(wanted));
        if (bits.has(offset)) return fail(i, 'allocated', spec.allocatedMessage);
        bits.set(offset);
        taken.push(offset);
        values.push(wanted);
        continue;
      }
      const offset = bits.findFree(spec.staticBand, spec.size, this.random) ?? bits.findFree(0, spec.staticBand, this.random);
      if (offset === undefined) return fail(i, 'full', 'range is full');
      bits.set(offset);
      taken.push(offset);
      values.push(spec.valueAt(offset));
    }
    return { ok: true, values };
  }

  private async read(): Promise<State> {
    let entry: KVEntry | undefined;
    try {
      entry = (await this.opts.kv.get(this.opts.key)).entry;
    } catch (e) {
      throw storageFailure(e);
    }
    return entry ? this.fromEntry(entry) : { bits: await this.rebuild(), modRevision: 0, rebuilt: true };
  }

  private async fromEntry(entry: KVEntry): Promise<State> {
    let stored: StoredRange | undefined;
    try {
      stored = JSON.parse(entry.value) as StoredRange;
    } catch {
      stored = undefined;
    }
    const { spec } = this.opts;
    const bits = stored?.range === spec.text && typeof stored.data === 'string' ? Bitmap.fromBase64(spec.size, stored.data) : undefined;
    if (bits) return { bits, modRevision: entry.modRevision, rebuilt: false };
    return { bits: await this.rebuild(), modRevision: entry.modRevision, rebuilt: true };
  }

  private async rebuild(): Promise<Bitmap> {
    const { spec } = this.opts;
    const bits = Bitmap.empty(spec.size);
    let values: readonly T[];
    try {
      values = await this.opts.inUse();
    } catch (e) {
      throw storageFailure(e);
    }
    for (const v of values) {
      const offset = spec.offsetOf(v);
      if (offset !== undefined) bits.set(offset);
    }
    return bits;
  }

  private encode(bits: Bitmap): string {
    const { name, spec } = this.opts;
    return JSON.stringify({ apiVersion: 'v1', kind: 'RangeAllocation', metadata: { name }, range: spec.text, data: bits.toBase64() });
  }
}

function storageFailure(e: unknown): StatusError {
  if (e instanceof StatusError) return e;
  if (isKVError(e)) {
    if (e.code === 'too-large') return errors.internal(`the allocation bitmap is too large for the store: ${e.message}`);
    return errors.serviceUnavailable(`storage is unavailable: ${e.message}`);
  }
  return errors.internal(e instanceof Error ? e.message : String(e));
}
