/**
 * Exec credential plugins end to end: plugin scripts written into a temporary directory, a kubeconfig
 * beside them (relative command and CA paths), the project's network client against a real HTTPS
 * server from createServer() (anonymous off, static tokens), and against a small HTTPS server of the
 * test's own that says which credential each request carried and over how many TLS connections.
 * Finally kubectl's own exec plugin support against the server under k8s.io, as the reference.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import https from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFromKubeconfig, type NetworkClient } from '../../src/client/index.js';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../src/machinery/x509/certificates.js';
import { createServer, type OrchServer } from '../../src/index.js';
import { kubectlPicks, runKubectl } from '../helpers/kubectl.js';
import { startProbe, type Probe } from '../helpers/probe-https.js';
import { grantClusterRoleToGroup } from '../helpers/rbac-grants.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-exec-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A Node plugin that prints an ExecCredential of `apiVersion` whose status is `status.<run>.json`
 * (the n-th run; the last one once they run out), records its input, and counts its runs.
 */
function writePlugin(name: string): { path: string; runs: () => number; input: () => Record<string, unknown> } {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!/usr/bin/env node
const fs = require('node:fs');
const base = __filename;
const runs = (fs.existsSync(base + '.runs') ? fs.readFileSync(base + '.runs', 'utf8').length : 0) + 1;
fs.writeFileSync(base + '.runs', 'x'.repeat(runs));
fs.writeFileSync(base + '.input', process.env.ORCH_EXEC_INFO || process.env.KUBERNETES_EXEC_INFO || '');
let status;
for (let n = runs; n >= 1 && status === undefined; n--) if (fs.existsSync(base + '.status.' + n + '.json')) status = fs.readFileSync(base + '.status.' + n + '.json', 'utf8');
const info = JSON.parse(process.env.ORCH_EXEC_INFO || process.env.KUBERNETES_EXEC_INFO);
process.stdout.write('{"apiVersion":' + JSON.stringify(process.env.REPLY_VERSION || info.apiVersion) + ',"kind":"ExecCredential","status":' + status + '}');
`,
  );
  chmodSync(path, 0o755);
  const read = (suffix: string): string => {
    try {
      return readFileSync(path + suffix, 'utf8');
    } catch {
      return '';
    }
  };
  return { path, runs: () => read('.runs').length, input: () => JSON.parse(read('.input')) as Record<string, unknown> };
}

const setStatus = (plugin: string, run: number, status: Record<string, unknown>): void => writeFileSync(join(dir, `${plugin}.status.${run}.json`), JSON.stringify(status));

interface KubeconfigSpec {
  server: string;
  caFile: string;
  command: string;
  apiVersion: string;
  interactiveMode?: string;
  installHint?: string;
  provideClusterInfo?: boolean;
  env?: Record<string, string>;
}

/** A kubeconfig in `dir` whose CA path and command are relative to it. */
function writeKubeconfig(name: string, k: KubeconfigSpec): string {
  const path = join(dir, name);
  const env = Object.entries(k.env ?? {}).map(([n, v]) => `      - name: ${n}\n        value: ${JSON.stringify(v)}`);
  writeFileSync(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: c',
      '  cluster:',
      `    server: ${k.server}`,
      `    certificate-authority: ${k.caFile}`,
      'contexts:',
      '- name: c',
      '  context: {cluster: c, user: u}',
      'current-context: c',
      'users:',
      '- name: u',
      '  user:',
      '    exec:',
      `      apiVersion: ${k.apiVersion}`,
      `      command: ${k.command}`,
      ...(k.interactiveMode ? [`      interactiveMode: ${k.interactiveMode}`] : []),
      ...(k.installHint ? [`      installHint: ${JSON.stringify(k.installHint)}`] : []),
      ...(k.provideClusterInfo ? ['      provideClusterInfo: true'] : []),
      ...(env.length ? ['      env:', ...env] : []),
      '',
    ].join('\n'),
  );
  return path;
}

const V1 = 'client.authentication.orch.io/v1';

describe('exec plugin against the server (TLS, anonymous off: a client certificate or static token from the plugin)', () => {
  let server: OrchServer;
  let kubeconfig: string;
  const plugin = writePlugin('cert-plugin');
  let client: NetworkClient;

  beforeAll(async () => {
    writeFileSync(join(dir, 'tokens.csv'), 'good-token,plugin-user,uid-1,"plugin-group"\n');
    server = await createServer({ port: 0, logLevel: 'silent', dataDir: mkdtempSync(join(dir, 'data-')), anonymousAuth: false, tokenAuthFile: join(dir, 'tokens.csv') });
    const tls = server.tls;
    if (!tls?.caPem || !tls.adminCertPem || !tls.adminKeyPem) throw new Error('the server handed back no CA or admin certificate');
    // The default authorization is RBAC: the plugin's token user may review tokens, as a delegating server would, and read (view).
    await grantClusterRoleToGroup({ url: server.url, tls: tls.clientOptions }, 'system:auth-delegator', 'plugin-group');
    await grantClusterRoleToGroup({ url: server.url, tls: tls.clientOptions }, 'view', 'plugin-group');
    writeFileSync(join(dir, 'server-ca.pem'), tls.caPem);
    setStatus('cert-plugin', 1, { clientCertificateData: tls.adminCertPem, clientKeyData: tls.adminKeyPem });
    kubeconfig = writeKubeconfig('server.kubeconfig', { server: server.url, caFile: 'server-ca.pem', command: './cert-plugin', apiVersion: V1, interactiveMode: 'Never', provideClusterInfo: true });
    client = clientFromKubeconfig(kubeconfig, { stdinIsTerminal: false });
  });
  afterAll(async () => {
    client?.close();
    await server?.close();
  });

  it('lists, creates and watches with the credentials of one plugin run', async () => {
    const list = await client.json<{ items: { metadata: { name: string } }[] }>('GET', '/api/v1/namespaces');
    expect(list.items.map((n) => n.metadata.name)).toContain('default');
    const events = client.watch<{ metadata: { name: string } }>('/api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3Dexec-made');
    const first = events.next();
    await client.json('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'exec-made' }, data: { a: 'b' } } });
    const event = await first;
    expect(event.value).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'exec-made' } } });
    await events.return(undefined);
    expect(plugin.runs()).toBe(1);
    const input = plugin.input() as { apiVersion: string; spec: { interactive: boolean; cluster: Record<string, unknown> } };
    expect(input.apiVersion).toBe(V1);
    expect(input.spec.interactive).toBe(false);
    expect(input.spec.cluster).toEqual({ server: server.url, 'certificate-authority-data': Buffer.from(server.tls?.caPem ?? '').toString('base64'), config: null });
  });

  it('a static token from the plugin; a token the server refuses runs the plugin again and the retry succeeds', async () => {
    const plugin = writePlugin('static-token-plugin');
    setStatus('static-token-plugin', 1, { token: 'revoked-token' });
    setStatus('static-token-plugin', 2, { token: 'good-token' });
    const tokenClient = clientFromKubeconfig(writeKubeconfig('static-token.kubeconfig', { server: server.url, caFile: 'server-ca.pem', command: './static-token-plugin', apiVersion: 'client.authentication.orch.io/v1beta1' }), { stdinIsTerminal: false });
    const review = await tokenClient.json<{ status: { authenticated: boolean; user: { username: string; groups: string[] } } }>('POST', '/apis/authentication.orch.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', spec: { token: 'good-token' } },
    });
    expect(review.status).toMatchObject({ authenticated: true, user: { username: 'plugin-user', groups: ['plugin-group', 'system:authenticated'] } });
    expect(plugin.runs()).toBe(2);
    await tokenClient.json('GET', '/api/v1/namespaces');
    expect(plugin.runs()).toBe(2);
    tokenClient.close();
    // Without a credential the server refuses (anonymous is off): the plugin's credentials did the work.
    const status = await new Promise<number | undefined>((done, fail) => {
      https.get(`${server.url}/api/v1/namespaces`, { ca: server.tls?.caPem }, (res) => {
        res.resume();
        done(res.statusCode);
      }).on('error', fail);
    });
    expect(status).toBe(401);
  });

  it('errors from the plugin reach the caller and nothing is sent', async () => {
    const always = clientFromKubeconfig(writeKubeconfig('always.kubeconfig', { server: server.url, caFile: 'server-ca.pem', command: './cert-plugin', apiVersion: V1, interactiveMode: 'Always' }), { stdinIsTerminal: false });
    await expect(always.request('GET', '/api/v1/namespaces')).rejects.toThrow('exec plugin cannot support interactive mode: standard input is not a terminal');
    expect(always.exec?.runs).toBe(0);

    const missing = clientFromKubeconfig(writeKubeconfig('missing.kubeconfig', { server: server.url, caFile: 'server-ca.pem', command: 'orch-login-not-installed', apiVersion: V1, interactiveMode: 'Never', installHint: 'orch-login is in the orch-tools package' }));
    await expect(missing.request('GET', '/api/v1/namespaces')).rejects.toThrow(/^exec: executable orch-login-not-installed not found\n[\s\S]*orch-login is in the orch-tools package$/);

    const wrong = clientFromKubeconfig(writeKubeconfig('wrong.kubeconfig', { server: server.url, caFile: 'server-ca.pem', command: './cert-plugin', apiVersion: V1, interactiveMode: 'Never', env: { REPLY_VERSION: 'client.authentication.orch.io/v1beta1' } }));
    await expect(wrong.request('GET', '/api/v1/namespaces')).rejects.toThrow(`exec plugin is configured to use API version ${V1}, plugin returned version client.authentication.orch.io/v1beta1`);

    writePlugin('half-plugin');
    setStatus('half-plugin', 1, { clientCertificateData: server.tls?.adminCertPem });
    const half = clientFromKubeconfig(writeKubeconfig('half.kubeconfig', { server: server.url, caFile: 'server-ca.pem', command: './half-plugin', apiVersion: V1, interactiveMode: 'Never' }));
    await expect(half.request('GET', '/api/v1/namespaces')).rejects.toThrow('exec plugin returned only certificate or key, not both');
  });
});

describe('exec plugin tokens and certificates, seen by a probe server', () => {
  let ca: CertificateAndKey;
  let probe: Probe;
  beforeAll(async () => {
    ca = await createCertificateAuthority('probe-ca', 1);
    writeFileSync(join(dir, 'probe-ca.pem'), ca.certPem);
    probe = await startProbe(ca);
  });
  afterAll(() => probe?.close());
  const config = (name: string, plugin: string, apiVersion = V1): string =>
    writeKubeconfig(name, { server: probe.url, caFile: 'probe-ca.pem', command: `./${plugin}`, apiVersion, ...(apiVersion === V1 ? { interactiveMode: 'IfAvailable' } : {}) });

  it('sends the token; caches it (one run for many requests) while it has no expiry', async () => {
    const plugin = writePlugin('token-plugin');
    setStatus('token-plugin', 1, { token: 'tok-1' });
    probe.accepted = { token: 'tok-1' };
    const client = clientFromKubeconfig(config('token.kubeconfig', 'token-plugin'), { stdinIsTerminal: false });
    for (let i = 0; i < 3; i++) expect((await client.request('GET', '/x')).status).toBe(200);
    expect(plugin.runs()).toBe(1);
    expect(probe.seen.at(-1)).toEqual({ authorization: 'Bearer tok-1' });
    client.close();
  });

  it('runs the plugin again once the expiry has passed, and keeps a credential until a later expiry', async () => {
    const plugin = writePlugin('expiring-plugin');
    setStatus('expiring-plugin', 1, { token: 'old', expirationTimestamp: '2001-01-01T00:00:00Z' });
    setStatus('expiring-plugin', 2, { token: 'new', expirationTimestamp: '2999-01-01T00:00:00Z' });
    probe.accepted = { token: 'old' };
    const client = clientFromKubeconfig(config('expiring.kubeconfig', 'expiring-plugin', 'client.authentication.orch.io/v1beta1'), { stdinIsTerminal: false });
    expect((await client.request('GET', '/x')).status).toBe(200);
    expect(plugin.runs()).toBe(1);
    // The first credential had expired before the next request: it runs the plugin before sending (no 401 needed).
    probe.accepted = { token: 'new' };
    const before = probe.seen.length;
    expect((await client.request('GET', '/x')).status).toBe(200);
    expect((await client.request('GET', '/x')).status).toBe(200);
    expect(probe.seen.slice(before)).toEqual([{ authorization: 'Bearer new' }, { authorization: 'Bearer new' }]);
    expect(plugin.runs()).toBe(2);
    client.close();
  });

  it('a 401 runs the plugin again and retries once; a second 401 is the answer', async () => {
    const plugin = writePlugin('rotating-plugin');
    setStatus('rotating-plugin', 1, { token: 'revoked' });
    setStatus('rotating-plugin', 2, { token: 'fresh' });
    probe.accepted = { token: 'fresh' };
    const client = clientFromKubeconfig(config('rotating.kubeconfig', 'rotating-plugin'), { stdinIsTerminal: false });
    const before = probe.seen.length;
    expect((await client.request('GET', '/x')).status).toBe(200);
    expect(probe.seen.slice(before)).toEqual([{ authorization: 'Bearer revoked' }, { authorization: 'Bearer fresh' }]);
    expect(plugin.runs()).toBe(2);
    probe.accepted = { token: 'something else' };
    expect((await client.request('GET', '/x')).status).toBe(401);
    expect(plugin.runs()).toBe(3);
    client.close();
  });

  it('a watch answered 401 runs the plugin again and opens once more', async () => {
    const plugin = writePlugin('watch-plugin');
    setStatus('watch-plugin', 1, { token: 'stale' });
    setStatus('watch-plugin', 2, { token: 'current' });
    probe.accepted = { token: 'current' };
    const client = clientFromKubeconfig(config('watch.kubeconfig', 'watch-plugin'), { stdinIsTerminal: false });
    const events = [];
    for await (const e of client.watch('/api/v1/probes')) events.push(e);
    expect(events).toEqual([{ type: 'ADDED', object: { kind: 'Probe' } }]);
    expect(plugin.runs()).toBe(2);
    client.close();
  });

  it('a different client certificate from the plugin gets a new TLS connection', async () => {
    const oldCert = await issueCertificate(ca, { commonName: 'old-user', usage: 'client', validForDays: 1 });
    const newCert = await issueCertificate(ca, { commonName: 'new-user', usage: 'client', validForDays: 1 });
    const plugin = writePlugin('cert-rotating-plugin');
    setStatus('cert-rotating-plugin', 1, { clientCertificateData: oldCert.certPem, clientKeyData: oldCert.keyPem });
    setStatus('cert-rotating-plugin', 2, { clientCertificateData: newCert.certPem, clientKeyData: newCert.keyPem });
    probe.accepted = { cn: 'old-user' };
    const client = clientFromKubeconfig(config('cert-rotating.kubeconfig', 'cert-rotating-plugin'), { stdinIsTerminal: false });
    const connectionsBefore = probe.connections;
    expect((await client.request('GET', '/x')).status).toBe(200);
    expect((await client.request('GET', '/x')).status).toBe(200);
    expect(probe.connections - connectionsBefore).toBe(1);
    // The old certificate is refused from now on: the 401 runs the plugin, the new pair needs a new handshake.
    probe.accepted = { cn: 'new-user' };
    const seenBefore = probe.seen.length;
    expect((await client.request('GET', '/x')).status).toBe(200);
    expect(probe.seen.slice(seenBefore)).toEqual([{ cn: 'old-user' }, { cn: 'new-user' }]);
    expect(probe.connections - connectionsBefore).toBe(2);
    expect(plugin.runs()).toBe(2);
    client.close();
  });
});

describe('kubectl exec plugin support against the server under k8s.io (the reference)', () => {
  // kubectl 1.27 and the newest installed (or the one on PATH alone).
  const picks = kubectlPicks();
  if (picks.length === 0) {
    it.skip('kubectl is not on PATH: the reference run is skipped', () => undefined);
    return;
  }
  let server: OrchServer;
  beforeAll(async () => {
    server = await createServer({ port: 0, logLevel: 'silent', apiDomain: 'k8s.io', dataDir: mkdtempSync(join(dir, 'data-k8s-')) });
    writeFileSync(join(dir, 'k8s-ca.pem'), server.tls?.caPem ?? '');
    writePlugin('k8s-plugin');
    setStatus('k8s-plugin', 1, { clientCertificateData: server.tls?.adminCertPem, clientKeyData: server.tls?.adminKeyPem });
  });
  afterAll(() => server?.close());

  for (const { label, bin: kubectl } of picks) describe(label, () => {
    it('kubectl and this client both run the same plugin with client.authentication.k8s.io/v1 and KUBERNETES_EXEC_INFO', async () => {
      const kubeconfig = writeKubeconfig('k8s.kubeconfig', { server: server.url, caFile: 'k8s-ca.pem', command: './k8s-plugin', apiVersion: 'client.authentication.k8s.io/v1', interactiveMode: 'Never', provideClusterInfo: true });
      const run = await runKubectl(kubectl, ['--kubeconfig', kubeconfig, 'get', 'namespaces', '-o', 'name']);
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain('namespace/default');
      const kubectlInput = JSON.parse(readFileSync(join(dir, 'k8s-plugin.input'), 'utf8')) as { apiVersion: string; spec: { interactive: boolean; cluster: { server: string } } };
      expect(kubectlInput).toMatchObject({ kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1', spec: { interactive: false, cluster: { server: server.url } } });

      writeFileSync(join(dir, 'k8s-plugin.input'), '');
      const client = clientFromKubeconfig(kubeconfig, { domain: 'k8s.io', stdinIsTerminal: false });
      const list = await client.json<{ items: { metadata: { name: string } }[] }>('GET', '/api/v1/namespaces');
      expect(list.items.map((n) => n.metadata.name)).toContain('default');
      // The very input kubectl gave the plugin.
      expect(JSON.parse(readFileSync(join(dir, 'k8s-plugin.input'), 'utf8'))).toEqual(kubectlInput);
      client.close();
    });

    it('kubectl and this client refuse alike: Always without a terminal, a missing command with its installHint', async () => {
      const always = writeKubeconfig('k8s-always.kubeconfig', { server: server.url, caFile: 'k8s-ca.pem', command: './k8s-plugin', apiVersion: 'client.authentication.k8s.io/v1', interactiveMode: 'Always' });
      const missing = writeKubeconfig('k8s-missing.kubeconfig', { server: server.url, caFile: 'k8s-ca.pem', command: 'orch-login-not-installed', apiVersion: 'client.authentication.k8s.io/v1', interactiveMode: 'Never', installHint: 'orch-login is in the orch-tools package' });
      for (const [path, message] of [
        [always, 'exec plugin cannot support interactive mode: standard input is not a terminal'],
        [missing, 'exec: executable orch-login-not-installed not found'],
      ] as const) {
        const run = await runKubectl(kubectl, ['--kubeconfig', path, 'get', 'namespaces', '-o', 'name']);
        expect(run.code).not.toBe(0);
        expect(run.stderr).toContain(message);
        const client = clientFromKubeconfig(path, { domain: 'k8s.io', stdinIsTerminal: false });
        await expect(client.request('GET', '/api/v1/namespaces')).rejects.toThrow(message);
        client.close();
      }
      const run = await runKubectl(kubectl, ['--kubeconfig', missing, 'get', 'namespaces']);
      expect(run.stderr).toContain('orch-login is in the orch-tools package');
    });
  });
});
