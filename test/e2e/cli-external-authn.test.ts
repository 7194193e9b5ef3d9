/**
 * The command's --oidc-* and --authentication-token-webhook-* flags: usage errors exit 2 with
 * kube-apiserver's words, files that cannot be used stop the start (exit 1), and the flags given
 * reach the running server: an OIDC id_token and a webhook-checked token authenticate over HTTPS.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityProvider, type IdentityProvider } from '../helpers/identity-provider.js';
import { startTokenReviewWebhook, type TokenReviewWebhook } from '../helpers/token-review-webhook.js';
import { whoami } from '../helpers/whoami.js';
import { ensureBuilt, runCli, startCli, tempDir, type CliServer } from './helpers/cli.js';

const cleanup: string[] = [];
let idp: IdentityProvider;
let hook: TokenReviewWebhook;

beforeAll(async () => {
  console.log(`cli external authn e2e: ${ensureBuilt()}`);
  idp = await startIdentityProvider();
  hook = await startTokenReviewWebhook();
  hook.decide('webhook-token', { authenticated: true, user: { username: 'webhook-user', groups: ['corp'] } });
});
afterAll(async () => {
  await idp?.close();
  await hook?.close();
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

describe('usage errors', () => {
  it.each([
    [['--oidc-issuer-url=https://idp.example.com'], /oidc-issuer-url and oidc-client-id should be specified together/],
    [['--oidc-client-id=orch'], /oidc-issuer-url and oidc-client-id should be specified together/],
    [['--oidc-issuer-url=http://idp.example.com', '--oidc-client-id=orch'], /'oidc-issuer-url' \("http:\/\/idp.example.com"\) has invalid scheme \("http"\), require 'https'/],
    [['--oidc-issuer-url=https://idp.example.com', '--oidc-client-id=orch', '--oidc-signing-algs=RS256,HS256'], /oidc: unsupported signing alg: "HS256"/],
    [['--oidc-issuer-url=https://idp.example.com', '--oidc-client-id=orch', '--oidc-required-claim=tenant'], /--oidc-required-claim: "tenant" must be formatted as key=value/],
    [['--authentication-token-webhook-config-file=/w.yaml', '--authentication-token-webhook-version=v2'], /unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"/],
    [['--authentication-token-webhook-config-file=/w.yaml', '--authentication-token-webhook-cache-ttl=soon'], /--authentication-token-webhook-cache-ttl: invalid duration "soon"/],
    [['--insecure-plain-http', '--oidc-issuer-url=https://idp.example.com', '--oidc-client-id=orch'], /--insecure-plain-http cannot be combined with --oidc-issuer-url, --oidc-client-id/],
  ])('%j exits 2 with a message on stderr', async (args, message) => {
    const dir = tempDir();
    cleanup.push(dir);
    const r = await runCli(['--secure-port', '0', '--bind-address', '127.0.0.1', '--data-dir', dir, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).not.toContain('serving');
  });

  it.each([
    [['--authentication-token-webhook-config-file=/nonexistent/webhook.yaml'], /cannot start: --authentication-token-webhook-config-file \/nonexistent\/webhook.yaml: ENOENT/],
    [['--oidc-issuer-url=https://idp.example.com', '--oidc-client-id=orch', '--oidc-ca-file=/nonexistent/ca.crt'], /cannot start: --oidc-ca-file: failed to read the CA file/],
  ])('%j cannot start: exit 1 naming the file', async (args, message) => {
    const dir = tempDir();
    cleanup.push(dir);
    const r = await runCli(['--secure-port', '0', '--bind-address', '127.0.0.1', '--data-dir', dir, ...args]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
  });
});

describe('the flags reach the server', () => {
  let cli: CliServer;
  beforeAll(async () => {
    cli = await startCli(
      [
        `--oidc-issuer-url=${idp.issuer}`,
        `--oidc-client-id=${idp.clientId}`,
        `--oidc-ca-file=${idp.caFile}`,
        '--oidc-username-claim=email',
        '--oidc-groups-claim=roles',
        '--oidc-groups-prefix=idp:',
        '--oidc-required-claim=tenant=acme',
        `--authentication-token-webhook-config-file=${hook.kubeconfigFile}`,
        '--authentication-token-webhook-version=v1',
        '--authentication-token-webhook-cache-ttl=0s',
      ],
      { tls: true },
    );
    cleanup.push(cli.dataDir);
  });
  afterAll(() => cli?.stop());

  const client = () => ({ url: cli.url, tls: { ca: cli.tls?.ca } });

  it('an OIDC id_token is the user its email names, with its prefixed groups', async () => {
    const token = await idp.idToken({ email: 'ann@acme.example', email_verified: true, roles: 'admin', tenant: 'acme' });
    const { reply, user } = await whoami(client(), { authorization: `Bearer ${token}` });
    expect(reply.status).toBe(201);
    expect(user).toEqual({ username: 'ann@acme.example', groups: ['idp:admin', 'system:authenticated'] });
    const unverified = await idp.idToken({ email: 'ann@acme.example', email_verified: false, tenant: 'acme' });
    expect((await whoami(client(), { authorization: `Bearer ${unverified}` })).reply.status).toBe(401);
  });

  it('a webhook token is checked in TokenReview v1 and, with a TTL of 0, every time', async () => {
    const before = hook.calls();
    for (let i = 0; i < 2; i++) expect((await whoami(client(), { authorization: 'Bearer webhook-token' })).user).toEqual({ username: 'webhook-user', groups: ['corp', 'system:authenticated'] });
    expect(hook.calls() - before).toBe(2);
    expect(hook.received.at(-1)?.apiVersion).toBe('authentication.orch.io/v1');
    expect(cli.stderr()).not.toContain('webhook-token');
  });
});
