/** Many watchers at once, slow and vanished watchers, and list-then-watch under concurrent writes. */
import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { BACKENDS, cmPath, createCm, createNamespace, names } from './fixtures.js';

describe.each(BACKENDS)('watch fan-out (%s)', (_backend, opts) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(opts);
  });
  afterAll(() => s.close());

  it('many concurrent watchers each receive every event, in order', async () => {
    await createNamespace(s, 'fan');
    const rv = (await s.get(cmPath('fan'))).body.metadata.resourceVersion;
    const watchers = await Promise.all(Array.from({ length: 25 }, () => s.watch(`${cmPath('fan')}?watch=1&resourceVersion=${rv}`)));
    const N = 40;
    // Concurrent writers: the order is the store's, whatever the client order.
    await Promise.all(Array.from({ length: N }, (_, i) => createCm(s, 'fan', `cm-${String(i).padStart(2, '0')}`)));
    const streams = await Promise.all(watchers.map((w) => w.next(N)));
    const reference = streams[0]!.map((e) => `${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`);
    const versions = streams[0]!.map((e) => Number(e.object.metadata.resourceVersion));
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(reference.map((r) => r.split(' ')[1])).size).toBe(N);
    for (const stream of streams) expect(stream.map((e) => `${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`)).toEqual(reference);
    for (const w of watchers) w.close();
  });

  it('a watcher that stops reading, or goes away, does not stall the others', async () => {
    await createNamespace(s, 'slow');
    const rv = (await s.get(cmPath('slow'))).body.metadata.resourceVersion;
    // A client that never reads its response: the server's socket buffers fill up.
    let stalled: IncomingMessage | undefined;
    const stalledReq = request(new URL(`${cmPath('slow')}?watch=1&resourceVersion=${rv}`, s.url), (res) => {
      stalled = res;
      res.pause();
    });
    stalledReq.on('error', () => undefined);
    stalledReq.end();
    // A client that leaves at once.
    const gone = await s.watch(`${cmPath('slow')}?watch=1&resourceVersion=${rv}`);
    gone.close();
    const healthy = await s.watch(`${cmPath('slow')}?watch=1&resourceVersion=${rv}`);
    // About 15 MB of events: far beyond what socket buffers hold for the stalled client.
    const big = 'x'.repeat(256 * 1024);
    const N = 60;
    for (let i = 0; i < N; i++) await createCm(s, 'slow', `big-${i}`, {}, { big });
    const evs = await healthy.next(N, 20_000);
    expect(evs.map((e) => e.object.metadata.name)).toEqual(Array.from({ length: N }, (_, i) => `big-${i}`));
    expect(stalled).toBeDefined();
    // The server still answers other requests promptly.
    const list = await s.get(`${cmPath('slow')}?limit=1`);
    expect(list.status).toBe(200);
    healthy.close();
    stalledReq.destroy();
  });

  it('nothing is lost between a list and a watch from its resourceVersion under concurrent writes', async () => {
    await createNamespace(s, 'race');
    let stop = false;
    let written = 0;
    const writer = (async () => {
      while (!stop) {
        const i = written++;
        await createCm(s, 'race', `w-${i}`, {}, { i: String(i) });
        if (i % 3 === 0) {
          const r = await s.patch(cmPath('race', `w-${i}`), { data: { i: `${i}-changed` } }, 'application/merge-patch+json');
          expect(r.status).toBe(200);
        }
        if (i % 5 === 0) expect((await s.del(cmPath('race', `w-${i}`))).status).toBe(200);
      }
    })();
    while (written < 20) await new Promise((r) => setTimeout(r, 5));
    const listed = (await s.get(cmPath('race'))).body;
    const state = new Map<string, any>(listed.items.map((i: any) => [i.metadata.name, i]));
    const w = await s.watch(`${cmPath('race')}?watch=1&resourceVersion=${listed.metadata.resourceVersion}`);
    while (written < 60) await new Promise((r) => setTimeout(r, 5));
    stop = true;
    await writer;
    const final = (await s.get(cmPath('race'))).body;
    // Replay the watch onto the listed state until it reaches the final version.
    let at = Number(listed.metadata.resourceVersion);
    while (at < Number(final.metadata.resourceVersion)) {
      const [ev] = await w.next(1);
      const v = Number(ev!.object.metadata.resourceVersion);
      expect(v).toBeGreaterThan(at);
      at = v;
      if (ev!.type === 'DELETED') {
        expect(state.has(ev!.object.metadata.name)).toBe(true);
        state.delete(ev!.object.metadata.name);
      } else {
        expect(state.has(ev!.object.metadata.name)).toBe(ev!.type === 'MODIFIED');
        state.set(ev!.object.metadata.name, ev!.object);
      }
    }
    expect(at).toBe(Number(final.metadata.resourceVersion));
    expect([...state.keys()].sort()).toEqual(names(final).sort());
    for (const item of final.items) expect(state.get(item.metadata.name)).toEqual(item);
    w.close();
  });
});
