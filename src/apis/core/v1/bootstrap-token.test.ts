import { describe, expect, it } from 'vitest';
import { createApiNames } from '../../../machinery/api-names.js';
import type { Secret } from './secret.js';
import { bootstrapExpiration, bootstrapGroups, bootstrapSecretMatches, bootstrapSecretName, bootstrapUserName, parseBootstrapToken, readBootstrapTokenSecret, tokenIdOfSecretName } from './bootstrap-token.js';

const names = createApiNames();
const NOW = new Date('2025-06-01T00:00:00Z');
const b64 = (s: string): string => Buffer.from(s).toString('base64');

function secret(data: Record<string, string>, meta: Partial<Secret['metadata']> = {}, type = 'bootstrap.orch.io/token'): Secret {
  return {
    metadata: { name: 'bootstrap-token-abc123', namespace: 'orch-system', ...meta },
    type,
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}
const valid = { 'token-id': 'abc123', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' };

describe('bootstrap tokens', () => {
  it('parse as <6 of [a-z0-9]>.<16 of [a-z0-9]>', () => {
    expect(parseBootstrapToken('abc123.0123456789abcdef')).toEqual({ id: 'abc123', secret: '0123456789abcdef' });
    for (const bad of ['abc12.0123456789abcdef', 'ABC123.0123456789abcdef', 'abc123.0123456789abcde', 'abc123:0123456789abcdef', 'abc123.0123456789abcdef0']) {
      expect(parseBootstrapToken(bad), bad).toBeUndefined();
    }
    expect(bootstrapSecretName('abc123')).toBe('bootstrap-token-abc123');
    expect(tokenIdOfSecretName('bootstrap-token-abc123')).toBe('abc123');
    expect(tokenIdOfSecretName('bootstrap-token-abc12')).toBeUndefined();
    expect(bootstrapUserName('abc123')).toBe('system:bootstrap:abc123');
  });

  it('always belong to system:bootstrappers, plus extra groups that begin system:bootstrappers:', () => {
    expect(bootstrapGroups(secret(valid))).toEqual({ groups: ['system:bootstrappers'] });
    expect(bootstrapGroups(secret({ ...valid, 'auth-extra-groups': 'system:bootstrappers:b,system:bootstrappers:a,system:bootstrappers:a' }))).toEqual({
      groups: ['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:b'],
    });
    expect(bootstrapGroups(secret({ ...valid, 'auth-extra-groups': 'system:masters' }))).toMatchObject({ error: expect.stringContaining('"system:masters" is invalid') });
    expect(bootstrapGroups(secret({ ...valid, 'auth-extra-groups': 'system:bootstrappers:' }))).toHaveProperty('error');
  });

  it('expire at their RFC 3339 expiration; an unreadable one counts as expired', () => {
    expect(bootstrapExpiration(secret(valid), NOW)).toEqual({ expired: false });
    expect(bootstrapExpiration(secret({ ...valid, expiration: '2025-06-02T00:00:00Z' }), NOW)).toMatchObject({ expired: false });
    expect(bootstrapExpiration(secret({ ...valid, expiration: '2025-06-01T00:00:00Z' }), NOW)).toMatchObject({ expired: true });
    expect(bootstrapExpiration(secret({ ...valid, expiration: '2025-06-01T01:00:00+02:00' }), NOW)).toMatchObject({ expired: true });
    expect(bootstrapExpiration(secret({ ...valid, expiration: 'tomorrow' }), NOW)).toEqual({ expired: true });
  });

  it('are read from a well-formed Secret with their usages', () => {
    const r = readBootstrapTokenSecret(secret({ ...valid, 'usage-bootstrap-signing': 'yes', description: 'for workers' }), names, NOW);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect([...r.token.usages]).toEqual(['authentication']);
    expect(r.token.description).toBe('for workers');
    expect(bootstrapSecretMatches(r.token, '0123456789abcdef')).toBe(true);
    expect(bootstrapSecretMatches(r.token, '0123456789abcdee')).toBe(false);
    expect(bootstrapSecretMatches(r.token, 'short')).toBe(false);
  });

  it.each([
    ['another type', secret(valid, {}, 'Opaque'), 'has invalid type'],
    ['another namespace', secret(valid, { namespace: 'default' }), 'is not in the orch-system namespace'],
    ['a bad name', secret(valid, { name: 'token-abc123' }), 'has an invalid name'],
    ['an id not matching the name', secret({ ...valid, 'token-id': 'zzz999' }), 'token-id'],
    ['a short secret', secret({ ...valid, 'token-secret': '0123' }), 'token-secret'],
    ['an upper-case secret', secret({ ...valid, 'token-secret': '0123456789ABCDEF' }), 'token-secret'],
    ['an expired one', secret({ ...valid, expiration: '2020-01-01T00:00:00Z' }), 'has expired'],
    ['a foreign extra group', secret({ ...valid, 'auth-extra-groups': 'admins' }), 'auth-extra-groups'],
    ['a deleted one', secret(valid, { deletionTimestamp: '2025-01-01T00:00:00Z' }), 'is deleted'],
  ])('refuse %s', (_what, s, reason) => {
    const r = readBootstrapTokenSecret(s, names, NOW);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain(reason);
  });

  it('use Kubernetes names under --api-domain=k8s.io', () => {
    const k8s = createApiNames('k8s.io');
    const s = secret(valid, { namespace: 'kube-system' }, 'bootstrap.kubernetes.io/token');
    expect(readBootstrapTokenSecret(s, k8s, NOW).ok).toBe(true);
  });
});
