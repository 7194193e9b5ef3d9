/**
 * Length-delimited framing of protobuf watch streams: each message is preceded by its length as a
 * 4-byte big-endian integer, as Kubernetes' LengthDelimitedFramer writes and client-go reads.
 */

export function frame(message: Uint8Array): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(message.length, 0);
  return Buffer.concat([head, message]);
}

/** Splits a byte stream into frames as chunks arrive; keeps the incomplete tail for the next chunk. */
export class FrameReader {
  private pending: Buffer = Buffer.alloc(0);

  /** Adds a chunk and returns every frame it completes. */
  push(chunk: Uint8Array): Buffer[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : Buffer.from(chunk);
    const frames: Buffer[] = [];
    while (this.pending.length >= 4) {
      const len = this.pending.readUInt32BE(0);
      if (this.pending.length < 4 + len) break;
      frames.push(this.pending.subarray(4, 4 + len));
      this.pending = this.pending.subarray(4 + len);
    }
    return frames;
  }

  /** Bytes received that do not make a whole frame yet. */
  get buffered(): number {
    return this.pending.length;
  }
}
