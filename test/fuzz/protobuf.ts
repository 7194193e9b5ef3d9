/**
 * Protobuf bodies: a minimal writer for the binary envelope (`k8s\0` + runtime.Unknown) and a ConfigMap
 * message, then damaged forms of it (truncated, garbled, wrong prefix, lengths past the end, deep groups,
 * odd wire types). Independent of the server's codec on purpose.
 */
import type { Random } from './random.js';

class Writer {
  private readonly parts: Buffer[] = [];

  varint(n: number | bigint): this {
    let v = BigInt(n);
    if (v < 0n) v &= (1n << 64n) - 1n;
    const out: number[] = [];
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) b |= 0x80;
      out.push(b);
    } while (v > 0n);
    this.parts.push(Buffer.from(out));
    return this;
  }

  key(field: number, wireType: number): this {
    return this.varint((BigInt(field) << 3n) | BigInt(wireType));
  }

  bytes(field: number, data: Buffer): this {
    this.key(field, 2).varint(data.length);
    this.parts.push(data);
    return this;
  }

  string(field: number, s: string): this {
    return this.bytes(field, Buffer.from(s, 'utf8'));
  }

  raw(data: Buffer): this {
    this.parts.push(data);
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

function mapEntry(key: string, value: string): Buffer {
  return new Writer().string(1, key).string(2, value).finish();
}

/** A ConfigMap message: metadata = 1 {name = 1, namespace = 3, labels = 11}, data = 2. */
export function configMapMessage(name: string, namespace: string, data: Record<string, string>, labels: Record<string, string> = {}): Buffer {
  const m = new Writer().string(1, name).string(3, namespace);
  for (const [k, v] of Object.entries(labels)) m.bytes(11, mapEntry(k, v));
  const w = new Writer().bytes(1, m.finish());
  for (const [k, v] of Object.entries(data)) w.bytes(2, mapEntry(k, v));
  return w.finish();
}

export function envelope(apiVersion: string, kind: string, raw: Buffer, extra?: { contentEncoding?: string; contentType?: string }): Buffer {
  const typeMeta = new Writer().string(1, apiVersion).string(2, kind).finish();
  const w = new Writer().bytes(1, typeMeta).bytes(2, raw).string(3, extra?.contentEncoding ?? '').string(4, extra?.contentType ?? '');
  return Buffer.concat([MAGIC, w.finish()]);
}

/** Groups (wire types 3 and 4) nested `depth` deep: a reader that recurses on them must stop somewhere. */
function deepGroups(depth: number): Buffer {
  const open = new Writer().key(9, 3).finish();
  const close = new Writer().key(9, 4).finish();
  return Buffer.concat([...Array<Buffer>(depth).fill(open), ...Array<Buffer>(depth).fill(close)]);
}

/** Embedded messages nested `depth` deep in one unknown field. */
function deepMessages(depth: number): Buffer {
  let inner = new Writer().string(1, 'leaf').finish();
  for (let i = 0; i < depth; i++) inner = new Writer().bytes(1, inner).finish();
  return inner;
}

/** A damaged or odd protobuf body built from a valid ConfigMap envelope. */
export function damagedProtobuf(valid: Buffer, raw: Buffer, r: Random): { body: Buffer; note: string } {
  const pick = r.int(14);
  switch (pick) {
    case 0: {
      const at = r.int(valid.length);
      return { body: valid.subarray(0, at), note: `truncated at ${at} of ${valid.length}` };
    }
    case 1: {
      const b = Buffer.from(valid);
      const flips = r.range(1, 8);
      for (let i = 0; i < flips; i++) b[r.range(4, b.length - 1)] = r.int(256);
      return { body: b, note: `${flips} bytes garbled` };
    }
    case 2:
      return { body: Buffer.concat([Buffer.from('k8s'), valid.subarray(4)]), note: 'magic without its NUL' };
    case 3:
      return { body: valid.subarray(4), note: 'no magic' };
    case 4:
      return { body: MAGIC, note: 'magic only' };
    case 5:
      return { body: Buffer.concat([MAGIC, new Writer().key(2, 2).varint(r.pick([2 ** 31, 2 ** 32 + 5, 2n ** 63n, 2n ** 64n - 1n])).finish()]), note: 'length past the end' };
    case 6:
      return { body: Buffer.concat([MAGIC, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])]), note: 'overlong varint' };
    case 7:
      return { body: envelope('v1', 'ConfigMap', Buffer.concat([raw, deepGroups(r.pick([10, 100, 1000, 20_000]))])), note: 'deep groups in raw' };
    case 8:
      return { body: envelope('v1', 'ConfigMap', Buffer.concat([raw, new Writer().bytes(99, deepMessages(r.pick([100, 1000, 10_000]))).finish()])), note: 'deep unknown messages' };
    case 9:
      return { body: envelope(r.pick(['v2', '', 'apps/v1', 'bogus/v9']), r.pick(['ConfigMap', 'Pod', '', 'Nope']), raw), note: 'other typeMeta' };
    case 10:
      return { body: envelope('v1', 'ConfigMap', raw, { contentEncoding: r.pick(['gzip', 'br', 'x']) }), note: 'contentEncoding set' };
    case 11:
      return { body: envelope('v1', 'ConfigMap', Buffer.from(JSON.stringify({ metadata: { name: 'j' } })), { contentType: 'application/json' }), note: 'JSON inside the envelope' };
    case 12:
      return { body: envelope('v1', 'ConfigMap', Buffer.concat([raw, new Writer().key(r.pick([0, 19000, 536870911]), r.pick([0, 1, 5, 6, 7])).raw(r.bytes(r.range(0, 9))).finish()])), note: 'odd field numbers and wire types' };
    default:
      return { body: Buffer.concat([MAGIC, r.bytes(r.range(1, 200))]), note: 'random bytes after the magic' };
  }
}
