import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../test/helpers/chain-server.js';
import { NO_AUDIT_METRICS, type Auditor } from '../audit/index.js';
import type { Authenticator } from '../authn/index.js';
import type { Authorizer } from '../authz/index.js';
import { parseRequestInfo } from '../endpoints/request-info.js';
import type { FlowControl } from '../flowcontrol/index.js';
import { createApiNames } from '../machinery/api-names.js';
import type { ApiMetrics } from '../machinery/metrics.js';
import type { RequestContext } from '../machinery/request-context.js';
import { buildChain, type ChainDeps } from './chain.js';
import { createRequestListener } from './request-listener.js';

const gauge = { inc: () => undefined, dec: () => undefined, set: () => undefined };
const metrics: ApiMetrics = { requests: { inc: () => undefined }, latency: { observe: () => undefined }, inflight: gauge, longRunning: gauge, watchEvents: { inc: () => undefined }, deprecatedApis: gauge };
const base: ChainDeps = { log: memoryLogger([]), metrics, resolveRequestInfo: parseRequestInfo, requestTimeoutSeconds: 60, authenticationGroup: 'authentication.orch.io', authorizationGroup: 'authorization.orch.io' };

/** Every seam configured, each noting what it saw of the request when its turn came. */
function everySeam(trail: string[]): Required<Pick<ChainDeps, 'audit' | 'authentication' | 'authorizer' | 'flowControl'>> {
  const audit: Auditor = {
    apiVersion: 'audit.orch.io/v1',
    decide: () => ({ level: 'Metadata', omitStages: [], omitManagedFields: false }),
    metrics: NO_AUDIT_METRICS,
    patchAnnotationPrefix: 'patch.webhook.admission.orch.io/',
    process: (ev) => (trail.push(`audit ${ev.stage} ${ev.verb} ${ev.user.username ?? ''}`.trimEnd()), true),
    shutdown: async () => undefined,
  };
  const authenticator: Authenticator = {
    authenticate: async () => {
      trail.push('authenticate');
      return { kind: 'user', user: { username: 'jane', groups: ['dev'] } };
    },
  };
  const authorizer: Authorizer = {
    authorize: async (a) => {
      trail.push(`authorize ${a.user?.username} ${a.verb} ${a.resource}`);
      return { decision: 'allow', reason: '' };
    },
  };
  const flowControl: FlowControl = {
    handle: async (ctx, execute) => {
      trail.push(`flow control ${ctx.user?.username} deadline=${ctx.deadline !== undefined}`);
      await execute();
    },
  };
  return { audit, authentication: { authenticator, anonymous: false }, authorizer, flowControl };
}

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(deps: ChainDeps, handler: (ctx: RequestContext) => Promise<void>): Promise<string> {
  server = createServer(createRequestListener({ chain: buildChain(deps), handler, log: deps.log }));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('buildChain', () => {
  it("is DESIGN §2's order, top-down, with every part configured", () => {
    expect(buildChain({ ...base, ...everySeam([]) }).map((s) => s.name)).toEqual([
      'panic-recovery',
      'request-info',
      'metrics',
      'audit-init',
      'deadline',
      'audit-failed-authentication',
      'authentication',
      'audit',
      'impersonation',
      'flow-control',
      'authorization',
    ]);
  });

  it('leaves out what is not configured, as the server runs today', () => {
    expect(buildChain(base).map((s) => s.name)).toEqual(['panic-recovery', 'request-info', 'metrics', 'audit-init', 'deadline']);
  });

  it('ends with the domain hints on a server whose API domain is not k8s.io, and leaves them out under k8s.io', () => {
    const hints = (domain: string): ChainDeps['domainHints'] => ({ names: createApiNames(domain), isServedGroup: () => false });
    expect(buildChain({ ...base, ...everySeam([]), domainHints: hints('orch.io') }).map((s) => s.name).slice(-2)).toEqual(['authorization', 'domain-hints']);
    expect(buildChain({ ...base, domainHints: hints('k8s.io') }).map((s) => s.name)).toEqual(['panic-recovery', 'request-info', 'metrics', 'audit-init', 'deadline']);
  });

  it('runs a request through the steps in that order, each seeing what the earlier ones set', async () => {
    const trail: string[] = [];
    const url = await serve({ ...base, ...everySeam(trail) }, async (ctx) => {
      trail.push(`handler ${ctx.user?.username} ${ctx.info.verb} ${ctx.info.isResourceRequest && ctx.info.resource}`);
      ctx.res.end();
    });
    const r = await fetch(`${url}/api/v1/namespaces/default/pods`);
    expect(r.status).toBe(200);
    expect(r.headers.get('audit-id')).toBeTruthy();
    expect(trail).toEqual([
      'authenticate',
      'audit RequestReceived list jane',
      'flow control jane deadline=true',
      'authorize jane list pods',
      'handler jane list pods',
      'audit ResponseComplete list jane',
    ]);
  });

  it('a refusal stops the request where it happens: nothing after authorization runs', async () => {
    const trail: string[] = [];
    const seams = everySeam(trail);
    const deny: Authorizer = { authorize: async () => ({ decision: 'deny', reason: '' }) };
    const url = await serve({ ...base, ...seams, authorizer: deny }, async () => {
      trail.push('handler');
    });
    const r = await fetch(`${url}/api/v1/namespaces/default/pods`);
    expect(r.status).toBe(403);
    expect(trail).not.toContain('handler');
    expect(trail.at(-1)).toBe('audit ResponseComplete list jane');
  });
});
