import { describe, expect, it } from 'vitest';
import type { Secret } from '../../apis/core/v1/secret.js';
import { createApiNames } from '../../machinery/api-names.js';
import type { Logger } from '../../machinery/logger.js';
import { staticLister } from '../../../test/helpers/static-lister.js';
import { bootstrapTokenAuthenticator } from './index.js';

const NOW = new Date('2025-06-01T00:00:00Z');
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const TOKEN = 'abc123.0123456789abcdef';
const VALID = { 'token-id': 'abc123', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' };

function secretOf(data: Record<string, string>, opts: { namespace?: string; name?: string; type?: string; deleting?: boolean } = {}): Secret {
  return {
    metadata: {
      name: opts.name ?? 'bootstrap-token-abc123',
      namespace: opts.namespace ?? 'orch-system',
      ...(opts.deleting ? { deletionTimestamp: '2025-05-31T00:00:00Z' } : {}),
    },
    type: opts.type ?? 'bootstrap.orch.io/token',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const put = (msg: string, fields?: Record<string, unknown>) => void lines.push(`${msg} ${JSON.stringify(fields ?? {})}`);
  return { lines, debug: put, info: put, warn: put, error: put };
}

function authenticate(secrets: Secret[], token = TOKEN, domain?: string) {
  const log = recordingLog();
  const names = createApiNames(domain);
  const a = bootstrapTokenAuthenticator({ names, secrets: staticLister(secrets), log, now: () => NOW });
  return { log, result: a.authenticateToken({ token }, new AbortController().signal) };
}

describe('bootstrap token authenticator', () => {
  it('proves system:bootstrap:<id> in system:bootstrappers and the extra groups, sorted', async () => {
    const { result } = authenticate([secretOf({ ...VALID, 'auth-extra-groups': 'system:bootstrappers:nodes,system:bootstrappers:a', expiration: '2025-06-02T00:00:00Z' })]);
    expect(await result).toEqual({
      kind: 'user',
      user: { username: 'system:bootstrap:abc123', groups: ['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:nodes'] },
    });
  });

  it('reads the Secret under the domain names (k8s.io: kube-system, bootstrap.kubernetes.io/token)', async () => {
    const k8s = secretOf(VALID, { namespace: 'kube-system', type: 'bootstrap.kubernetes.io/token' });
    expect((await authenticate([k8s], TOKEN, 'k8s.io').result).kind).toBe('user');
    expect((await authenticate([k8s]).result).kind).toBe('no-opinion');
  });

  it.each([
    ['not bootstrap-shaped', [secretOf(VALID)], 'abc123.0123456789abcdeF'],
    ['a JWT', [secretOf(VALID)], 'eyJhbGciOiJFUzI1NiJ9.e30.sig'],
    ['no Secret', [], TOKEN],
    ['a Secret in another namespace', [secretOf(VALID, { namespace: 'default' })], TOKEN],
    ['another type', [secretOf(VALID, { type: 'Opaque' })], TOKEN],
    ['a wrong secret', [secretOf({ ...VALID, 'token-secret': '0123456789abcdee' })], TOKEN],
    ['a token-id that is not the name', [secretOf({ ...VALID, 'token-id': 'abc124' })], TOKEN],
    ['expired', [secretOf({ ...VALID, expiration: '2025-05-31T23:59:59Z' })], TOKEN],
    ['expiring this instant', [secretOf({ ...VALID, expiration: '2025-06-01T00:00:00Z' })], TOKEN],
    ['an unreadable expiration', [secretOf({ ...VALID, expiration: 'tomorrow' })], TOKEN],
    ['no usage flag', [secretOf({ 'token-id': 'abc123', 'token-secret': '0123456789abcdef' })], TOKEN],
    ['usage flag not exactly true', [secretOf({ ...VALID, 'usage-bootstrap-authentication': 'True' })], TOKEN],
    ['an extra group outside system:bootstrappers:', [secretOf({ ...VALID, 'auth-extra-groups': 'system:masters' })], TOKEN],
    ['a Secret being deleted', [secretOf(VALID, { deleting: true })], TOKEN],
  ])('has no opinion on %s, and never logs the secret', async (_why, secrets, token) => {
    const { result, log } = authenticate(secrets, token);
    expect(await result).toEqual({ kind: 'no-opinion' });
    expect(log.lines.join('\n')).not.toContain('0123456789abcde');
  });

  it('says which rule refused a matching Secret (debug log)', async () => {
    const { result, log } = authenticate([secretOf({ 'token-id': 'abc123', 'token-secret': '0123456789abcdef' })]);
    await result;
    expect(log.lines).toEqual([expect.stringContaining('Bootstrap secret orch-system/bootstrap-token-abc123 matching bearer token not marked usage-bootstrap-authentication=true.')]);
  });
});
