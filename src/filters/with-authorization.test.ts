import { afterEach, describe, expect, it } from 'vitest';
import { serveChain, type ChainServer } from '../../test/helpers/chain-server.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../authz/index.js';
import type { Filter } from '../http/context.js';
import type { RequestContext } from '../machinery/request-context.js';
import { withAuthorization } from './with-authorization.js';

let s: ChainServer | undefined;
const OPTS = { authorizationGroup: 'authorization.orch.io' };
afterEach(() => s?.close());

const asJane: Filter<RequestContext> = (ctx, next) => {
  ctx.user = { username: 'jane', groups: ['dev'] };
  return next();
};

/** Allows reads of configmaps, denies secrets with a reason, has no opinion on the rest. */
function policy(seen: AuthorizationAttributes[]): Authorizer {
  return {
    async authorize(a): Promise<AuthorizationResult> {
      seen.push(a);
      if (a.resource === 'configmaps' && (a.verb === 'get' || a.verb === 'list')) return { decision: 'allow', reason: '' };
      if (a.resource === 'secrets') return { decision: 'deny', reason: 'secrets are off limits' };
      return { decision: 'no-opinion', reason: '' };
    },
  };
}

describe('withAuthorization', () => {
  it('passes an allowed request on, asking with the parsed request and the user', async () => {
    const seen: AuthorizationAttributes[] = [];
    s = await serveChain([asJane, withAuthorization(policy(seen), OPTS)]);
    const r = await s.fetch('/api/v1/namespaces/team/configmaps/settings');
    expect(r.status).toBe(200);
    expect(seen).toEqual([
      {
        user: { username: 'jane', groups: ['dev'] },
        verb: 'get',
        isResourceRequest: true,
        path: '/api/v1/namespaces/team/configmaps/settings',
        namespace: 'team',
        apiGroup: '',
        apiVersion: 'v1',
        resource: 'configmaps',
        subresource: '',
        name: 'settings',
      },
    ]);
  });

  it.each([
    ['/api/v1/namespaces/team/secrets', 'GET', 'secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "team": secrets are off limits'],
    ['/apis/apps/v1/namespaces/team/deployments/web/scale', 'PUT', 'deployments.apps "web" is forbidden: User "jane" cannot update resource "deployments/scale" in API group "apps" in the namespace "team"'],
    ['/api/v1/nodes', 'GET', 'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope'],
    ['/metrics', 'GET', 'forbidden: User "jane" cannot get path "/metrics"'],
  ])('answers a denial or no opinion with 403 in Kubernetes words: %s %s', async (path, method, message) => {
    let handled = false;
    s = await serveChain([asJane, withAuthorization(policy([]), OPTS)], {
      handler: async (ctx) => {
        handled = true;
        ctx.res.end();
      },
    });
    const r = await s.fetch(path, { method, ...(method === 'PUT' ? { body: '{}' } : {}) });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403, message });
    expect(handled).toBe(false);
  });

  it('answers 500 when an authorizer failed and none allowed, 403 when one denied', async () => {
    const failing: Authorizer = { authorize: async () => ({ decision: 'no-opinion', reason: '', failure: 'webhook unreachable' }) };
    s = await serveChain([asJane, withAuthorization(failing, OPTS)]);
    const r = await s.fetch('/api/v1/pods');
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ reason: 'InternalError', message: 'Internal error occurred: webhook unreachable' });
  });

  it('answers 500 to a denial that comes with an error (a webhook answering both allowed and denied), as Kubernetes', async () => {
    const both: Authorizer = { authorize: async () => ({ decision: 'deny', reason: 'mixed', failure: 'webhook subject access review returned both allow and deny response' }) };
    s = await serveChain([asJane, withAuthorization(both, OPTS)]);
    const r = await s.fetch('/api/v1/pods');
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ reason: 'InternalError', message: 'Internal error occurred: webhook subject access review returned both allow and deny response' });
  });

  it('names the object a list is narrowed to by a metadata.name field selector', async () => {
    const seen: AuthorizationAttributes[] = [];
    s = await serveChain([asJane, withAuthorization(policy(seen), OPTS)]);
    await s.fetch('/api/v1/namespaces/team/configmaps?fieldSelector=metadata.name%3Dsettings');
    expect(seen[0]).toMatchObject({ verb: 'list', name: 'settings' });
  });

  it('escapes HTML in the message as Kubernetes does', async () => {
    s = await serveChain([asJane, withAuthorization(policy([]), OPTS)]);
    const r = await s.fetch('/a&b');
    expect(r.body.message).toBe('forbidden: User "jane" cannot get path "/a&amp;b"');
  });
});

describe('withAuthorization: the decision on the audit context', () => {
  /** Runs before the filter under test and keeps the annotations the request ended with, refused or not. */
  function keepAnnotations(into: Record<string, string>[]): Filter<RequestContext> {
    return async (ctx, next) => {
      try {
        await next();
      } finally {
        into.push({ ...ctx.audit.annotations });
      }
    };
  }
  const withReason: Authorizer = {
    async authorize(a) {
      if (a.resource === 'configmaps') return { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "view" to User "jane"' };
      if (a.resource === 'pods') return { decision: 'allow', reason: '' };
      if (a.resource === 'secrets') return { decision: 'deny', reason: 'secrets are off limits' };
      if (a.resource === 'nodes') return { decision: 'no-opinion', reason: '', failure: 'calling the authorization webhook: connect ECONNREFUSED' };
      return { decision: 'no-opinion', reason: '' };
    },
  };

  it.each([
    ['/api/v1/namespaces/team/configmaps', 200, { 'authorization.orch.io/decision': 'allow', 'authorization.orch.io/reason': 'RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "view" to User "jane"' }],
    // system:masters and AlwaysAllow give no reason: Kubernetes records it empty.
    ['/api/v1/namespaces/team/pods', 200, { 'authorization.orch.io/decision': 'allow', 'authorization.orch.io/reason': '' }],
    ['/api/v1/namespaces/team/secrets', 403, { 'authorization.orch.io/decision': 'forbid', 'authorization.orch.io/reason': 'secrets are off limits' }],
    ['/api/v1/namespaces/team/services', 403, { 'authorization.orch.io/decision': 'forbid', 'authorization.orch.io/reason': '' }],
    // No decision was reached: the reason says so, without the failure's text.
    ['/api/v1/nodes', 500, { 'authorization.orch.io/reason': 'internal error' }],
  ])('%s: %s, annotated %j', async (path, status, annotations) => {
    const seen: Record<string, string>[] = [];
    s = await serveChain([asJane, keepAnnotations(seen), withAuthorization(withReason, OPTS)]);
    const r = await s.fetch(path);
    expect(r.status).toBe(status);
    expect(seen).toEqual([annotations]);
    if (status === 200) expect(r.body.audit.annotations).toEqual(annotations);
  });

  it('names the annotations after the authorization group served, k8s.io under --api-domain=k8s.io', async () => {
    const seen: Record<string, string>[] = [];
    s = await serveChain([asJane, keepAnnotations(seen), withAuthorization(withReason, { authorizationGroup: 'authorization.k8s.io' })]);
    await s.fetch('/api/v1/namespaces/team/secrets');
    expect(seen).toEqual([{ 'authorization.k8s.io/decision': 'forbid', 'authorization.k8s.io/reason': 'secrets are off limits' }]);
  });

  it('keeps what earlier stages annotated', async () => {
    const seen: Record<string, string>[] = [];
    const earlier: Filter<RequestContext> = (ctx, next) => {
      ctx.audit.annotations['example.com/earlier'] = 'kept';
      return next();
    };
    s = await serveChain([asJane, keepAnnotations(seen), earlier, withAuthorization(withReason, OPTS)]);
    await s.fetch('/api/v1/namespaces/team/pods');
    expect(seen).toEqual([{ 'example.com/earlier': 'kept', 'authorization.orch.io/decision': 'allow', 'authorization.orch.io/reason': '' }]);
  });
});
