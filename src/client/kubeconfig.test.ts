import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiNames } from '../machinery/api-names.js';
import { loadKubeconfig, parseKubeconfig, readExec } from './kubeconfig.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-kubeconfig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const b64 = (s: string): string => Buffer.from(s).toString('base64');

const twoContexts = `
apiVersion: v1
kind: Config
current-context: a
clusters:
- name: ca
  cluster:
    server: https://127.0.0.1:6443/
    certificate-authority-data: ${b64('CA-A')}
    extensions:
    - name: client.authentication.orch.io/exec
      extension: {audience: x}
- name: cb
  cluster:
    server: https://127.0.0.1:7443
    certificate-authority: certs/ca.pem
contexts:
- name: a
  context: {cluster: ca, user: ua}
- name: b
  context: {cluster: cb, user: ub}
users:
- name: ua
  user:
    client-certificate-data: ${b64('CERT')}
    client-key-data: ${b64('KEY')}
- name: ub
  user:
    token: inline
    tokenFile: token.txt
`;

describe('kubeconfig', () => {
  it('reads the current context: server, CA and client certificate from *-data, the exec extension', () => {
    const c = parseKubeconfig(twoContexts, dir);
    expect(c.contextName).toBe('a');
    expect(c.cluster).toEqual({ server: 'https://127.0.0.1:6443', caPem: 'CA-A', insecureSkipTlsVerify: false, execExtension: { audience: 'x' } });
    expect(c.user).toEqual({ clientCertPem: 'CERT', clientKeyPem: 'KEY' });
  });

  it('reads another context, with file paths relative to the kubeconfig directory', () => {
    mkdirSync(join(dir, 'certs'), { recursive: true });
    writeFileSync(join(dir, 'certs', 'ca.pem'), 'CA-B');
    writeFileSync(join(dir, 'config'), twoContexts);
    const c = loadKubeconfig(join(dir, 'config'), { context: 'b' });
    expect(c.cluster.caPem).toBe('CA-B');
    expect(c.user).toEqual({ token: 'inline', tokenFile: join(dir, 'token.txt') });
    expect(c.baseDir).toBe(dir);
  });

  it('names what is missing', () => {
    expect(() => parseKubeconfig(twoContexts, dir, { context: 'nope' })).toThrow('context "nope" not found in the kubeconfig');
    expect(() => parseKubeconfig('kind: Config', dir)).toThrow('no current-context');
    expect(() => parseKubeconfig(twoContexts.replace('certs/ca.pem', 'missing.pem'), dir, { context: 'b' })).toThrow('unable to read certificate-authority from missing.pem: ENOENT');
  });

  it('finds the exec extension under the domain it was given (k8s.io)', () => {
    const c = parseKubeconfig(twoContexts.replace('client.authentication.orch.io/exec', 'client.authentication.k8s.io/exec'), dir, { domain: 'k8s.io' });
    expect(c.cluster.execExtension).toEqual({ audience: 'x' });
    expect(parseKubeconfig(twoContexts, dir, { domain: 'k8s.io' }).cluster.execExtension).toBeUndefined();
  });
});

describe('exec block', () => {
  const orch = createApiNames();
  const k8s = createApiNames('k8s.io');
  it.each([
    [{ command: 'p', apiVersion: 'client.authentication.orch.io/v1' }, orch, 'interactiveMode must be specified for u to use exec authentication plugin'],
    [{ command: 'p', apiVersion: 'client.authentication.k8s.io/v1', interactiveMode: 'Never' }, orch, 'exec plugin: invalid apiVersion "client.authentication.k8s.io/v1"'],
    [{ command: 'p', apiVersion: 'client.authentication.orch.io/v1', interactiveMode: 'Sometimes' }, orch, 'invalid interactiveMode "Sometimes"'],
    [{ apiVersion: 'client.authentication.orch.io/v1', interactiveMode: 'Never' }, orch, 'command must be specified'],
  ])('refuses %j', (raw, names, message) => {
    expect(() => readExec(raw, names, 'u')).toThrow(message);
  });

  it('defaults interactiveMode to IfAvailable in v1beta1 and keeps env, args and installHint', () => {
    const e = readExec({ command: './p', apiVersion: 'client.authentication.k8s.io/v1beta1', args: ['a'], env: [{ name: 'N', value: 'v' }], installHint: 'get it', provideClusterInfo: true }, k8s);
    expect(e).toEqual({ command: './p', args: ['a'], env: [{ name: 'N', value: 'v' }], apiVersion: 'client.authentication.k8s.io/v1beta1', installHint: 'get it', provideClusterInfo: true, interactiveMode: 'IfAvailable' });
  });
});
