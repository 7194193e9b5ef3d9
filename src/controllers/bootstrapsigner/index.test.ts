import { flattenedVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Secret } from '../../apis/core/v1/secret.js';
import { createApiNames, type ApiNames } from '../../machinery/api-names.js';
import { signedData, signingTokens } from './index.js';
import { clusterInfoKubeconfig, detachedSignature, signingKey } from './jws.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const orch = createApiNames('orch.io');
const k8s = createApiNames('k8s.io');

function token(names: ApiNames, id: string, data: Record<string, string> = {}): Secret {
  return {
    metadata: { name: `bootstrap-token-${id}`, namespace: names.systemNamespace },
    type: names.labelSubKey('bootstrap', 'token'),
    data: Object.fromEntries(Object.entries({ 'token-id': id, 'token-secret': '0123456789abcdef', 'usage-bootstrap-signing': 'true', ...data }).map(([k, v]) => [k, b64(v)])),
  } as Secret;
}

/** Verifies a detached JWS the way a joining client does, with a JOSE library and HS256 enforced. */
async function verify(jws: string, content: string, key: string): Promise<string> {
  const [protectedHeader, payload, signature] = jws.split('.');
  expect(payload).toBe('');
  const r = await flattenedVerify({ protected: protectedHeader as string, payload: Buffer.from(content).toString('base64url'), signature: signature as string }, new TextEncoder().encode(key), {
    algorithms: ['HS256'],
  });
  return new TextDecoder().decode(r.payload);
}

describe('bootstrap signer', () => {
  it('signs with the full token under orch.io (document 3) and the token secret under k8s.io (Kubernetes)', async () => {
    expect(signingKey(orch, 'abc123', '0123456789abcdef')).toBe('abc123.0123456789abcdef');
    expect(signingKey(k8s, 'abc123', '0123456789abcdef')).toBe('0123456789abcdef');
    const content = clusterInfoKubeconfig('https://10.0.0.1:6443', 'CA');
    const jws = detachedSignature(content, 'abc123', 'abc123.0123456789abcdef');
    expect(JSON.parse(Buffer.from(jws.split('.')[0] as string, 'base64url').toString())).toEqual({ alg: 'HS256', kid: 'abc123' });
    await expect(verify(jws, content, 'abc123.0123456789abcdef')).resolves.toBe(content);
    await expect(verify(jws, content, '0123456789abcdef')).rejects.toThrow();
    await expect(verify(jws, `${content} `, 'abc123.0123456789abcdef')).rejects.toThrow();
  });

  it('signs for well-formed, unexpired tokens marked for signing only', () => {
    const tokens = signingTokens(
      [
        token(orch, 'aaaaaa'),
        token(orch, 'bbbbbb', { 'usage-bootstrap-signing': 'false' }),
        token(orch, 'cccccc', { expiration: '2026-05-01T00:00:00Z' }),
        token(orch, 'dddddd', { expiration: '2026-07-01T00:00:00Z' }),
        token(orch, 'eeeeee', { 'token-secret': 'short' }),
        { ...token(orch, 'ffffff'), type: 'Opaque' },
      ],
      orch,
      NOW,
    );
    expect(tokens.map((t) => t.tokenId)).toEqual(['aaaaaa', 'dddddd']);
    expect(tokens[1]?.expires).toEqual(new Date('2026-07-01T00:00:00Z'));
  });

  it('replaces every old signature with one per token and keeps the other keys', () => {
    const data = { kubeconfig: 'cfg', other: 'kept', 'jws-kubeconfig-zzzzzz': 'stale', 'jws-kubeconfig-aaaaaa': 'old' };
    const next = signedData(data, [{ tokenId: 'aaaaaa', key: 'k' }]);
    expect(Object.keys(next).sort()).toEqual(['jws-kubeconfig-aaaaaa', 'kubeconfig', 'other']);
    expect(next['jws-kubeconfig-aaaaaa']).toBe(detachedSignature('cfg', 'aaaaaa', 'k'));
  });

  it("writes the kubeconfig in kubeadm's shape: one cluster named \"\" with server and CA", () => {
    const doc = parse(clusterInfoKubeconfig('https://[::1]:6443', 'PEM'));
    expect(doc).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: '', cluster: { server: 'https://[::1]:6443', 'certificate-authority-data': b64('PEM') } }],
      contexts: null,
      'current-context': '',
      preferences: {},
      users: null,
    });
    expect(parse(clusterInfoKubeconfig('http://127.0.0.1:1', undefined)).clusters[0].cluster).toEqual({ server: 'http://127.0.0.1:1' });
  });
});
