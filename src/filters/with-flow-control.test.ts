import { afterEach, describe, expect, it } from 'vitest';
import { serveChain, type ChainServer } from '../../test/helpers/chain-server.js';
import type { FlowControl } from '../flowcontrol/index.js';
import { errors } from '../machinery/errors.js';
import { withFlowControl } from './with-flow-control.js';

let s: ChainServer | undefined;
afterEach(() => s?.close());

describe('withFlowControl', () => {
  it('runs the request when flow control lets it, with the priority it assigned', async () => {
    const fc: FlowControl = {
      async handle(ctx, execute) {
        ctx.priority = { flowSchema: 'global-default', priorityLevel: 'global-default' };
        await execute();
      },
    };
    let priority: unknown;
    s = await serveChain([withFlowControl(fc)], {
      handler: async (ctx) => {
        priority = ctx.priority;
        ctx.res.end();
      },
    });
    expect((await s.fetch('/api/v1/pods')).status).toBe(200);
    expect(priority).toEqual({ flowSchema: 'global-default', priorityLevel: 'global-default' });
  });

  it('answers 429 with Retry-After when flow control rejects, before the handler does any work', async () => {
    const fc: FlowControl = {
      handle: async () => {
        throw errors.tooManyRequests('too many requests, please try again later', 1);
      },
    };
    let handled = false;
    s = await serveChain([withFlowControl(fc)], {
      handler: async (ctx) => {
        handled = true;
        ctx.res.end();
      },
    });
    const r = await s.fetch('/api/v1/pods');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'TooManyRequests' });
    expect(handled).toBe(false);
  });
});
