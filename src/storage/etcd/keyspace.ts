/**
 * The mapping between the keys the seam sees (relative, starting with `/`) and etcd's keys (the
 * cluster's key prefix in front), so several clusters can share one etcd.
 */
export class Keyspace {
  /** The prefix without a trailing slash: `/orch`, or '' for none. */
  readonly root: string;

  constructor(prefix: string) {
    this.root = prefix.replace(/\/+$/, '');
  }

  key(rel: string): Buffer {
    return Buffer.from(this.root + rel, 'utf8');
  }

  rel(abs: Buffer): string {
    return abs.toString('utf8').slice(this.root.length);
  }

  /**
   * The etcd range [start, end) holding every key under a relative prefix; `start` is the key of
   * the prefix itself. Relative keys start with `/`, so the empty prefix means this cluster's whole
   * keyspace (`/orch/`), never a sibling such as `/orch2/`.
   */
  prefixRange(prefix: string): { start: Buffer; end: Buffer } {
    const start = this.key(this.prefixKey(prefix));
    return { start, end: bytesAfterPrefix(start) };
  }

  /** The relative key at the start of a prefix's range (the prefix itself, `/` for the empty one). */
  prefixKey(prefix: string): string {
    return prefix === '' ? '/' : prefix;
  }
}

/** The first key after every key starting with `prefix`, as etcd computes range ends. */
export function bytesAfterPrefix(prefix: Buffer): Buffer {
  for (let i = prefix.length - 1; i >= 0; i--) {
    if ((prefix[i] as number) < 0xff) {
      const end = Buffer.from(prefix.subarray(0, i + 1));
      end[i] = (end[i] as number) + 1;
      return end;
    }
  }
  // Only 0xff bytes (or empty): to the end of the keyspace.
  return Buffer.from([0]);
}

/** The smallest key greater than `key`. */
export function keyAfter(key: Buffer): Buffer {
  return Buffer.concat([key, Buffer.from([0])]);
}
