/**
 * Watchers have bounded buffers: a client that stops reading is closed once it falls too far behind
 * (the server keeps serving everyone else exactly), one that never reads again loses its socket, and
 * a client that goes away leaves nothing queued behind it. Counts come from the server's metrics.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { BACKENDS, cmPath, createCm, createNamespace, eventually } from './fixtures.js';

/** Small bounds, so that a few hundred events overflow them. */
const BOUNDS = { maxQueuedPerWatcher: 200, maxQueuedBytesPerWatcher: 1 << 20 };
const VALUE = 'v'.repeat(16 * 1024);

async function metric(s: TestServer, name: string, label: string): Promise<number> {
  const text = (await s.get('/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(label));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}
const watchers = (s: TestServer): Promise<number> => metric(s, 'apiserver_registered_watchers', 'kind="ConfigMap"');
const terminated = (s: TestServer): Promise<number> => metric(s, 'apiserver_terminated_watchers_total', 'resource="configmaps"');
const queued = (s: TestServer): Promise<number> => metric(s, 'apiserver_watch_cache_queued_events', 'resource="configmaps"');

/** A watch on a raw socket that reads nothing until `resume()`: what the server sent is collected. */
function rawWatch(s: TestServer, path: string): { socket: Socket; received: () => Buffer; closed: Promise<void>; resume(): void } {
  const url = new URL(s.url);
  const socket = connect(Number(url.port), url.hostname);
  const chunks: Buffer[] = [];
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: application/json\r\n\r\n`);
  socket.pause();
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.pause();
  return { socket, received: () => Buffer.concat(chunks), closed, resume: () => socket.resume() };
}

/** The body of a complete chunked response, or undefined while its last chunk has not arrived. */
function chunkedBody(raw: Buffer): Buffer | undefined {
  let at = raw.indexOf('\r\n\r\n') + 4;
  const parts: Buffer[] = [];
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = Number.parseInt(raw.subarray(at, eol).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    if (raw.length < eol + 2 + size + 2) return undefined;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

describe.each(BACKENDS)('watch buffers are bounded (%s)', (_backend, opts) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ ...opts, watchCache: BOUNDS });
  });
  afterAll(() => s.close());

  it('closes a watcher that stops reading and keeps every other watcher exact', async () => {
    await createNamespace(s, 'stall');
    const rv = (await s.get(cmPath('stall'))).body.metadata.resourceVersion;
    const before = await watchers(s);
    const terminatedBefore = await terminated(s);
    const watchPath = `${cmPath('stall')}?watch=1&resourceVersion=${rv}`;
    // One stalled client reads again after it was closed; the other never does.
    const resumes = rawWatch(s, watchPath);
    const never = rawWatch(s, watchPath);
    const readers = await Promise.all([s.watch(watchPath), s.watch(watchPath)]);
    await eventually(async () => ((await watchers(s)) === before + 4 ? true : undefined), 'four watchers');

    const created: string[] = [];
    while ((await terminated(s)) < terminatedBefore + 2) {
      // Far more than the socket buffers and the bounds hold, unless the server closes the stalled watchers.
      expect(created.length).toBeLessThan(3000);
      for (let i = 0; i < 10; i++) {
        const name = `cm-${String(created.length).padStart(4, '0')}`;
        await createCm(s, 'stall', name, {}, { value: VALUE });
        created.push(name);
      }
    }
    const droppedAt = Date.now();
    resumes.resume();
    // The stalled watchers are gone from the cache; the readers remain.
    expect(await watchers(s)).toBe(before + 2);

    // The readers that kept up saw every event, once, in order.
    for (const reader of readers) {
      const events = await reader.next(created.length, 30_000);
      expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(created.map((n) => `ADDED ${n}`));
      const versions = events.map((e) => Number(e.object.metadata.resourceVersion));
      for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]!);
      reader.close();
    }

    // The client that reads again gets a well-ended stream: what was sent, in order, without a gap.
    const body = await eventually(async () => chunkedBody(resumes.received()), 'the end of the closed watch', 20_000);
    const got = body.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string; resourceVersion: string } } });
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(created.length);
    expect(got.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(created.slice(0, got.length).map((n) => `ADDED ${n}`));
    resumes.socket.destroy();
    // Watching again from the last version it saw, it misses nothing.
    const last = got[got.length - 1]!.object.metadata.resourceVersion;
    const again = await s.watch(`${cmPath('stall')}?watch=1&resourceVersion=${last}`);
    const rest = await again.next(created.length - got.length, 30_000);
    expect(rest.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(created.slice(got.length).map((n) => `ADDED ${n}`));
    again.close();

    // The client that does not read again in time loses its socket (ABANDON_AFTER_MS in watch-writer.ts):
    // when it finally reads, the stream breaks off without its last chunk.
    await new Promise((r) => setTimeout(r, Math.max(0, droppedAt + 6_000 - Date.now())));
    never.resume();
    await never.closed;
    expect(chunkedBody(never.received())).toBeUndefined();
    expect(await watchers(s)).toBe(before);
    expect(await queued(s)).toBe(0);
    // The server goes on serving.
    expect((await s.get(`${cmPath('stall')}?limit=1`)).status).toBe(200);
  }, 120_000);

  it('releases what is queued for a watcher when its client goes away', async () => {
    await createNamespace(s, 'leave');
    const rv = (await s.get(cmPath('leave'))).body.metadata.resourceVersion;
    const before = await watchers(s);
    const terminatedBefore = await terminated(s);
    const stalled = rawWatch(s, `${cmPath('leave')}?watch=1&resourceVersion=${rv}`);
    await eventually(async () => ((await watchers(s)) === before + 1 ? true : undefined), 'the watcher');
    // Write until events wait in the cache for this watcher (its socket is full), short of its bounds.
    let i = 0;
    while ((await queued(s)) === 0) {
      expect(i).toBeLessThan(2000);
      await createCm(s, 'leave', `cm-${i++}`, {}, { value: VALUE });
    }
    expect(await terminated(s)).toBe(terminatedBefore);
    stalled.socket.destroy();
    await eventually(async () => ((await watchers(s)) === before ? true : undefined), 'the watcher to be released');
    expect(await queued(s)).toBe(0);
    expect(await terminated(s)).toBe(terminatedBefore);
  }, 60_000);
});
