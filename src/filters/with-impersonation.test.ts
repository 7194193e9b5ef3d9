import { afterEach, describe, expect, it } from 'vitest';
import { serveChain, type ChainServer } from '../../test/helpers/chain-server.js';
import type { Authorizer } from '../authz/index.js';
import { withImpersonation } from './with-impersonation.js';

let s: ChainServer | undefined;
afterEach(() => s?.close());

const allowAll: Authorizer = { authorize: async () => ({ decision: 'allow', reason: '' }) };

describe('withImpersonation', () => {
  it('passes a request that asks to impersonate no one', async () => {
    s = await serveChain([withImpersonation(allowAll)]);
    expect((await s.fetch('/api/v1/pods')).status).toBe(200);
  });

  it.each(['Impersonate-User', 'Impersonate-Group', 'Impersonate-Uid', 'Impersonate-Extra-Scopes'])(
    'refuses %s with 403 rather than serving the request as its real user',
    async (header) => {
      s = await serveChain([withImpersonation(allowAll)]);
      const r = await s.fetch('/api/v1/pods', { headers: { [header]: 'someone' } });
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ kind: 'Status', reason: 'Forbidden' });
    },
  );
});
