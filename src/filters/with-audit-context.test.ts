import { afterEach, describe, expect, it } from 'vitest';
import { serveChain, type ChainServer } from '../../test/helpers/chain-server.js';
import type { AuditSink, AuditStage } from '../audit/index.js';
import { errors } from '../machinery/errors.js';
import { withAuditContext } from './with-audit-context.js';

let s: ChainServer | undefined;
afterEach(() => s?.close());

function sink(into: { stage: AuditStage; id: string | undefined; verb: string; status: number | undefined }[]): AuditSink {
  return { record: (stage, ctx) => void into.push({ stage, id: ctx.audit.id, verb: ctx.info.verb, status: ctx.response.status }) };
}

describe('withAuditContext', () => {
  it('records RequestReceived then ResponseComplete under one new audit ID, sent back in Audit-ID', async () => {
    const seen: Parameters<typeof sink>[0] = [];
    s = await serveChain([withAuditContext(sink(seen))]);
    const r = await s.fetch('/api/v1/namespaces/default/pods');
    expect(r.status).toBe(200);
    const id = r.headers.get('audit-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen).toEqual([
      { stage: 'RequestReceived', id, verb: 'list', status: undefined },
      { stage: 'ResponseComplete', id, verb: 'list', status: 200 },
    ]);
  });

  it("keeps the client's Audit-ID, and makes a new one for a header it cannot use", async () => {
    s = await serveChain([withAuditContext(sink([]))]);
    expect((await s.fetch('/healthz', { headers: { 'Audit-ID': 'trace-7' } })).headers.get('audit-id')).toBe('trace-7');
    expect((await s.fetch('/healthz', { headers: { 'Audit-ID': 'x'.repeat(500) } })).headers.get('audit-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('records Panic for an unexpected failure, ResponseComplete for a refusal', async () => {
    const seen: Parameters<typeof sink>[0] = [];
    s = await serveChain([withAuditContext(sink(seen))], {
      handler: async (ctx) => {
        if (ctx.url.pathname === '/boom') throw new Error('bug');
        throw errors.badRequest('no');
      },
    });
    expect((await s.fetch('/boom')).status).toBe(500);
    expect((await s.fetch('/refused')).status).toBe(400);
    expect(seen.map((e) => e.stage)).toEqual(['RequestReceived', 'Panic', 'RequestReceived', 'ResponseComplete']);
  });
});
