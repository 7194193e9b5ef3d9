import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { recordResponse, type ResponseRecord } from './response-recorder.js';

/** One real request against a handler; resolves with what the recorder saw once the response finished. */
async function record(write: (res: ServerResponse) => void): Promise<{ record: ResponseRecord; status: number; body: string }> {
  let seen: ResponseRecord | undefined;
  const finished = new Promise<void>((resolve) => {
    server = createServer((_req, res) => {
      seen = recordResponse(res);
      res.on('finish', () => resolve());
      write(res);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const r = await fetch(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/`);
  const body = await r.text();
  await finished;
  return { record: seen!, status: r.status, body };
}

let server: ReturnType<typeof createServer> | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('recordResponse', () => {
  it('records the status set before end() and the bytes of the body', async () => {
    const { record: rec, status, body } = await record((res) => {
      res.statusCode = 404;
      res.end('nothing here');
    });
    expect(status).toBe(404);
    expect(body).toBe('nothing here');
    expect(rec).toMatchObject({ status: 404, bytes: 12 });
  });

  it('records writeHead and counts every written chunk, multi-byte text by its bytes', async () => {
    const { record: rec } = await record((res) => {
      res.writeHead(201, { 'Content-Type': 'text/plain' });
      res.write('héllo ');
      res.write(Buffer.from([1, 2, 3]));
      res.end('✓', 'utf8');
    });
    expect(rec.status).toBe(201);
    expect(rec.bytes).toBe(Buffer.byteLength('héllo ') + 3 + Buffer.byteLength('✓'));
  });

  it('keeps the first status sent: a later change of statusCode after the headers went out is not what the client saw', async () => {
    const { record: rec, status } = await record((res) => {
      res.statusCode = 200;
      res.flushHeaders();
      res.statusCode = 500;
      res.end();
    });
    expect(status).toBe(200);
    expect(rec).toMatchObject({ status: 200, bytes: 0 });
  });

  it('knows no status while nothing was sent', async () => {
    let before: number | undefined | 'unset' = 'unset';
    await record((res) => {
      const rec = recordResponse(res);
      before = rec.status;
      res.end();
    });
    expect(before).toBeUndefined();
  });
});
