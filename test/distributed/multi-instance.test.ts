/**
 * Two server instances on one etcd (same key prefix): what one answers, the other serves at once;
 * watches, optimistic concurrency and list paging work across them; both run the namespace
 * controller without fighting. A third cluster on another prefix of the same etcd writes too, which
 * advances etcd's revision without events under our prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/machinery/logger.js';
import { etcdSkipReason, startEtcd, uniquePrefix, type TestEtcd } from '../helpers/etcd.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const skip = etcdSkipReason();
if (skip) console.warn(skip);

interface LogRecord {
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
}

function recordingLogger(records: LogRecord[]): Logger {
  const rec = (level: string) => (msg: string, fields?: Record<string, unknown>) => void records.push({ level, msg, ...(fields ? { fields } : {}) });
  return { debug: () => undefined, info: rec('info'), warn: rec('warn'), error: rec('error') };
}

const cm = (name: string, data: Record<string, string> = { k: 'v' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

async function eventually<T>(f: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(skip)('two server instances on one etcd', () => {
  let etcd: TestEtcd;
  let a: TestServer;
  let b: TestServer;
  let other: TestServer;
  const logs: LogRecord[] = [];

  beforeAll(async () => {
    etcd = await startEtcd();
    const prefix = uniquePrefix('dist');
    const common = { storageBackend: 'etcd' as const, etcdServers: [etcd.endpoint], etcdPrefix: prefix };
    [a, b] = await Promise.all([startTestServer({ ...common, logger: recordingLogger(logs) }), startTestServer({ ...common, logger: recordingLogger(logs) })]);
    // Another cluster on the same etcd: its writes advance the revision our instances wait for.
    other = await startTestServer({ storageBackend: 'etcd', etcdServers: [etcd.endpoint], etcdPrefix: uniquePrefix('other'), logLevel: 'silent' });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), other?.close()]);
    await etcd?.close();
  });

  it('serves on B, with a consistent read, what A has just answered', async () => {
    await a.post('/api/v1/namespaces', ns('read-after-write'));
    for (let i = 0; i < 20; i++) {
      const created = await a.post('/api/v1/namespaces/read-after-write/configmaps', cm(`c${i}`, { i: String(i) }));
      expect(created.status).toBe(201);
      const got = await b.get(`/api/v1/namespaces/read-after-write/configmaps/c${i}`);
      expect(got.status).toBe(200);
      expect(got.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
      const listed = await b.get('/api/v1/namespaces/read-after-write/configmaps');
      expect(listed.body.items.map((x: any) => x.metadata.name)).toContain(`c${i}`);
      expect(Number(listed.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(created.body.metadata.resourceVersion));
    }
  });

  it('keeps consistent reads going while another cluster writes to the same etcd', async () => {
    await other.post('/api/v1/namespaces', ns('busy'));
    const created = await a.post('/api/v1/namespaces/default/configmaps', cm('before-busy'));
    expect(created.status).toBe(201);
    for (let i = 0; i < 10; i++) {
      // The other cluster's write is etcd's newest revision; nothing under our prefix carries it.
      const foreign = await other.post('/api/v1/namespaces/busy/configmaps', cm(`f${i}`));
      expect(foreign.status).toBe(201);
      const listed = await b.get('/api/v1/namespaces/default/configmaps');
      expect(listed.status).toBe(200);
      expect(Number(listed.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(foreign.body.metadata.resourceVersion));
      const got = await a.get('/api/v1/namespaces/default/configmaps/before-busy');
      expect(got.status).toBe(200);
    }
    // Nothing of the other cluster shows here.
    expect((await b.get('/api/v1/namespaces/busy')).status).toBe(404);
  });

  it('delivers to a watch on B the creates made through A', async () => {
    await a.post('/api/v1/namespaces', ns('watched'));
    const start = await b.get('/api/v1/namespaces/watched/configmaps');
    const w = await b.watch(`/api/v1/namespaces/watched/configmaps?watch=1&resourceVersion=${start.body.metadata.resourceVersion}`);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await a.post('/api/v1/namespaces/watched/configmaps', cm(`w${i}`))).body.metadata.resourceVersion);
    const events = await w.next(3);
    w.close();
    expect(events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion])).toEqual(made.map((rv, i) => ['ADDED', `w${i}`, rv]));
  });

  it('detects conflicting updates across instances (409)', async () => {
    const created = await a.post('/api/v1/namespaces/default/configmaps', cm('contended', { v: '0' }));
    const rv = created.body.metadata.resourceVersion;
    const viaB = await b.put('/api/v1/namespaces/default/configmaps/contended', { ...cm('contended', { v: 'b' }), metadata: { name: 'contended', resourceVersion: rv } });
    expect(viaB.status).toBe(200);
    const viaA = await a.put('/api/v1/namespaces/default/configmaps/contended', { ...cm('contended', { v: 'a' }), metadata: { name: 'contended', resourceVersion: rv } });
    expect(viaA.status).toBe(409);
    expect(viaA.body.reason).toBe('Conflict');
    expect((await a.get('/api/v1/namespaces/default/configmaps/contended')).body.data).toEqual({ v: 'b' });
    // Concurrent creates of one name: exactly one wins.
    const racing = await Promise.all([a, b, a, b].map((s) => s.post('/api/v1/namespaces/default/configmaps', cm('raced'))));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it('continues on B a list paged on A', async () => {
    await a.post('/api/v1/namespaces', ns('paged'));
    const names = Array.from({ length: 7 }, (_, i) => `p${i}`);
    for (const n of names) await a.post('/api/v1/namespaces/paged/configmaps', cm(n));
    const seen: string[] = [];
    const revisions = new Set<string>();
    let path = '/api/v1/namespaces/paged/configmaps?limit=3';
    for (let page = 0; ; page++) {
      const r = await (page % 2 === 0 ? a : b).get(path);
      expect(r.status).toBe(200);
      seen.push(...r.body.items.map((x: any) => x.metadata.name));
      revisions.add(r.body.metadata.resourceVersion);
      if (!r.body.metadata.continue) break;
      // A write between pages does not show: the list is read at its first page's revision.
      if (page === 0) await b.post('/api/v1/namespaces/paged/configmaps', cm('p9-late'));
      path = `/api/v1/namespaces/paged/configmaps?limit=3&continue=${encodeURIComponent(r.body.metadata.continue)}`;
    }
    expect(seen).toEqual(names);
    expect(revisions.size).toBe(1);
  });

  it('stores the biggest valid objects, and updates them, across instances', async () => {
    const body = { ...cm('big', { blob: 'x'.repeat(1_000_000) }), metadata: { name: 'big', annotations: { note: 'y'.repeat(250_000) } } };
    const w = await b.watch('/api/v1/namespaces/default/configmaps?watch=1&fieldSelector=metadata.name%3Dbig');
    const created = await a.post('/api/v1/namespaces/default/configmaps', body);
    expect(created.status).toBe(201);
    const updated = await a.put('/api/v1/namespaces/default/configmaps/big', { ...body, data: { blob: 'z'.repeat(1_000_000) }, metadata: { ...body.metadata, resourceVersion: created.body.metadata.resourceVersion } });
    expect(updated.status).toBe(200);
    const events = await w.next(2);
    w.close();
    expect(events.map((e) => [e.type, e.object.data.blob.length, e.object.data.blob[0]])).toEqual([
      ['ADDED', 1_000_000, 'x'],
      ['MODIFIED', 1_000_000, 'z'],
    ]);
    expect((await b.get('/api/v1/namespaces/default/configmaps/big')).body.metadata.resourceVersion).toBe(updated.body.metadata.resourceVersion);
  });

  it('finishes on both instances a namespace deletion started on A, with both controllers running quietly', async () => {
    await a.post('/api/v1/namespaces', ns('doomed'));
    for (let i = 0; i < 10; i++) await (i % 2 ? a : b).post('/api/v1/namespaces/doomed/configmaps', cm(`d${i}`));
    logs.length = 0;
    const del = await a.del('/api/v1/namespaces/doomed');
    expect(del.status).toBe(200);
    await eventually(async () => ((await b.get('/api/v1/namespaces/doomed')).status === 404 ? true : undefined), 'the namespace to go');
    expect((await a.get('/api/v1/namespaces/doomed')).status).toBe(404);
    expect((await b.get('/api/v1/namespaces/doomed/configmaps')).body.items).toEqual([]);
    // The two controllers raced over the same objects; neither complained.
    expect(logs.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
  });
});

describe.skipIf(skip)('a watch older than the cache window, served by etcd, next to progress requests', () => {
  let etcd: TestEtcd;
  let a: TestServer;
  let b: TestServer;
  let other: TestServer;

  beforeAll(async () => {
    etcd = await startEtcd();
    const common = { storageBackend: 'etcd' as const, etcdServers: [etcd.endpoint], etcdPrefix: uniquePrefix('window'), logLevel: 'silent' as const };
    [a, b] = await Promise.all([startTestServer({ ...common, watchCache: { windowSize: 2 } }), startTestServer(common)]);
    other = await startTestServer({ storageBackend: 'etcd', etcdServers: [etcd.endpoint], etcdPrefix: uniquePrefix('other'), logLevel: 'silent' });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), other?.close()]);
    await etcd?.close();
  });

  it('leaves no progress marker among the objects it watches', async () => {
    const first = await a.post('/api/v1/namespaces/default/configmaps', cm('old-0'));
    for (let i = 1; i < 5; i++) await a.post('/api/v1/namespaces/default/configmaps', cm(`old-${i}`));
    // Older than A's window of 2 events: served by a watch on etcd under the configmaps of default.
    const w = await a.watch(`/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${first.body.metadata.resourceVersion}`);
    expect(w.status).toBe(200);
    expect((await w.next(4)).map((e) => e.object.metadata.name)).toEqual(['old-1', 'old-2', 'old-3', 'old-4']);
    // A foreign write makes A's cache ask its store for progress before the consistent read.
    await other.post('/api/v1/namespaces/default/configmaps', cm('foreign'));
    expect((await a.get('/api/v1/namespaces/default/configmaps')).status).toBe(200);
    await a.post('/api/v1/namespaces/default/configmaps', cm('new'));
    expect((await w.next(1)).map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'new']]);
    w.close();
    const all = await b.get('/api/v1/configmaps');
    expect(all.status).toBe(200);
    expect(all.body.items.map((x: any) => x.metadata.name).sort()).toEqual(['new', 'old-0', 'old-1', 'old-2', 'old-3', 'old-4']);
  });
});
