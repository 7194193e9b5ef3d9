import { afterEach, describe, expect, it } from 'vitest';
import { serveChain, type ChainServer } from '../../test/helpers/chain-server.js';
import { errors } from '../machinery/errors.js';

let s: ChainServer | undefined;
afterEach(() => s?.close());

describe('withPanicRecovery', () => {
  it('writes a thrown StatusError as its Status', async () => {
    s = await serveChain([], {
      handler: async () => {
        throw errors.notFound({ group: '', resource: 'pods' }, 'p1');
      },
    });
    const r = await s.fetch('/api/v1/namespaces/default/pods/p1');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'pods "p1" not found' });
    expect(s.logs).toEqual([]);
  });

  it('answers anything else with a 500 that shows no internals, and logs the cause', async () => {
    s = await serveChain([], {
      handler: async () => {
        throw new Error('secret internal detail');
      },
    });
    const r = await s.fetch('/api/v1/pods');
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'InternalError', code: 500 });
    expect(r.text).not.toContain('secret internal detail');
    expect(s.logs).toEqual([expect.objectContaining({ level: 'error', msg: 'request failed with an unexpected error' })]);
    expect(JSON.stringify(s.logs)).toContain('secret internal detail');
  });
});
