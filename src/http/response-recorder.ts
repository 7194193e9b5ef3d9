/**
 * The response writer records what it sends: the status code that went out with the headers and the
 * body bytes written. Metrics and audit read the record instead of every handler reporting its code.
 *
 * It wraps the methods of one response object (writeHead, flushHeaders, write, end), so it sees
 * writes made by any code holding the response, for node:http and for the http2 compatibility API.
 */
import type { ServerResponse } from 'node:http';
import type { HttpResponse } from './listener.js';

export interface ResponseRecord {
  /** The status code sent with the headers; undefined while none was sent. */
  readonly status: number | undefined;
  /** Body bytes handed to the response so far. */
  readonly bytes: number;
}

type Chunk = string | Uint8Array;

function byteLength(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string') return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (chunk instanceof Uint8Array) return chunk.byteLength;
  return 0;
}

/** Starts recording `res`; call once, before anything is written. */
export function recordResponse(response: HttpResponse): ResponseRecord {
  // The http2 compatibility response has the same four methods; its end() writes through write().
  const res = response as ServerResponse;
  let status: number | undefined;
  let bytes = 0;
  let ending = false;
  const sent = (code: number): void => {
    status ??= code;
  };
  const { writeHead, flushHeaders, write, end } = res;
  res.writeHead = function (this: ServerResponse, code: number, ...rest: unknown[]) {
    sent(code);
    return (writeHead as (...a: unknown[]) => ServerResponse).call(this, code, ...rest);
  } as ServerResponse['writeHead'];
  res.flushHeaders = function (this: ServerResponse) {
    sent(this.statusCode);
    flushHeaders.call(this);
  };
  res.write = function (this: ServerResponse, chunk: Chunk, ...rest: unknown[]) {
    sent(this.statusCode);
    if (!ending) bytes += byteLength(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    sent(this.statusCode);
    if (typeof args[0] !== 'function') bytes += byteLength(args[0], args[1]);
    ending = true;
    try {
      return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    } finally {
      ending = false;
    }
  } as ServerResponse['end'];
  return {
    get status() {
      return status;
    },
    get bytes() {
      return bytes;
    },
  };
}
