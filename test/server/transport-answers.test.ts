/**
 * Requests the handler never sees still get an answer before the connection closes: HTTP CONNECT is
 * a 405 Status (Node drops it unanswered by default), and requests the HTTP parser refuses get their
 * status line even when the client is still sending (the connection is drained, not reset). Found by
 * the fuzz suite.
 */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startCli, type CliServer } from '../e2e/helpers/cli.js';
import { httpCall } from '../helpers/server.js';

/** Writes `raw` on a fresh connection and resolves with all the bytes read until the server closes. */
function exchange(url: string, raw: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (e) => reject(new Error(`${e.message} after reading ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 80))}`)));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(raw);
  });
}

describe('answers outside the request handlers', () => {
  // The CLI in a process of its own: in-process, client and server share one event loop and the
  // reset that loses an answer does not happen.
  let s: CliServer;
  beforeAll(async () => {
    ensureBuilt();
    s = await startCli(['--storage-backend', 'memory']);
  });
  afterAll(() => s.kill());

  it('CONNECT is refused with a MethodNotAllowed Status', async () => {
    const reply = await exchange(s.url, 'CONNECT /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server does not allow this method on the requested resource',
      reason: 'MethodNotAllowed',
      code: 405,
    });
    // The server goes on serving.
    expect((await httpCall(s.url, 'GET', '/readyz')).status).toBe(200);
  });

  it('oversized headers get 431 every time, on a kept-alive connection, with or without a body', async () => {
    const { hostname, port } = new URL(s.url);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (path: string, body?: Buffer): Promise<number | string> =>
      new Promise((resolve) => {
        const headers = body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : undefined;
        const req = request({ host: hostname, port, path, agent, method: body ? 'PUT' : 'GET', ...(headers ? { headers } : {}) }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        req.end(body);
      });
    const answers: (number | string)[] = [];
    try {
      for (let i = 0; i < 40; i++) {
        expect(await send('/api/v1/namespaces')).toBe(200);
        answers.push(await send(`/api/v1/namespaces/default/configmaps/${'x'.repeat(70_000)}`, i % 2 ? Buffer.from('{}') : undefined));
      }
    } finally {
      agent.destroy();
    }
    // Before the fix about a third of these were connection resets with the answer lost.
    expect(answers.filter((a) => a !== 431)).toEqual([]);
  });

  it('a client that sends its body slowly and reads only afterwards still gets the answer', async () => {
    const { hostname, port } = new URL(s.url);
    const socket = connect(Number(port), hostname);
    socket.pause();
    const errors: string[] = [];
    socket.on('error', (e) => errors.push(e.message));
    const closed = new Promise((r) => socket.once('close', r));
    await new Promise<void>((r) => socket.once('connect', () => r()));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    // A target Node's parser refuses, then a body sent over more than a second before reading anything.
    socket.write(`PUT ;/api HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${chunk.length * 12}\r\n\r\n`);
    for (let i = 0; i < 12; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if (!socket.destroyed) socket.write(chunk);
    }
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.resume();
    await closed;
    expect(errors).toEqual([]);
    expect(Buffer.concat(chunks).toString('latin1')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it('a malformed request line gets 400', async () => {
    expect(await exchange(s.url, 'GET /a b c\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(await exchange(s.url, Buffer.from('GET /\u0000 HTTP/1.1\r\n\r\n'))).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });
});
