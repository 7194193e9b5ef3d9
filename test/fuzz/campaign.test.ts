/**
 * The campaign's checks catch what they claim to: a faulty stand-in server (a bare node:http one, since
 * the real server no longer has these faults) that answers some requests 500, moves its revision on
 * refused writes, and then stops, is reported with a 5xx, a state change and a crash, each with a
 * curl command for the request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCampaign, type Target } from './campaign.js';

interface Faults {
  /** Answer every PATCH with a 500. */
  patch500?: boolean;
  /** Move the revision on every refused POST. */
  leakyPost?: boolean;
  /** Stop answering (close the listener and every connection) after this many requests. */
  dieAfter?: number;
}

async function faultyServer(faults: Faults): Promise<{ server: Server; target: Target }> {
  let revision = 1;
  let served = 0;
  let dead = false;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      served++;
      if (faults.dieAfter !== undefined && served > faults.dieAfter && !dead) {
        dead = true;
        server.close();
        server.closeAllConnections();
        return;
      }
      const send = (code: number, body: unknown): void => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && req.url === '/api/v1/namespaces?limit=1') return send(200, { metadata: { resourceVersion: String(revision) } });
      if (req.method === 'GET' && req.url === '/healthz') return send(200, {});
      if (req.method === 'PATCH' && faults.patch500) return send(500, { kind: 'Status', code: 500 });
      if (req.method === 'POST') {
        if (faults.leakyPost) revision++;
        return send(422, { kind: 'Status', code: 422 });
      }
      send(404, { kind: 'Status', code: 404 });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, target: { url, exitReason: () => (dead ? 'the stand-in server was stopped' : undefined) } };
}

describe('the fuzz campaign reports', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
  });

  it('a 5xx answer, with the request that got it', async () => {
    const f = await faultyServer({ patch500: true });
    server = f.server;
    const s = await runCampaign(f.target, { seed: 3, count: 200 });
    expect(s.serverErrors).toBeGreaterThan(0);
    const first = s.failures.find((x) => x.kind === '5xx');
    expect(first?.request.method).toBe('PATCH');
    expect(first?.curl).toContain(`-X PATCH --request-target '${first?.request.target.replace(/'/g, `'\\''`)}'`);
    expect(s.byStatus['500']).toBe(s.serverErrors);
  });

  it('a refused write that moved the revision, confirmed by sending it again', async () => {
    const f = await faultyServer({ leakyPost: true });
    server = f.server;
    const s = await runCampaign(f.target, { seed: 3, count: 200, stopOnFailure: true });
    expect(s.stateChanged).toBe(1);
    expect(s.failures[0]).toMatchObject({ kind: 'state changed', seed: 3, request: { method: 'POST' } });
    expect(s.failures[0]?.detail).toMatch(/^answered 422 \(then 422\) yet the resourceVersion moved/);
  });

  it('a server that stops answering, as a crash of the request it died on', async () => {
    const f = await faultyServer({ dieAfter: 50 });
    server = f.server;
    const s = await runCampaign(f.target, { seed: 3, count: 200 });
    expect(s.crashes).toBe(1);
    expect(s.failures.at(-1)).toMatchObject({ kind: 'crash', detail: 'the stand-in server was stopped' });
    expect(s.requests).toBeLessThan(200);
  });
});
