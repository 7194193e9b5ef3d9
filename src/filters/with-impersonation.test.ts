import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serveChain, type ChainServer } from '../../test/helpers/chain-server.js';
import type { AuthorizationAttributes, Authorizer } from '../authz/index.js';
import type { Filter } from '../http/context.js';
import type { RequestContext } from '../machinery/request-context.js';
import { splitServiceAccountUsername, withImpersonation } from './with-impersonation.js';

let s: ChainServer | undefined;
afterEach(() => s?.close());

const opts = { authenticationGroup: 'authentication.orch.io' };
const asAlice: Filter<RequestContext> = (ctx, next) => {
  ctx.user = { username: 'alice', groups: ['system:authenticated'] };
  return next();
};

/** Allows every impersonation except of the names listed, and records what it was asked. */
function policy(seen: AuthorizationAttributes[], refuse: string[] = []): Authorizer {
  return {
    authorize: async (a) => {
      seen.push(a);
      return refuse.includes(a.name) ? { decision: 'no-opinion', reason: '' } : { decision: 'allow', reason: '' };
    },
  };
}

/** Sends headers with repeats on lines of their own, as Go clients send them (fetch would join them). */
function send(headers: [string, string][]): Promise<{ status: number; body: any }> {
  const grouped: Record<string, string[]> = {};
  for (const [k, v] of headers) (grouped[k] ??= []).push(v);
  return new Promise((resolve, reject) => {
    const req = request(`${s!.url}/api/v1/namespaces/ns/pods`, { headers: grouped }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('withImpersonation', () => {
  it('passes a request that asks to impersonate no one, as its own user', async () => {
    s = await serveChain([asAlice, withImpersonation(policy([]), opts)]);
    const r = await send([]);
    expect(r.status).toBe(200);
    expect(r.body.user).toEqual({ username: 'alice', groups: ['system:authenticated'] });
  });

  it('acts as the user, groups, extras and uid asked, each checked as impersonate with its name', async () => {
    const seen: AuthorizationAttributes[] = [];
    s = await serveChain([asAlice, withImpersonation(policy(seen), opts)]);
    const r = await send([
      ['Impersonate-User', 'bob'],
      ['Impersonate-Group', 'dev'],
      ['Impersonate-Group', 'ops'],
      ['Impersonate-Extra-Scopes', 'view'],
      ['Impersonate-Extra-Scopes', 'edit'],
      ['Impersonate-Extra-Acme.com%2fproject', 'x'],
      ['Impersonate-Uid', 'u-1'],
    ]);
    expect(r.status).toBe(200);
    expect(r.body.user).toEqual({ username: 'bob', groups: ['dev', 'ops', 'system:authenticated'], uid: 'u-1', extra: { scopes: ['view', 'edit'], 'acme.com/project': ['x'] } });
    expect(seen.map((a) => [a.user?.username, a.verb, a.apiGroup, a.resource, a.subresource, a.name])).toEqual([
      ['alice', 'impersonate', '', 'users', '', 'bob'],
      ['alice', 'impersonate', '', 'groups', '', 'dev'],
      ['alice', 'impersonate', '', 'groups', '', 'ops'],
      ['alice', 'impersonate', 'authentication.orch.io', 'userextras', 'scopes', 'view'],
      ['alice', 'impersonate', 'authentication.orch.io', 'userextras', 'scopes', 'edit'],
      ['alice', 'impersonate', 'authentication.orch.io', 'userextras', 'acme.com/project', 'x'],
      ['alice', 'impersonate', 'authentication.orch.io', 'uids', '', 'u-1'],
    ]);
  });

  it('impersonates a service account by its username, with its groups unless groups are given', async () => {
    const seen: AuthorizationAttributes[] = [];
    s = await serveChain([asAlice, withImpersonation(policy(seen), opts)]);
    const r = await send([['Impersonate-User', 'system:serviceaccount:team:robot']]);
    expect(r.body.user).toEqual({ username: 'system:serviceaccount:team:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] });
    expect(seen[0]).toMatchObject({ verb: 'impersonate', resource: 'serviceaccounts', namespace: 'team', name: 'robot' });
    const g = await send([['Impersonate-User', 'system:serviceaccount:team:robot'], ['Impersonate-Group', 'x']]);
    expect(g.body.user.groups).toEqual(['x', 'system:authenticated']);
  });

  it('keeps system:unauthenticated given, and gives system:anonymous that group', async () => {
    s = await serveChain([asAlice, withImpersonation(policy([]), opts)]);
    expect((await send([['Impersonate-User', 'carol'], ['Impersonate-Group', 'system:unauthenticated']])).body.user.groups).toEqual(['system:unauthenticated']);
    expect((await send([['Impersonate-User', 'system:anonymous']])).body.user.groups).toEqual(['system:unauthenticated']);
  });

  it('refuses with 403 naming the first value the user may not impersonate', async () => {
    s = await serveChain([asAlice, withImpersonation(policy([], ['root']), opts)]);
    const r = await send([['Impersonate-User', 'bob'], ['Impersonate-Group', 'root']]);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      reason: 'Forbidden',
      message: 'groups "root" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
      details: { name: 'root', kind: 'groups' },
    });
  });

  it.each([
    [[['Impersonate-Group', 'dev']]],
    [[['Impersonate-Extra-Scopes', 'view']]],
    [[['Impersonate-Uid', 'u-1']]],
  ] as [string, string][][][])('answers 400 to impersonation headers without a user: %j', async (headers) => {
    s = await serveChain([asAlice, withImpersonation(policy([]), opts)]);
    const r = await send(headers);
    expect(r.status).toBe(400);
    expect(r.body.reason).toBe('BadRequest');
    expect(r.body.message).toMatch(/without impersonating a user: add the Impersonate-User header$/);
  });

  it('splits service account usernames as Kubernetes does', () => {
    expect(splitServiceAccountUsername('system:serviceaccount:ns:sa')).toEqual({ namespace: 'ns', name: 'sa' });
    expect(splitServiceAccountUsername('system:serviceaccount:ns')).toBeUndefined();
    expect(splitServiceAccountUsername('system:serviceaccount:NS:sa')).toBeUndefined();
    expect(splitServiceAccountUsername('system:serviceaccount:ns:sa:x')).toBeUndefined();
  });
});
