import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger, serveChain, type ChainServer } from '../../test/helpers/chain-server.js';
import type { AuthenticationRequest, AuthenticationResult, Authenticator } from '../authn/index.js';
import { writeText } from '../http/respond.js';
import { withAuthentication } from './with-authentication.js';

let s: ChainServer | undefined;
afterEach(() => s?.close());

/** Decides by the bearer token: `good` is jane, `forged` is an error, none is no opinion. */
const tokens: Authenticator = {
  async authenticate(req: AuthenticationRequest): Promise<AuthenticationResult> {
    const auth = req.headers.authorization;
    if (!auth) return { kind: 'no-opinion' };
    if (auth === 'Bearer good') return { kind: 'user', user: { username: 'jane', uid: '42', groups: ['dev', 'system:authenticated'] } };
    return { kind: 'error', error: new Error('token signature is invalid') };
  },
};

describe('withAuthentication', () => {
  const logs: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  const log = memoryLogger(logs);

  it('puts the proven user on the request', async () => {
    s = await serveChain([withAuthentication(tokens, { anonymous: false, log })]);
    const r = await s.fetch('/api/v1/pods', { headers: { Authorization: 'Bearer good' } });
    expect(r.status).toBe(200);
    expect(r.body.user).toEqual({ username: 'jane', uid: '42', groups: ['dev', 'system:authenticated'] });
  });

  it('answers a credential that does not hold with 401 (never anonymous), logging why without the credential', async () => {
    s = await serveChain([withAuthentication(tokens, { anonymous: true, log })]);
    const r = await s.fetch('/api/v1/pods', { headers: { Authorization: 'Bearer forged-secret' } });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
    expect(JSON.stringify(logs)).toContain('token signature is invalid');
    expect(JSON.stringify(logs)).not.toContain('forged-secret');
  });

  it('lets a request without a known credential go on as system:anonymous when allowed', async () => {
    s = await serveChain([withAuthentication(tokens, { anonymous: true, log })]);
    const r = await s.fetch('/api/v1/pods');
    expect(r.status).toBe(200);
    expect(r.body.user).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
  });

  it('refuses a request without a known credential with 401 when anonymous requests are off', async () => {
    let handled = false;
    s = await serveChain([withAuthentication(tokens, { anonymous: false, log })], {
      handler: async (ctx) => {
        handled = true;
        ctx.res.end();
      },
    });
    const r = await s.fetch('/api/v1/pods');
    expect(r.status).toBe(401);
    expect(r.body.reason).toBe('Unauthorized');
    expect(handled).toBe(false);
  });

  it('removes the Authorization header of a proven user and the identity headers of every request before going on', async () => {
    const seen: Record<string, unknown>[] = [];
    const handler = async (ctx: Parameters<NonNullable<Parameters<typeof serveChain>[1]>['handler'] & {}>[0]) => {
      seen.push({ headers: { ...ctx.req.headers }, raw: [...ctx.req.rawHeaders] });
      ctx.res.end();
    };
    s = await serveChain([withAuthentication(tokens, { anonymous: true, log, identityHeaders: { names: ['X-Remote-User', 'x-remote-group'], prefixes: ['X-Remote-Extra-'] } })], { handler });
    const identity = { 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters', 'X-Remote-Extra-Scopes': 'all', 'X-Other': 'kept' };
    await s.fetch('/api', { headers: { Authorization: 'Bearer good', ...identity } });
    await s.fetch('/api', { headers: identity });
    for (const r of seen) {
      const text = JSON.stringify(r).toLowerCase();
      expect(text).not.toContain('x-remote-');
      expect(text).not.toContain('bearer good');
      expect(text).toContain('x-other');
    }
  });

  it('refuses a user whose credential is good only for other audiences', async () => {
    const elsewhere: Authenticator = { authenticate: async () => ({ kind: 'user', user: { username: 'jane', groups: [] }, audiences: ['other'] }) };
    s = await serveChain([withAuthentication(elsewhere, { anonymous: true, log, apiAudiences: ['api'] })]);
    expect((await s.fetch('/api')).status).toBe(401);
    s.close();
    const here: Authenticator = { authenticate: async (req) => ({ kind: 'user', user: { username: 'jane', groups: [] }, audiences: req.audiences ?? [] }) };
    s = await serveChain([withAuthentication(here, { anonymous: true, log, apiAudiences: ['api'] })]);
    expect((await s.fetch('/api')).status).toBe(200);
  });

  it("passes an authenticator's warning to the client", async () => {
    const warns: Authenticator = {
      authenticate: async (req) => {
        req.warn?.('ignored something');
        return { kind: 'no-opinion' };
      },
    };
    s = await serveChain([withAuthentication(warns, { anonymous: true, log })], { handler: async (ctx) => writeText(ctx, 200, 'ok') });
    expect((await s.fetch('/api')).headers.get('warning')).toContain('ignored something');
  });
});
