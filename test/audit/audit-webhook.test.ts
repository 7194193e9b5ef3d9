/**
 * The audit webhook end to end: an HTTPS receiver the test starts (client certificate required),
 * the server posting EventLists to it in each mode. Batch mode never makes a request wait for the
 * receiver and loses no event it accepted, even while the receiver fails; what overflows the buffer
 * is dropped and counted; blocking-strict fails the request when its event cannot be stored.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditServerOptions } from '../../src/server/audit.js';
import { startAuditWebhook, type AuditWebhook } from '../helpers/audit-webhook.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { auditIdOf } from './helpers.js';

// Only writes to configmaps are audited, so nothing else the tests do adds events.
const POLICY = `apiVersion: audit.orch.io/v1
kind: Policy
rules:
- level: Metadata
  resources: [{group: "", resources: [configmaps]}]
  verbs: [create]
`;

let dir: string;
let hook: AuditWebhook;
let s: TestServer | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-audit-hook-'));
  writeFileSync(join(dir, 'policy.yaml'), POLICY);
  hook = await startAuditWebhook();
});

afterEach(async () => {
  await s?.close();
  s = undefined;
  await hook.close();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(webhook: Omit<NonNullable<AuditServerOptions['webhook']>, 'configFile'>): Promise<TestServer> {
  s = await startTestServer({ tls: true, audit: { policyFile: join(dir, 'policy.yaml'), webhook: { configFile: hook.kubeconfigFile, ...webhook } } });
  return s;
}

const create = (server: TestServer, name: string) => server.post('/api/v1/namespaces/default/configmaps', { metadata: { name }, data: { a: 'b' } });

async function metric(server: TestServer, line: RegExp): Promise<number> {
  const text = (await server.get('/metrics')).text;
  const m = new RegExp(`^${line.source} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

const delivered = (): Set<string> => new Set(hook.received.flatMap((l) => l.items.map((e) => `${e.auditID} ${e.stage}`)));

async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the audit webhook', () => {
  it('batch mode: requests finish while the receiver is stuck; once it answers, every event arrives as an EventList', async () => {
    const server = await serve({ mode: 'batch', batch: { maxBatchSize: 5, maxBatchWaitMs: 20, throttleEnable: false } });
    const release = hook.hold();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await create(server, `held-${i}`);
      expect(r.status).toBe(201);
      ids.push(auditIdOf(r.headers));
    }
    // Every request was answered while the receiver had answered nothing.
    expect(hook.received).toHaveLength(0);
    release();
    await until(() => ids.every((id) => delivered().has(`${id} ResponseComplete`)), 'all events');
    for (const id of ids) expect(delivered().has(`${id} RequestReceived`)).toBe(true);
    expect(hook.received[0]).toMatchObject({ kind: 'EventList', apiVersion: 'audit.orch.io/v1', caller: 'orch-apiserver' });
    expect(hook.received[0]?.items[0]).toMatchObject({ verb: 'create', level: 'Metadata', objectRef: { resource: 'configmaps', namespace: 'default' } });
    expect(Math.max(...hook.received.map((l) => l.items.length))).toBeLessThanOrEqual(5);
  });

  it('batch mode: a receiver that fails for a while loses nothing: batches are sent again until taken', async () => {
    const server = await serve({ mode: 'batch', initialBackoffMs: 20, batch: { maxBatchSize: 10, maxBatchWaitMs: 20, throttleEnable: false } });
    hook.failWith = 503;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(auditIdOf((await create(server, `flaky-${i}`)).headers));
    await until(() => hook.posts() >= 2, 'retries');
    hook.failWith = undefined;
    await until(() => ids.every((id) => delivered().has(`${id} ResponseComplete`)), 'all events after recovery');
    expect(await metric(server, /apiserver_audit_error_total\{plugin="webhook"\}/)).toBe(0);
  });

  it('batch mode: what overflows the buffer is dropped and counted, never waited for', async () => {
    const server = await serve({ mode: 'batch', batch: { bufferSize: 4, maxBatchSize: 2, maxBatchWaitMs: 20, throttleEnable: false } });
    const release = hook.hold();
    for (let i = 0; i < 10; i++) expect((await create(server, `over-${i}`)).status).toBe(201);
    const dropped = await metric(server, /apiserver_audit_error_total\{plugin="buffered"\}/);
    expect(dropped).toBeGreaterThan(0);
    release();
    // 20 events: the ones accepted arrive, the rest were counted as dropped.
    await until(() => delivered().size + dropped === 20, 'the accepted events');
    expect(await metric(server, /apiserver_audit_event_total/)).toBe(20);
  });

  it('blocking-strict: a request whose RequestReceived event cannot be stored fails and changes nothing', async () => {
    const server = await serve({ mode: 'blocking-strict', initialBackoffMs: 10 });
    hook.failWith = 403;
    const refused = await create(server, 'strict');
    expect(refused.status).toBe(500);
    expect(refused.body).toMatchObject({ kind: 'Status', reason: 'InternalError', message: 'Internal Server Error: "/api/v1/namespaces/default/configmaps": failed to store audit event' });
    expect((await server.get('/api/v1/namespaces/default/configmaps/strict')).status).toBe(404);
    expect(await metric(server, /apiserver_audit_requests_rejected_total/)).toBe(1);
    hook.failWith = undefined;
    const ok = await create(server, 'strict');
    expect(ok.status).toBe(201);
    // Blocking: the events are with the receiver when the answer comes.
    expect(delivered().has(`${auditIdOf(ok.headers)} RequestReceived`)).toBe(true);
  });

  it('blocking: a failing receiver is logged and counted, and the request goes on', async () => {
    const server = await serve({ mode: 'blocking', initialBackoffMs: 10 });
    hook.failWith = 403;
    expect((await create(server, 'lenient')).status).toBe(201);
    expect(await metric(server, /apiserver_audit_error_total\{plugin="webhook"\}/)).toBe(2);
  });
});
