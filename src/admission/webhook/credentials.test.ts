import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCredentialResolver } from './credentials.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-webhook-kubeconfig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function resolver(text: string) {
  const path = join(dir, `k${Math.random()}.yaml`);
  writeFileSync(path, text);
  return loadCredentialResolver(path);
}

const users = (names: string[]): string =>
  ['users:', ...names.flatMap((n) => [`- name: "${n}"`, '  user:', `    token: "${n}"`])].join('\n');

describe('webhook credentials: which kubeconfig user a webhook host gets (Kubernetes order)', () => {
  const r = resolver(users(['hook.example.com:8443', '*.example.com', '*.team.example.com:8443', 'plain.example.org', '*']));
  it.each([
    ['hook.example.com:8443', 'hook.example.com:8443'],
    ['a.team.example.com:8443', '*.team.example.com:8443'],
    ['a.example.com:8443', '*'],
    ['a.example.com:443', '*.example.com'],
    ['plain.example.org:443', 'plain.example.org'],
    ['plain.example.org:8443', '*'],
    ['webhook.ns.svc:443', '*'],
  ])('%s → %s', (hostPort, user) => {
    expect(r.for(hostPort).token).toBe(user);
  });

  it('falls back to the current context user, then to nothing', () => {
    const withContext = resolver(`${users(['ctx-user'])}\ncontexts:\n- name: c\n  context:\n    user: ctx-user\ncurrent-context: c\n`);
    expect(withContext.for('anything:443').token).toBe('ctx-user');
    expect(resolver(users(['other:443'])).for('anything:443')).toEqual({});
    expect(loadCredentialResolver(undefined).for('anything:443')).toEqual({});
  });

  it('reads certificates, keys and tokens from files relative to the kubeconfig, and basic credentials', () => {
    writeFileSync(join(dir, 'c.pem'), 'CERT');
    writeFileSync(join(dir, 'k.pem'), 'KEY');
    writeFileSync(join(dir, 'token'), 'from-file\n');
    const r2 = resolver('users:\n- name: a:443\n  user:\n    client-certificate: c.pem\n    client-key: k.pem\n- name: b:443\n  user:\n    tokenFile: token\n- name: c:443\n  user:\n    username: u\n    password: p\n');
    expect(r2.for('a:443')).toEqual({ certPem: 'CERT', keyPem: 'KEY' });
    expect(r2.for('b:443')).toEqual({ token: 'from-file' });
    expect(r2.for('c:443')).toEqual({ username: 'u', password: 'p' });
  });

  it('refuses half a client certificate, naming the file and the user', () => {
    const path = join(dir, 'half.yaml');
    writeFileSync(path, `users:\n- name: a\n  user:\n    client-certificate-data: ${Buffer.from('CERT').toString('base64')}\n`);
    expect(() => loadCredentialResolver(path)).toThrow(`the kubeconfig of the admission webhooks (${path}) cannot be used: users["a"].user.client-key is required with the other half of the client certificate`);
  });
});
