import { afterEach, describe, expect, it } from 'vitest';
import { serveChain, type ChainServer } from '../../test/helpers/chain-server.js';
import { NO_AUDIT_METRICS, type AuditEvent, type Auditor, type RequestAuditConfig } from '../audit/index.js';
import type { Authenticator } from '../authn/index.js';
import { errors } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';
import { withAudit } from './with-audit.js';
import { withAuditInit } from './with-audit-init.js';
import { withAuthentication } from './with-authentication.js';
import { withFailedAuthenticationAudit } from './with-failed-authentication-audit.js';

let s: ChainServer | undefined;
afterEach(() => s?.close());

function auditor(config: Partial<RequestAuditConfig>, events: AuditEvent[], stored = true): Auditor {
  return {
    apiVersion: 'audit.orch.io/v1',
    decide: () => ({ level: 'Metadata', omitStages: [], omitManagedFields: false, ...config }),
    metrics: NO_AUDIT_METRICS,
    patchAnnotationPrefix: 'patch.webhook.admission.orch.io/',
    process: (ev) => (events.push(ev), stored),
    shutdown: async () => undefined,
  };
}

const jane: Authenticator = { authenticate: async (r) => (r.headers.authorization === 'Bearer good' ? { kind: 'user', user: { username: 'jane', groups: ['dev'] } } : r.headers.authorization ? { kind: 'error', error: new Error('bad token') } : { kind: 'no-opinion' }) };
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const chain = (a: Auditor) => [withAuditInit(), withFailedAuthenticationAudit(a), withAuthentication(jane, { anonymous: false, log: silent }), withAudit(a)];
const auth = { headers: { authorization: 'Bearer good' } };

describe('withAudit', () => {
  it('records RequestReceived and ResponseComplete under the Audit-ID it answers with, the user and the request', async () => {
    const events: AuditEvent[] = [];
    s = await serveChain(chain(auditor({}, events)));
    const r = await s.fetch('/api/v1/namespaces/default/pods?limit=1', { headers: { ...auth.headers, 'User-Agent': 'test/1', 'X-Forwarded-For': '10.1.2.3' } });
    expect(r.status).toBe(200);
    const id = r.headers.get('audit-id');
    expect(events.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(events[1]).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.orch.io/v1',
      level: 'Metadata',
      auditID: id,
      requestURI: '/api/v1/namespaces/default/pods?limit=1',
      verb: 'list',
      user: { username: 'jane', groups: ['dev'] },
      sourceIPs: ['10.1.2.3', '127.0.0.1'],
      userAgent: 'test/1',
      objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 200 },
    });
    expect(events[0]?.responseStatus).toBeUndefined();
    expect(events[0]?.stageTimestamp).toBe(events[0]?.requestReceivedTimestamp);
    expect(events[1]?.stageTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('records nothing at level None, and leaves out the stages the policy omits', async () => {
    const none: AuditEvent[] = [];
    s = await serveChain(chain(auditor({ level: 'None' }, none)));
    expect((await s.fetch('/healthz', auth)).status).toBe(200);
    expect(none).toEqual([]);
    await s.close();
    const some: AuditEvent[] = [];
    s = await serveChain(chain(auditor({ omitStages: ['RequestReceived'] }, some)));
    await s.fetch('/healthz', auth);
    expect(some.map((e) => e.stage)).toEqual(['ResponseComplete']);
  });

  it("records a refusal's Status, and Panic for an unexpected failure", async () => {
    const events: AuditEvent[] = [];
    s = await serveChain(chain(auditor({}, events)), {
      handler: async (ctx) => {
        if (ctx.path === '/boom') throw new Error('bug');
        throw errors.badRequest('no good');
      },
    });
    expect((await s.fetch('/refused', auth)).status).toBe(400);
    expect((await s.fetch('/boom', auth)).status).toBe(500);
    expect(events.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete', 'RequestReceived', 'Panic']);
    expect(events[1]?.responseStatus).toEqual({ metadata: {}, status: 'Failure', message: 'no good', reason: 'BadRequest', code: 400 });
    expect(events[3]?.responseStatus).toEqual({ metadata: {}, status: 'Failure', message: "APIServer panic'd: bug", reason: 'InternalError', code: 500 });
  });

  it('records ResponseStarted for a long-running request when its answer starts', async () => {
    const events: AuditEvent[] = [];
    s = await serveChain(chain(auditor({}, events)), {
      handler: async (ctx) => {
        ctx.res.writeHead(200, { 'content-type': 'application/json' });
        ctx.res.end('{}');
      },
    });
    await s.fetch('/api/v1/pods?watch=1', auth);
    await s.fetch('/api/v1/pods', auth);
    expect(events.map((e) => `${e.verb} ${e.stage}`)).toEqual(['watch RequestReceived', 'watch ResponseStarted', 'watch ResponseComplete', 'list RequestReceived', 'list ResponseComplete']);
  });

  it('writes the admission mutation annotation from Metadata, its patch annotation only from Request', async () => {
    const handler = async (ctx: RequestContext): Promise<void> => {
      // A fake producer, as the mutating webhooks write them.
      ctx.audit.annotations['mutation.webhook.admission.orch.io/round_0_index_0'] = '{"configuration":"c","webhook":"w","mutated":true}';
      ctx.audit.annotations['patch.webhook.admission.orch.io/round_0_index_0'] = '{"configuration":"c","webhook":"w","patchType":"JSONPatch","patch":[]}';
      ctx.res.end();
    };
    for (const [level, keys] of [
      ['Metadata', ['mutation.webhook.admission.orch.io/round_0_index_0']],
      ['Request', ['mutation.webhook.admission.orch.io/round_0_index_0', 'patch.webhook.admission.orch.io/round_0_index_0']],
    ] as const) {
      const events: AuditEvent[] = [];
      s = await serveChain(chain(auditor({ level }, events)), { handler });
      await s.fetch('/api/v1/namespaces/default/pods', { method: 'POST', ...auth });
      expect(Object.keys(events.at(-1)?.annotations ?? {})).toEqual(keys);
      await s.close();
      s = undefined;
    }
  });

  it('names the impersonated user apart from the one who asked', async () => {
    const events: AuditEvent[] = [];
    s = await serveChain([...chain(auditor({}, events)), async (ctx, next) => ((ctx.user = { username: 'bob', groups: ['system:authenticated'] }), next())]);
    await s.fetch('/api/v1/pods', auth);
    expect(events[0]?.impersonatedUser).toBeUndefined();
    expect(events[1]).toMatchObject({ user: { username: 'jane' }, impersonatedUser: { username: 'bob', groups: ['system:authenticated'] } });
  });

  it('fails the request, before it does anything, when a blocking-strict backend cannot store RequestReceived', async () => {
    let ran = false;
    s = await serveChain(chain(auditor({}, [], false)), { handler: async () => void (ran = true) });
    const r = await s.fetch('/api/v1/namespaces/default/configmaps', { method: 'POST', ...auth });
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'InternalError', message: 'Internal Server Error: "/api/v1/namespaces/default/configmaps": failed to store audit event' });
    expect(ran).toBe(false);
  });
});

describe('withFailedAuthenticationAudit', () => {
  it('records one ResponseStarted event for a 401, naming the kind of credential tried, never the credential', async () => {
    const events: AuditEvent[] = [];
    s = await serveChain(chain(auditor({}, events)));
    expect((await s.fetch('/api/v1/pods', { headers: { authorization: 'Bearer secret-token-value' } })).status).toBe(401);
    expect((await s.fetch('/api/v1/pods')).status).toBe(401);
    expect(events.map((e) => e.stage)).toEqual(['ResponseStarted', 'ResponseStarted']);
    expect(events[0]).toMatchObject({ user: {}, verb: 'list', responseStatus: { metadata: {}, message: 'Authentication failed, attempted: bearer', code: 401 } });
    expect(events[1]?.responseStatus?.message).toBe('Authentication failed, no credentials provided');
    expect(JSON.stringify(events)).not.toContain('secret-token-value');
  });
});
