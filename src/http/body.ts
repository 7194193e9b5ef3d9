/**
 * Reads a request body up to a byte limit. A body over the limit is refused as soon as the
 * limit is crossed (or at once from Content-Length), never buffered whole.
 */
import type { HttpRequest } from './listener.js';

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body larger than ${limit} bytes`);
  }
}

export async function readBody(req: HttpRequest, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new BodyTooLargeError(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) {
      // Drain the rest without keeping it, so the response can still be written on this connection.
      req.resume();
      throw new BodyTooLargeError(limit);
    }
    chunks.push(buf);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
}
