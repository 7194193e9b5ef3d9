/**
 * metav1.Time and MicroTime as the `Timestamp` message (seconds = 1, nanos = 2). The zero time
 * (JSON null) is an empty message, as Kubernetes writes it; Time keeps whole seconds and MicroTime
 * microseconds, like their JSON forms.
 */
import { ProtobufDecodeError, ProtobufReader } from '../../machinery/codec/protobuf-reader.js';
import type { ProtobufWriter } from '../../machinery/codec/protobuf-writer.js';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
/** Go's zero time.Time, which Kubernetes prints as null and writes as an empty message. */
const GO_ZERO_SECONDS = -62135596800;

export function writeTimestamp(w: ProtobufWriter, text: string, precision: 'seconds' | 'micro'): void {
  const m = RFC3339.exec(text);
  const ms = m ? Date.parse(text) : NaN;
  if (!m || Number.isNaN(ms)) throw new TypeError(`not an RFC 3339 time: ${JSON.stringify(text)}`);
  const seconds = Math.floor(ms / 1000);
  const nanos = precision === 'micro' ? Number(((m[7] ?? '.0').slice(1) + '000000').slice(0, 6)) * 1000 : 0;
  if (seconds === GO_ZERO_SECONDS && nanos === 0) return;
  w.int(1, seconds).int(2, nanos);
}

/** A Timestamp message back to its JSON text; null for the empty message (the zero time). */
export function readTimestamp(bytes: Uint8Array, precision: 'seconds' | 'micro'): string | null {
  if (bytes.length === 0) return null;
  const r = new ProtobufReader(bytes);
  let seconds = 0;
  let nanos = 0;
  while (!r.done) {
    const k = r.key();
    if (k.field === 1 && k.wireType === 0) seconds = r.int64();
    else if (k.field === 2 && k.wireType === 0) nanos = r.int32();
    else r.skip(k.wireType);
  }
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) throw new ProtobufDecodeError(`timestamp out of range: ${seconds} seconds`);
  const base = date.toISOString().slice(0, 19);
  if (precision === 'seconds') return `${base}Z`;
  const micros = Math.floor(Math.min(Math.max(nanos, 0), 999_999_999) / 1000);
  return `${base}.${String(micros).padStart(6, '0')}Z`;
}
