import { afterEach, describe, expect, it } from 'vitest';
import { serveChain, type ChainServer } from '../../test/helpers/chain-server.js';
import { withDeadline } from './with-deadline.js';

let s: ChainServer | undefined;
afterEach(() => s?.close());

describe('withDeadline', () => {
  it('gives a short request a deadline, and a watch none', async () => {
    s = await serveChain([withDeadline(60)]);
    const before = Date.now();
    const short = await s.fetch('/api/v1/namespaces/default/configmaps');
    expect(short.body.deadline).toBeGreaterThanOrEqual(before + 60_000);
    const watch = await s.fetch('/api/v1/namespaces/default/configmaps?watch=1', { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
    expect(watch?.body.deadline).toBeNull();
    expect(watch?.body.longRunning).toBe(true);
  });

  it('answers 504 Timeout when the handler outlives the deadline, and aborts its signal', async () => {
    let aborted: Promise<boolean> | undefined;
    s = await serveChain([withDeadline(0.05)], {
      handler: (ctx) => {
        aborted = new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(true), { once: true }));
        return aborted.then(() => undefined);
      },
    });
    const r = await s.fetch('/api/v1/namespaces/default/configmaps');
    expect(r.status).toBe(504);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504 });
    expect(await aborted).toBe(true);
  });
});
