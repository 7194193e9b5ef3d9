import { afterEach, describe, expect, it } from 'vitest';
import { serveChain, type ChainServer } from '../../test/helpers/chain-server.js';
import { parseRequestInfo } from '../endpoints/request-info.js';
import type { Filter } from '../http/context.js';
import { errors } from '../machinery/errors.js';
import type { RequestContext } from '../machinery/request-context.js';
import { withPanicRecovery } from './with-panic-recovery.js';
import { withRequestInfo } from './with-request-info.js';
import { memoryLogger } from '../../test/helpers/chain-server.js';

let s: ChainServer | undefined;
afterEach(() => s?.close());

describe('withRequestInfo', () => {
  it.each([
    ['/api/v1/namespaces/default/pods', { verb: 'list', resource: 'pods', namespace: 'default' }, false],
    ['/api/v1/namespaces/default/pods?watch=true', { verb: 'watch', resource: 'pods' }, true],
    ['/api/v1/watch/namespaces/default/pods/p1', { verb: 'watch', name: 'p1' }, true],
    ['/apis/apps/v1/deployments', { verb: 'list', apiGroup: 'apps', apiVersion: 'v1' }, false],
    ['/api/v1/namespaces/default/pods/p1/log', { verb: 'get', subresource: 'log' }, true],
    ['/healthz', { isResourceRequest: false, verb: 'get', path: '/healthz' }, false],
  ])('parses %s before the handler runs, and knows whether it is long-running', async (path, info, longRunning) => {
    s = await serveChain([]);
    const r = await s.fetch(path);
    expect(r.status).toBe(200);
    expect(r.body.info).toMatchObject(info);
    expect(r.body.longRunning).toBe(longRunning);
  });

  it('a URL the resolver refuses gets its Status from panic recovery', async () => {
    const logs: { level: string; msg: string }[] = [];
    const refuse = (): never => {
      throw errors.badRequest('the request URL cannot be parsed');
    };
    s = await serveChain([withPanicRecovery(memoryLogger(logs)), withRequestInfo(refuse)], { bare: true });
    const r = await s.fetch('/api/v1/pods');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'the request URL cannot be parsed' });
  });

  it('a filter that reads the info before it is parsed is a bug that fails loudly (500), not a guess', async () => {
    const logs: { level: string; msg: string }[] = [];
    const tooEarly: Filter<RequestContext> = async (ctx, next) => {
      void ctx.info.verb;
      return next();
    };
    s = await serveChain([withPanicRecovery(memoryLogger(logs)), tooEarly, withRequestInfo(parseRequestInfo)], { bare: true });
    const r = await s.fetch('/api/v1/pods');
    expect(r.status).toBe(500);
    expect(logs.some((l) => l.level === 'error')).toBe(true);
  });
});
