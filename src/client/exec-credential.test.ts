import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiNames } from '../machinery/api-names.js';
import { ExecCredentialProvider, execInfoEnvName, parseExecOutput, resolveCommand } from './exec-credential.js';
import type { ExecConfig } from './kubeconfig.js';

const orch = createApiNames();
const k8s = createApiNames('k8s.io');
const V1 = 'client.authentication.orch.io/v1';
const dir = mkdtempSync(join(tmpdir(), 'orch-exec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A plugin script: writes its input to `<name>.input` and prints `output` (or fails as told). */
function plugin(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/usr/bin/env node\nconst fs = require('node:fs');\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const exec = (over: Partial<ExecConfig>): ExecConfig => ({ command: 'x', args: [], env: [], apiVersion: V1, provideClusterInfo: false, interactiveMode: 'Never', ...over });
const cluster = { server: 'https://127.0.0.1:1', caPem: 'CA', insecureSkipTlsVerify: false, execExtension: { a: 1 } };
const provider = (e: ExecConfig, over: { stdinIsTerminal?: boolean; now?: () => number } = {}): ExecCredentialProvider =>
  new ExecCredentialProvider({ exec: e, cluster, baseDir: dir, names: orch, stdinIsTerminal: false, ...over });

describe('exec credential names', () => {
  it('derives the input variable from the domain', () => {
    expect(execInfoEnvName(orch)).toBe('ORCH_EXEC_INFO');
    expect(execInfoEnvName(k8s)).toBe('KUBERNETES_EXEC_INFO');
  });
  it('resolves a relative command path against the kubeconfig directory, leaves bare names to PATH', () => {
    expect(resolveCommand('./bin/p', '/cfg')).toBe('/cfg/bin/p');
    expect(resolveCommand('bin/p', '/cfg')).toBe('/cfg/bin/p');
    expect(resolveCommand('p', '/cfg')).toBe('p');
    expect(resolveCommand('/abs/p', '/cfg')).toBe('/abs/p');
  });
});

describe('parseExecOutput', () => {
  const ok = (status: unknown, apiVersion = V1, kind = 'ExecCredential'): string => JSON.stringify({ apiVersion, kind, status });
  it.each([
    ['not JSON', 'token-abc', "decoding stdout: couldn't get version/kind; json parse error: the output is not JSON"],
    ['no kind', JSON.stringify({ apiVersion: V1, status: { token: 'secret-token' } }), "decoding stdout: Object 'Kind' is missing in the plugin's output"],
    ['another version', ok({ token: 't' }, 'client.authentication.orch.io/v1beta1'), `exec plugin is configured to use API version ${V1}, plugin returned version client.authentication.orch.io/v1beta1`],
    ['another group', ok({ token: 't' }, 'client.authentication.k8s.io/v1'), /plugin returned version client.authentication.k8s.io\/v1$/],
    ['another kind', ok({ token: 't' }, V1, 'Secret'), `decoding stdout: no kind "Secret" is registered for version "${V1}" in group "client.authentication.orch.io"`],
    ['no status', JSON.stringify({ apiVersion: V1, kind: 'ExecCredential' }), "exec plugin didn't return a status field"],
    ['empty status', ok({}), "exec plugin didn't return a token or cert/key pair"],
    ['certificate without key', ok({ clientCertificateData: 'C' }), 'exec plugin returned only certificate or key, not both'],
    ['key without certificate', ok({ token: 't', clientKeyData: 'K' }), 'exec plugin returned only certificate or key, not both'],
    ['bad expiry', ok({ token: 't', expirationTimestamp: 'soon' }), /expirationTimestamp "soon" is not an RFC 3339 time/],
  ])('refuses %s', (_, stdout, message) => {
    expect(() => parseExecOutput(stdout, V1, orch)).toThrow(message);
  });
  it('never quotes the output, which may hold a credential', () => {
    for (const stdout of ['token-abc', JSON.stringify({ apiVersion: V1, status: { token: 'token-abc' } })]) {
      expect(() => parseExecOutput(stdout, V1, orch)).toThrow(expect.objectContaining({ message: expect.not.stringContaining('token-abc') as unknown }));
    }
  });
  it('reads a token, a certificate pair and the expiry', () => {
    expect(parseExecOutput(ok({ token: 't', clientCertificateData: 'C', clientKeyData: 'K', expirationTimestamp: '2030-01-01T00:00:00Z' }), V1, orch)).toEqual({
      token: 't',
      clientCertPem: 'C',
      clientKeyPem: 'K',
      expiresAt: Date.parse('2030-01-01T00:00:00Z'),
    });
  });
});

describe('ExecCredentialProvider', () => {
  const tokenPlugin = plugin(
    'token-plugin',
    `fs.appendFileSync(__filename + '.runs', 'x');
fs.writeFileSync(__filename + '.input', process.env.ORCH_EXEC_INFO + '\\n' + JSON.stringify({ args: process.argv.slice(2), extra: process.env.EXTRA }));
const exp = process.env.EXPIRES;
process.stdout.write(JSON.stringify({ apiVersion: '${V1}', kind: 'ExecCredential', status: { token: 'tok-' + fs.readFileSync(__filename + '.runs', 'utf8').length, ...(exp ? { expirationTimestamp: exp } : {}) } }));`,
  );

  it('passes the input, env and args; with provideClusterInfo the cluster', async () => {
    const p = provider(exec({ command: './token-plugin', args: ['--a', 'b'], env: [{ name: 'EXTRA', value: 'e' }], provideClusterInfo: true }));
    expect((await p.get()).token).toMatch(/^tok-\d+$/);
    const [input, rest] = readFileSync(`${tokenPlugin}.input`, 'utf8').split('\n');
    expect(JSON.parse(input ?? '')).toEqual({
      kind: 'ExecCredential',
      apiVersion: V1,
      spec: { interactive: false, cluster: { server: 'https://127.0.0.1:1', 'certificate-authority-data': Buffer.from('CA').toString('base64'), config: { a: 1 } } },
    });
    expect(JSON.parse(rest ?? '')).toEqual({ args: ['--a', 'b'], extra: 'e' });
  });

  it('caches until the expiry, then runs again; a 401 runs it again once', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const p = provider(exec({ command: tokenPlugin, env: [{ name: 'EXPIRES', value: '2030-01-01T00:10:00Z' }] }), { now: () => now });
    const first = await p.get();
    expect(await p.get()).toBe(first);
    expect(p.runs).toBe(1);
    now = Date.parse('2030-01-01T00:10:01Z');
    const second = await p.get();
    expect(p.runs).toBe(2);
    expect(second.token).not.toBe(first.token);
    const third = await p.rejected(second);
    expect(p.runs).toBe(3);
    // A 401 reported for credentials already replaced does not run it again.
    expect(await p.rejected(second)).toBe(third);
    expect(p.runs).toBe(3);
  });

  it('runs one plugin for concurrent callers', async () => {
    const p = provider(exec({ command: tokenPlugin }));
    const [a, b] = await Promise.all([p.get(), p.get()]);
    expect(a).toBe(b);
    expect(p.runs).toBe(1);
  });

  it('interactiveMode: Always without a terminal does not run the plugin; IfAvailable runs without', async () => {
    const always = provider(exec({ command: tokenPlugin, interactiveMode: 'Always' }));
    await expect(always.get()).rejects.toThrow('exec plugin cannot support interactive mode: standard input is not a terminal');
    expect(always.runs).toBe(0);
    const ifAvailable = provider(exec({ command: tokenPlugin, interactiveMode: 'IfAvailable' }));
    await ifAvailable.get();
    expect(JSON.parse(readFileSync(`${tokenPlugin}.input`, 'utf8').split('\n')[0] ?? '').spec).toEqual({ interactive: false });
  });

  it('a missing command names itself and the installHint', async () => {
    const p = provider(exec({ command: 'orch-no-such-plugin', installHint: 'Install it with: apt-get install orch-plugin' }));
    await expect(p.get()).rejects.toThrow(/^exec: executable orch-no-such-plugin not found\n\n.*\n\nInstall it with: apt-get install orch-plugin$/s);
  });

  it('a failing command: its exit code and stderr', async () => {
    const failing = plugin('failing', `process.stderr.write('no session; run login first\\n'); process.exit(3);`);
    await expect(provider(exec({ command: failing })).get()).rejects.toThrow(`exec: executable ${failing} failed with exit code 3: no session; run login first`);
  });
});
