/**
 * Test helper: HTTP calls that keep the response bytes (protobuf answers are not text), and a
 * protobuf watch client reading length-prefixed frames the way client-go does: 4-byte big-endian
 * length, then a WatchEvent whose object is an enveloped object.
 */
import { request as httpRequest } from 'node:http';
import { FrameReader } from '../../src/schema/protobuf/index.js';

export interface BinaryReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
  /** The body parsed as JSON when it is JSON. */
  json: any;
}

export function call(base: string, method: string, path: string, opts: { body?: Uint8Array | string; contentType?: string; accept?: string } = {}): Promise<BinaryReply> {
  const headers: Record<string, string> = {};
  if (opts.accept) headers.accept = opts.accept;
  const payload = opts.body === undefined ? undefined : Buffer.from(opts.body);
  if (payload) {
    headers['content-type'] = opts.contentType ?? 'application/json';
    headers['content-length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        let json: unknown;
        try {
          json = JSON.parse(raw.toString('utf8'));
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

export interface FrameWatch {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The next `n` frames (each one WatchEvent message), or a rejection after `timeoutMs`. */
  next(n?: number, timeoutMs?: number): Promise<Buffer[]>;
  close(): void;
}

export function watchFrames(base: string, path: string, accept: string): Promise<FrameWatch> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { method: 'GET', headers: { accept } }, (res) => {
      const reader = new FrameReader();
      const frames: Buffer[] = [];
      const waiters: (() => void)[] = [];
      let ended = false;
      res.on('data', (chunk: Buffer) => {
        frames.push(...reader.push(chunk));
        for (const w of waiters.splice(0)) w();
      });
      res.on('close', () => {
        ended = true;
        for (const w of waiters.splice(0)) w();
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        close: () => req.destroy(),
        next(n = 1, timeoutMs = 5000) {
          return new Promise((ok, fail) => {
            const timer = setTimeout(() => fail(new Error(`timed out waiting for ${n} frames; have ${frames.length}`)), timeoutMs);
            const check = (): void => {
              if (frames.length >= n) {
                clearTimeout(timer);
                ok(frames.splice(0, n));
              } else if (ended) {
                clearTimeout(timer);
                fail(new Error(`watch ended after ${frames.length} of ${n} frames`));
              } else waiters.push(check);
            };
            check();
          });
        },
      });
    });
    req.on('error', reject);
    req.end();
  });
}
