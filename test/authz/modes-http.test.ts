/**
 * The simple modes on a real server, and the default: AlwaysDeny has no opinion (members of
 * system:masters pass, a later RBAC grant still allows, everyone else is refused with its reason);
 * AlwaysAllow allows every caller; with no --authorization-mode the command, like createServer(),
 * runs RBAC with the default policy, so an anonymous caller gets health and nothing else.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { httpCall } from '../helpers/server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ensureBuilt, startCli, type CliServer } from '../e2e/helpers/cli.js';
import { RBAC_V1, caller, eventually, roleBinding, userSubject } from './helpers.js';

const started: TestServer[] = [];
let cli: CliServer | undefined;
afterAll(async () => {
  for (const s of started) await s.close();
  await cli?.kill();
  if (cli) rmSync(cli.dataDir, { recursive: true, force: true });
});

async function serverWith(modes: string[]): Promise<TestServer> {
  const s = await startTestServer({ authorizationModes: modes });
  started.push(s);
  return s;
}

describe('--authorization-mode AlwaysDeny and AlwaysAllow', () => {
  it('AlwaysDeny alone: system:masters still pass; anyone else is refused with "Everything is forbidden."', async () => {
    const s = await serverWith(['AlwaysDeny']);
    expect((await s.get('/api/v1/namespaces')).status).toBe(200);
    const r = await caller(s, 'alice').get('/api/v1/namespaces/default/pods');
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default": Everything is forbidden.');
  });

  it('AlwaysDeny before RBAC has no opinion: an RBAC grant still allows', async () => {
    const s = await serverWith(['AlwaysDeny', 'RBAC']);
    expect((await s.post(`${RBAC_V1}/namespaces/default/rolebindings`, roleBinding('alice-views', 'ClusterRole', 'view', [userSubject('alice')]))).status).toBe(201);
    await eventually(async () => (await caller(s, 'alice').get('/api/v1/namespaces/default/pods')).status === 200, 'alice may list pods');
    const refused = await caller(s, 'alice').get('/api/v1/namespaces/default/secrets');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/: Everything is forbidden\.$/);
  });

  it('AlwaysAllow allows everyone everything, impersonation included', async () => {
    const s = await serverWith(['AlwaysAllow']);
    expect((await caller(s, 'alice').get('/api/v1/nodes')).status).toBe(200);
    expect((await caller(s, 'alice').post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'by-alice' } })).status).toBe(201);
  });
});

describe('the command without --authorization-mode', () => {
  it('runs RBAC with the default policy: an anonymous caller gets /healthz and a 403 elsewhere', async () => {
    ensureBuilt();
    cli = await startCli([], { tls: true });
    const anonymous = { url: cli.url, tls: { ca: cli.tls!.ca } };
    expect((await httpCall(anonymous, 'GET', '/healthz')).status).toBe(200);
    const r = await httpCall(anonymous, 'GET', '/api/v1/namespaces');
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope');
    expect((await httpCall({ url: cli.url, tls: cli.tls! }, 'GET', '/api/v1/namespaces')).status).toBe(200);
  }, 120_000);
});
