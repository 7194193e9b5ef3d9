import { afterEach, describe, expect, it } from 'vitest';
import { serveChain, type ChainServer } from '../../test/helpers/chain-server.js';
import { withAuditInit } from './with-audit-init.js';

let s: ChainServer | undefined;
afterEach(() => s?.close());

describe('withAuditInit', () => {
  it("answers with a new Audit-ID, or the client's when it is usable, audited or not", async () => {
    s = await serveChain([withAuditInit()]);
    expect((await s.fetch('/healthz')).headers.get('audit-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await s.fetch('/healthz', { headers: { 'Audit-ID': 'trace-7' } })).headers.get('audit-id')).toBe('trace-7');
    expect((await s.fetch('/healthz', { headers: { 'Audit-ID': 'x'.repeat(500) } })).headers.get('audit-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
